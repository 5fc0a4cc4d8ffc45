"""Tests of the seat numbering and the start option (pbem/core/seats.py)."""

from __future__ import annotations

import pytest

from pbem.core import GameError, GameRng
from pbem.core.seats import RANDOM, START, START_DESCRIPTION, first_player, numbered_seats

SEATS = ("1", "2", "3", "4")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_numbered_seats_are_1_to_n_in_turn_order(players: int) -> None:
    assert numbered_seats("Fungus", players, 2, 4) == tuple(str(n) for n in range(1, players + 1))


@pytest.mark.parametrize("players", [0, 1, 5])
def test_numbered_seats_refuse_a_player_count_out_of_range_naming_the_game(players: int) -> None:
    with pytest.raises(GameError, match=rf"^Fungus is for 2 to 4 players, not {players}$"):
        numbered_seats("Fungus", players, 2, 4)


def test_without_the_start_option_the_first_seat_plays_first_and_no_draw_is_made() -> None:
    rng = GameRng(3)
    before = rng.get_state()
    assert first_player(SEATS, None, rng) == 0
    assert rng.get_state() == before


@pytest.mark.parametrize(("value", "index"), [("1", 0), ("3", 2), (" 4 ", 3)])
def test_start_naming_a_seat_picks_that_seat(value: str, index: int) -> None:
    assert first_player(SEATS, value, GameRng(0)) == index


def test_start_matches_seat_names_in_any_letter_case() -> None:
    assert first_player(("A", "B", "C"), "b", GameRng(0)) == 1
    assert first_player(("A", "B", "C"), "C", GameRng(0)) == 2


def test_start_works_with_seats_that_are_not_1_to_n() -> None:
    assert first_player(("1", "3"), "3", GameRng(0)) == 1
    with pytest.raises(GameError, match=r"give a seat \(1, 3\) or random"):
        first_player(("1", "3"), "2", GameRng(0))


@pytest.mark.parametrize("value", ["random", "RANDOM", " Random "])
def test_start_random_draws_once_like_choice_so_stored_games_replay(value: str) -> None:
    for seed in range(30):
        expected = GameRng(seed)
        rng = GameRng(seed)
        assert SEATS[first_player(SEATS, value, rng)] == expected.choice(SEATS)
        assert rng.get_state() == expected.get_state()


def test_start_random_can_pick_every_seat() -> None:
    assert {first_player(SEATS, RANDOM, GameRng(seed)) for seed in range(40)} == {0, 1, 2, 3}


@pytest.mark.parametrize("value", ["5", "0", "first", "last", "", "1 2"])
def test_a_bad_start_value_is_refused_quoting_it_and_the_choices(value: str) -> None:
    with pytest.raises(GameError) as caught:
        first_player(SEATS, value, GameRng(0))
    assert str(caught.value) == f"option start={value}: give a seat (1, 2, 3, 4) or random"


def test_the_start_option_is_named_and_described_for_options() -> None:
    assert START == "start"
    assert "random" in START_DESCRIPTION and "seat 1" in START_DESCRIPTION
