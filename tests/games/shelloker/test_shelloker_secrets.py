"""Hands reach only their holder until a showdown shows them to everybody; folded hands and the
hand of a player who won because the others folded are never shown, not even at the end; the
bag's content never. The rule of hidden information holds under redrawing."""

from __future__ import annotations

import json

import pytest
from game_views import everything_shown
from hidden_invariance import check_hidden_variants
from shelloker_builders import GAME, table
from test_conformance import play

from pbem.core import GameRng
from pbem.games.shelloker.orders import Call, Check, Fold, Raise


def _act(state, order):  # type: ignore[no-untyped-def]
    return GAME.resolve(state, {state.seat_to_play: [order]}, GameRng(2))


@pytest.mark.parametrize("reader", ["1", "3", None])
def test_another_seats_hand_shows_nowhere(reader: str | None) -> None:
    """Seat 2 holding three whites or three reds looks the same to every other reader and the public."""
    one = table({"1": "blue blue green", "2": "white white white", "3": "black yellow red"})
    two = table({"1": "blue blue green", "2": "red red red", "3": "black yellow red"})
    assert everything_shown(GAME, one, reader) == everything_shown(GAME, two, reader)


def test_a_seat_sees_its_own_hand_and_its_worth() -> None:
    state = table({"1": "blue blue green", "2": "white white white"}, cliffs="blue green")
    assert GAME.view(state, "1")["hand"] == {"cubes": ["blue", "blue", "green"], "text": "blue, blue, green",
                                             "worth": 6}
    assert GAME.view(state, None)["hand"] is None


def test_the_bags_content_is_never_in_a_view() -> None:
    state = table({"1": "blue blue green", "2": "white white white"})
    for reader in ("1", "2", None):
        view = GAME.view(state, reader)
        assert view["bag_count"] == 40 and "bag" not in view
        assert "bag" not in json.dumps(view).replace("bag_count", "")


def test_a_folded_hand_is_never_shown_not_even_at_the_end() -> None:
    """[R] "Place your Value cubes back in the bag without letting anyone see them"."""
    state = table({"1": "white white white", "2": "red red red"}, shells=(20, 1), bets=(1, 1))
    result = _act(state, Raise(5))
    result = GAME.resolve(result.state, {"2": [Fold()]}, GameRng(2))  # seat 2 folds; seat 1 wins by the fold
    texts = " ".join(e.text for e in result.events if e.seats is None)
    assert "white" not in texts and "red red" not in texts
    assert result.state.finished  # seat 2 has 0 shells: the game ends
    final = everything_shown(GAME, result.state, None, result.events)
    assert "white, white, white" not in final and "red, red, red" not in final
    assert GAME.view(result.state, None)["shown"] == []


def test_showdown_hands_are_shown_to_everybody() -> None:
    state = table({"1": "white white white", "2": "red red red"}, bets=(1, 5), raised=True)
    result = _act(state, Call())
    for reader in ("1", "2", None):
        shown = everything_shown(GAME, result.state, reader, result.events)
        assert "seat 1 shows white, white, white" in shown and "seat 2 shows red, red, red" in shown


def test_the_deal_tells_each_seat_only_its_own_cubes() -> None:
    state = table({"1": "white white white", "2": "red red red"}, checked=("1",), to_play="2")
    result = _act(state, Check())
    draws = [e for e in result.events if e.kind == "draw"]
    assert [e.seats for e in draws] == [("2",), ("1",)]
    assert all(e.text == f"You draw {', '.join(e.data['cubes'])}." for e in draws)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_redrawing_the_other_hands_and_the_bag_changes_nothing_the_service_shows_or_does(players: int) -> None:
    """The rule of hidden information (plan X3) on states of random games."""
    changed = 0
    _, _, states = play(GAME, players, 7)
    for number, state in enumerate(states[:: max(1, len(states) // 10)]):
        changed += check_hidden_variants(GAME, state, GAME.seat_names(players), number)
    assert changed > 0


def test_a_redrawing_keeps_the_kept_hand_every_size_and_every_cube() -> None:
    state = table({"1": "white white white", "2": "red red red", "3": "blue blue blue"})
    for seed in range(10):
        other = GAME.hidden_variant(state, "2", GameRng(seed))
        assert other.hands[1] == state.hands[1] and [h.size for h in other.hands] == [3, 3, 3]
        assert other.bag.size == state.bag.size
        assert other.bag + other.hands[0] + other.hands[2] == state.bag + state.hands[0] + state.hands[2]
