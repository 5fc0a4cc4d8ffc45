"""Worked examples for every rule of The Top of the Temple (rule book game 3, CLARIFICATIONS,
hosting plan section 4.3)."""

from __future__ import annotations

import pytest
from temple_builders import GAME, offer, temple

from pbem.core import GameError, GameRng, IllegalOrder, OrderProblem
from pbem.games.top_of_the_temple.state import COLOURS, TOP


def _resolve(state, text):  # type: ignore[no-untyped-def]
    return GAME.resolve(state, {state.seat_to_play: [offer(text)]}, GameRng(0))


# --- setup -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_draws_one_secret_colour_from_the_bag_of_five(players: int) -> None:
    """[R] "Put 1 cube per color in the bag. Each player draws a cube": distinct colours."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(players))
    assert len(state.secrets) == players and len(set(state.secrets)) == players
    assert set(state.secrets) <= set(COLOURS)
    assert set(state.undrawn) == set(COLOURS) - set(state.secrets)
    assert state.steps == (0, 0, 0, 0, 0)  # [R] one believer per colour on the starting space


def test_every_colour_can_be_drawn_by_every_seat() -> None:
    drawn = {GAME.setup(("1", "2"), {}, GameRng(seed)).secrets[0] for seed in range(40)}
    assert drawn == set(COLOURS)


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players: int) -> None:
    with pytest.raises(GameError, match="2 to 5 players"):
        GAME.seat_names(players)


def test_seat_1_starts_unless_the_start_option_says_otherwise() -> None:
    """[C] first player: seat 1, or start=random / start=N (the book's "randomly choose")."""
    assert GAME.setup(("1", "2", "3"), {}, GameRng(0)).seat_to_play == "1"
    assert GAME.setup(("1", "2", "3"), {"start": "3"}, GameRng(0)).seat_to_play == "3"
    starters = {GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(s)).seat_to_play for s in range(30)}
    assert starters == {"1", "2", "3"}


@pytest.mark.parametrize(("options", "message"), [({"start": "7"}, "start=7"), ({"size": "3"}, "unknown option")])
def test_bad_options_are_refused_by_name(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(0))


def test_the_secret_colours_are_sealed_draws_not_listed_in_reports() -> None:
    """The draws of the secret colours are kept out of the draw list every report shows:
    their results would tell each colour."""
    rng = GameRng(5)
    GAME.setup(("1", "2", "3"), {"start": "random"}, rng)
    assert len(rng.sealed_draws) == 3
    assert len(rng.draws) == 1 and rng.draws[0][1] == 3  # only the first player, drawn from 3 seats


# --- a turn ----------------------------------------------------------------------------------


def test_example_3a_offers_resolve_from_left_to_right() -> None:
    """[R] Example 3A: blue +5, green +3, yellow +1, black -1, red -2."""
    state = temple("blue red", {"black": 4, "red": 6})
    result = _resolve(state, "blue green yellow black red")
    after = result.state
    assert [after.step_of(c) for c in ("blue", "green", "yellow", "black", "red")] == [5, 3, 1, 3, 4]
    moves = [e.data["colour"] for e in result.events if e.kind == "move"]
    assert moves == ["blue", "green", "yellow", "black", "red"]
    assert after.seat_to_play == "2"  # [R] turns go clockwise


def test_believers_may_share_a_step() -> None:
    """[R] "Sharing a space is allowed"."""
    state = _resolve(temple("blue red", {"green": 2}), "blue red green yellow black").state
    assert state.step_of("blue") == 5 and state.step_of("green") == 3 and state.step_of("red") == 3


def test_a_believer_never_goes_below_the_start() -> None:
    """[C] a believer never goes below 0."""
    result = _resolve(temple("blue red", {"black": 1}), "blue green red black yellow")
    assert result.state.step_of("black") == 0 and result.state.step_of("yellow") == 0
    assert "stays on step 0" in [e.text for e in result.events if e.data.get("colour") == "yellow"][0]


def test_an_offer_must_place_each_colour_exactly_once() -> None:
    """[R] "You must place all 5 cubes"."""
    state = temple("blue red")
    assert GAME.validate(state, "1", [offer("blue green red black yellow")]) == []
    assert GAME.validate(state, "1", [offer("blue blue red black yellow")]) == [OrderProblem(
        0, "OFFER blue blue red black yellow: each of the five colours goes on exactly one offer space "
           "(blue is given more than once; green is missing)")]
    assert GAME.validate(state, "1", []) == [
        OrderProblem(None, "a turn is exactly one OFFER, e.g. OFFER blue green red black yellow")]
    assert GAME.validate(state, "1", [offer("blue green red black yellow")] * 2)[0].index is None
    with pytest.raises(IllegalOrder, match="green is missing"):
        _resolve(state, "blue blue red black yellow")


def test_only_the_seat_to_play_may_offer() -> None:
    assert GAME.validate(temple("blue red"), "2", [offer("blue green red black yellow")]) == [
        OrderProblem(None, "it is not your turn: waiting for seat 1")]


# --- the end ---------------------------------------------------------------------------------


def test_reaching_the_top_ends_the_game_at_once_and_later_offers_are_not_resolved() -> None:
    """[R] "the game immediately ends"; [D] offers further right in that turn are not resolved;
    [D] overshooting stops on step 12."""
    state = temple("blue red", {"red": 9, "green": 5})
    result = _resolve(state, "red green yellow black blue")
    after = result.state
    assert after.finished and after.step_of("red") == TOP  # 9 + 5 = 14 stops on 12
    assert after.step_of("green") == 5  # the +3 on its right was not resolved
    assert [e.kind for e in result.events][-2:] == ["unresolved", "reveal"]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == ("2",)
    assert "seat 2's secret colour" in outcome.reason


def test_a_believer_nobody_owns_on_top_gives_the_win_to_the_closest_owned_believer() -> None:
    """[R] "If the cube color on the last step doesn't match any player's Secret cube, the player
    whose Believer is closest to the top is the winner"."""
    state = temple("blue red", {"green": 10, "blue": 7, "red": 8})
    after = _resolve(state, "yellow green blue red black").state  # yellow 5, then green 10+3 -> top
    assert after.top_colour == "green"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == ("2",)
    assert "nobody drew green" in outcome.reason and "seat 2 (red)" in outcome.reason


def test_a_tie_for_closest_to_the_top_is_a_shared_win() -> None:
    """[D] a tie for "closest to the top" is a shared win."""
    state = temple("blue red", {"green": 11, "blue": 6, "red": 6})
    after = _resolve(state, "green blue red yellow black").state
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == ("1", "2") and outcome.kind.value == "shared"


def test_all_secrets_are_revealed_at_the_end_and_scores_are_the_steps() -> None:
    """[R] "the players must reveal their Secret cubes"; undrawn colours too."""
    state = temple("blue red", {"red": 9})
    result = _resolve(state, "red green yellow black blue")
    reveal = result.events[-1]
    assert reveal.seats is None and reveal.text == (
        "The secret colours are revealed: seat 1 blue, seat 2 red; nobody drew green, yellow, black.")
    view = GAME.view(result.state, None)
    assert [p["colour"] for p in view["players"]] == ["blue", "red"] and view["undrawn"] == ["green", "yellow",
                                                                                             "black"]
    assert GAME.scores(result.state) == {"1": 0, "2": 12}


def test_scores_are_zero_while_the_game_runs() -> None:
    """A running score would tell which believer is whose."""
    assert GAME.scores(temple("blue red", {"blue": 7})) == {"1": 0, "2": 0}


def test_no_orders_after_the_end() -> None:
    state = _resolve(temple("blue red", {"red": 11}), "red green yellow black blue").state
    assert GAME.validate(state, "1", [offer("red green yellow black blue")])[0].message == "the game is over"
    with pytest.raises(GameError):
        _resolve(state, "red green yellow black blue")


# --- NMR and forced plays --------------------------------------------------------------------


def test_the_nmr_default_is_the_colours_in_listed_order_for_everyone() -> None:
    """[C] NMR: OFFER red blue green yellow black, whatever the seat's colour."""
    for secrets in ("blue red", "red blue", "black green"):
        assert [str(o) for o in GAME.default_orders(temple(secrets), "1")] == ["OFFER red blue green yellow black"]


def test_nothing_is_ever_forced() -> None:
    """Plan 4.3: forced plays: none."""
    assert GAME.forced_orders(temple("blue red"), "1") is None


def test_sample_orders_are_legal_permutations_of_every_kind() -> None:
    state = temple("blue red")
    rng = GameRng(1)
    seen = set()
    for _ in range(200):
        orders = GAME.sample_orders(state, "1", rng)
        assert GAME.validate(state, "1", orders) == []
        seen.add(orders[0].colours[0])
    assert seen == set(COLOURS)
