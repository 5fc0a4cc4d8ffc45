"""Worked examples for every rule of Shelloker (rule book game 8 with examples 8A-8C,
CLARIFICATIONS, hosting plan section 4.8)."""

from __future__ import annotations

import pytest
from shelloker_builders import GAME, table

from pbem.core import GameError, GameRng, IllegalOrder, OrderProblem
from pbem.core.bag import Bag
from pbem.games.shelloker.orders import Call, Check, Fold, Raise
from pbem.games.shelloker.rules import legal_actions, showdown_key
from pbem.games.shelloker.state import full_bag


def _act(state, order, seed=0):  # type: ignore[no-untyped-def]
    return GAME.resolve(state, {state.seat_to_play: [order]}, GameRng(seed))


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_twenty_shells_two_cliff_cubes_three_secret_cubes_each(players: int) -> None:
    """[R][C] 20 shells, bet cubes on 1, 48 cubes (8 a colour), 2 drawn onto cliffs 1 and 2, then 3 each."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(players))
    assert state.shells == (20,) * players and state.bets == (1,) * players
    assert len(state.cliffs) == 2 and all(h.size == 3 for h in state.hands)
    total = state.bag.add(state.cliffs)
    for hand in state.hands:
        total = total + hand
    assert total == full_bag()
    assert state.seat_to_play == "1" and state.round == 1


def test_the_deal_is_sealed_and_the_cliff_draws_are_listed() -> None:
    """The cliff cubes are public draws; the hands are sealed draws, kept out of the reports' list."""
    rng = GameRng(3)
    GAME.setup(("1", "2", "3"), {"start": "random"}, rng)
    assert [n for _, n, _ in rng.draws] == [48, 47, 3]  # two cliff cubes, then the first player
    assert [n for _, n, _ in rng.sealed_draws] == [46, 45, 44, 43, 42, 41, 40, 39, 38]


def test_the_start_option_gives_the_first_player_disc() -> None:
    assert GAME.setup(("1", "2", "3"), {"start": "2"}, GameRng(0)).seat_to_play == "2"
    with pytest.raises(GameError, match="start=9"):
        GAME.setup(("1", "2", "3"), {"start": "9"}, GameRng(0))
    with pytest.raises(GameError, match="unknown option"):
        GAME.setup(("1", "2"), {"shells": "30"}, GameRng(0))
    with pytest.raises(GameError, match="2 to 6 players"):
        GAME.seat_names(7)


# --- the four actions --------------------------------------------------------------------------


def test_check_only_while_nobody_has_raised() -> None:
    """[R] "Once a player has raised, players may no longer Check"."""
    state = table({"1": "red red red", "2": "blue blue blue"})
    assert GAME.validate(state, "1", [Check()]) == []
    raised = table({"1": "red red red", "2": "blue blue blue"}, bets=(4, 1), raised=True, to_play="2")
    assert GAME.validate(raised, "2", [Check()]) == [
        OrderProblem(0, "CHECK: seat 1 has raised, so you may no longer check: CALL, RAISE n or FOLD")]


def test_a_raise_goes_above_the_top_bet_within_the_shells_and_the_twelve_spaces() -> None:
    """[R] "not allowed to Raise to a number higher than the value of your Score cube"; [C] spaces 1..12."""
    state = table({"1": "red red red", "2": "blue blue blue"}, bets=(1, 4), raised=True, shells=(9, 20))
    assert GAME.validate(state, "1", [Raise(5)]) == []
    assert GAME.validate(state, "1", [Raise(4)]) == [OrderProblem(0, "RAISE 4: a raise must go above the top bet, 4")]
    assert GAME.validate(state, "1", [Raise(10)]) == [
        OrderProblem(0, "RAISE 10: you have only 9 shells; you may raise to at most that (CALL any bet)")]
    rich = table({"1": "red red red", "2": "blue blue blue"}, shells=(30, 20))
    assert GAME.validate(rich, "1", [Raise(13)]) == [OrderProblem(0, "RAISE 13: the bet spaces end at 12")]
    after = _act(state, Raise(9)).state
    assert after.bets == (9, 4) and after.raised and after.seat_to_play == "2"


def test_a_call_may_go_beyond_the_callers_shells_but_not_before_a_raise() -> None:
    """[R] "you are allowed to Call any amount"; [D] CALL before a raise is refused (send CHECK)."""
    state = table({"1": "red red red", "2": "blue blue blue"}, bets=(1, 9), raised=True, shells=(4, 20))
    result = _act(state, Call())
    assert result.events[0].text == "Seat 1 calls 9 (more than his shells)."
    assert GAME.validate(table({"1": "red red red", "2": "blue blue blue"}), "1", [Call()]) == [
        OrderProblem(0, "CALL: nobody has raised yet; to stay on 1 send CHECK")]


def test_a_fold_loses_the_bet_spaces_shells_and_returns_the_cubes_unseen() -> None:
    """[R] Fold: "you immediately lose the number of Shells equal to the number in the space your Bet cube
    is in ... Place your Value cubes back in the bag without letting anyone see them"."""
    state = table({"1": "red red red", "2": "blue blue blue", "3": "green green green"}, bets=(3, 5, 1),
                  raised=True, to_play="1")
    result = _act(state, Fold())
    after = result.state
    assert after.shells[0] == 17 and after.folded[0] and after.hands[0] == Bag()
    assert after.bag.count("red") == state.bag.count("red") + 3
    assert result.events[0].text == "Seat 1 folds and loses 3 shells (17 left); his cubes go back to the bag unseen."
    assert "red" not in " ".join(e.text for e in result.events)


def test_the_turn_goes_clockwise_skipping_folded_players_and_those_on_the_top_bet() -> None:
    """[D] after a raise the turn passes clockwise, skipping folded players and those on the top bet."""
    hands = {"1": "red red red", "2": "blue blue blue", "3": "green green green", "4": "white white white"}
    state = table(hands, bets=(6, 6, 1, 1), folded=("3",), raised=True, to_play="4")
    result = _act(state, Call())  # seat 4 calls 6: seats 1 and 2 stand on 6, seat 3 folded
    assert [e.kind for e in result.events][:2] == ["call", "showdown"]  # everybody in stands on 6
    state = table(hands, bets=(6, 2, 1, 1), folded=("3",), raised=True, to_play="4")
    assert _act(state, Call()).state.seat_to_play == "2"
    state = table(hands, first="3", to_play="3")
    after = _act(state, Check()).state
    assert after.seat_to_play == "4" and after.checked == (False, False, True, False)


# --- the three ends of a round ---------------------------------------------------------------------


def test_everybody_checked_nothing_changes_hands() -> None:
    """[R] "If all the players decide to Check, they must return the Value cubes ... and the round ends"."""
    state = table({"1": "red red red", "2": "blue blue blue"}, checked=("1",), to_play="2")
    result = _act(state, Check())
    after = result.state
    assert after.shells == (20, 20) and after.round == 2
    assert "Everybody checked: nothing changes hands" in result.events[1].text


def test_example_8a_the_last_player_left_gains_the_highest_folded_bet() -> None:
    """[R] Example 8A: Georgette (seat 1) raised to 8; Ringo and Michelle had folded; John, Paul and Lucy
    fold losing 5, 5 and 6; Georgette gains 6, Lucy's bet."""
    hands = {"1": "red red red", "2": "blue blue blue", "3": "green green green", "4": "white white white",
             "5": "", "6": ""}
    state = table(hands, bets=(8, 5, 5, 6, 2, 3), folded=("5", "6"), raised=True, to_play="2")
    state = _act(state, Fold()).state
    state = _act(state, Fold()).state
    result = _act(state, Fold())
    after = result.state
    assert after.shells[:4] == (26, 15, 15, 14)
    win = [e for e in result.events if e.kind == "fold-win"][0]
    assert win.text == ("Everybody else folded: seat 1 gains 6 shells, the highest bet among the folded players "
                        "(26 now); his cubes go back to the bag unseen.")
    assert all("red" not in e.text for e in result.events if e.seats is None)  # his hand stays unseen


def test_the_fold_win_is_not_capped_by_the_winners_shells() -> None:
    """[D] fold-win gains are not capped: seat 2 called 9 with 2 shells; seat 1 folded on 9; when seat 3
    folds too, seat 2 gains 9."""
    state = table({"1": "", "2": "blue blue blue", "3": "green green green"}, shells=(11, 2, 20), bets=(9, 9, 1),
                  folded=("1",), raised=True, to_play="3")
    after = _act(state, Fold()).state
    assert after.shells == (11, 11, 19)


def test_example_8b_a_call_that_levels_the_bets_starts_the_showdown() -> None:
    """[R] Example 8B: Ringo, Michelle and Lucy folded; John and Georgette stand on 7; Paul calls: the three
    reveal their cubes."""
    hands = {"1": "red blue green", "2": "yellow yellow black", "3": "white white red", "4": "", "5": "", "6": ""}
    state = table(hands, bets=(7, 7, 3, 2, 1, 4), folded=("4", "5", "6"), raised=True, to_play="3")
    result = _act(state, Call())
    showdown = [e for e in result.events if e.kind == "showdown"][0]
    assert showdown.seats is None and set(showdown.data["hands"]) == {"1", "2", "3"}
    assert GAME.view(result.state, None)["shown"][2] == {"seat": "3", "cubes": ["red", "white", "white"],
                                                         "text": "red, white, white"}


def test_example_8c_values_the_highest_cliff_colour_breaks_the_tie_and_the_called_winner_gains_his_shells() -> None:
    """[R] Example 8C: green and yellow worth 3, blue and red 2, black and white 1; Georgette 7, John and
    Paul 8; Paul wins on green (cliff space 6); he called 7 with 5 shells, so he gains 5 and the losers
    lose 5."""
    hands = {"1": "green blue blue", "2": "yellow yellow blue", "3": "green green blue"}
    cliffs = "yellow red green blue yellow green"
    state = table(hands, cliffs=cliffs, shells=(20, 20, 5), bets=(7, 7, 1), raised=True, to_play="3")
    assert [state.value(c) for c in ("green", "yellow", "blue", "red", "black", "white")] == [3, 3, 2, 2, 1, 1]
    assert [state.worth(state.hands[i]) for i in range(3)] == [7, 8, 8]
    result = _act(state, Call())
    after = result.state
    assert after.shells == (15, 15, 10)
    texts = [e.text for e in result.events]
    assert ("Seats 2, 3 tie on 8; cliff space 6 is green: seat 2 holds 0 green cubes, seat 3 holds 2. "
            "Seat 3 wins and gains 5 shells (he called beyond his shells, so he gains only what he has); "
            "seat 1, seat 2 lose 5.") in texts


def test_a_tie_goes_down_the_cliff_spaces_and_a_tie_that_remains_costs_only_the_losers() -> None:
    """[R] "If still tied, repeat the same check on the next highest number space ... the tied winners
    neither gain nor lose Shells"."""
    cliffs = table({"1": "", "2": ""}, cliffs="red blue green")
    # both worth 5 with one green (space 3): space 2's blue decides before space 1's red
    assert showdown_key(cliffs, ["green", "blue", "black"]) > showdown_key(cliffs, ["green", "red", "black"])
    hands = {"1": "red blue green", "2": "blue green red", "3": "black black white"}
    state = table(hands, cliffs="red blue", shells=(20, 20, 20), bets=(6, 6, 1), raised=True, to_play="3")
    result = _act(state, Call())
    assert result.state.shells == (20, 20, 14)
    assert "Seats 1, 2 tie on 5 and on every cliff space: they neither gain nor lose; seat 3 loses 6." in [
        e.text for e in result.events]


def test_the_tie_break_looks_at_the_highest_cliff_space_first() -> None:
    hands = {"1": "red red yellow", "2": "blue blue yellow"}  # both worth 2+2+1 = 5 with cliffs red, blue
    state = table(hands, cliffs="red blue", bets=(4, 2), raised=True, to_play="2")
    result = _act(state, Call())
    assert result.state.shells == (16, 24)  # space 2 (the highest) is blue: seat 2 has more blue


def test_a_loser_without_the_shells_loses_what_he_has() -> None:
    """[D] shells never go below 0."""
    hands = {"1": "red red red", "2": "white white white"}
    state = table(hands, cliffs="red blue", shells=(20, 3), bets=(9, 1), raised=True, to_play="2")
    after = _act(state, Call()).state
    assert after.shells == (29, 0) and after.finished  # a player with 0 shells ends the game


# --- rounds and the end --------------------------------------------------------------------------------


def test_a_new_round_draws_a_cliff_cube_passes_the_disc_and_deals_again() -> None:
    """[R] Reset: bet cubes back on 1, a new cliff cube in the next empty space, the disc to the left;
    [D] the order return, draw, deal."""
    state = table({"1": "red red red", "2": "blue blue blue", "3": "green green green"}, checked=("1", "2"),
                  to_play="3")
    result = _act(state, Check(), seed=5)
    after = result.state
    assert after.round == 2 and len(after.cliffs) == 3 and after.first == 1 and after.seat_to_play == "2"
    assert after.bets == (1, 1, 1) and not any(after.checked) and all(h.size == 3 for h in after.hands)
    total = after.bag.add(after.cliffs)
    for hand in after.hands:
        total = total + hand
    assert total == full_bag()
    kinds = [e.kind for e in result.events]
    assert kinds == ["check", "all-check", "cliff", "deal", "draw", "draw", "draw"]
    assert [e.seats for e in result.events if e.kind == "draw"] == [("2",), ("3",), ("1",)]


@pytest.mark.parametrize(("shells", "cliffs", "reason"), [
    ((35, 20), "red blue", "seat 1 reached 35 shells"),
    ((20, 20), "red blue green yellow black white red blue green yellow black white", "all 12 cliff spaces"),
])
def test_the_game_ends_at_the_end_of_a_round(shells: tuple[int, int], cliffs: str, reason: str) -> None:
    """[R] ends if a player reaches 35 shells, any player has 0, or all 12 cliff spaces have a cube."""
    state = table({"1": "", "2": ""}, cliffs=cliffs, shells=shells, checked=("1",), to_play="2")
    after = _act(state, Check()).state
    assert after.finished and reason in after.end_reason
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert GAME.validate(after, "1", [Check()])[0].message == "the game is over"
    with pytest.raises(GameError):
        _act(after, Check())


def test_the_most_shells_win_and_a_tie_shares() -> None:
    """[R] "the player(s) with the most Shells wins"."""
    state = table({"1": "", "2": "", "3": ""}, shells=(25, 25, 0), checked=("1", "2"), to_play="3")
    outcome = GAME.outcome(_act(state, Check()).state)
    assert outcome is not None and outcome.winners == ("1", "2")


# --- NMR, forced plays, robots -----------------------------------------------------------------------------


def test_the_nmr_default_checks_when_allowed_else_folds() -> None:
    """[C] NMR: CHECK when allowed, else FOLD."""
    assert GAME.default_orders(table({"1": "red red red", "2": "blue blue blue"}), "1") == [Check()]
    raised = table({"1": "red red red", "2": "blue blue blue"}, bets=(1, 5), raised=True)
    assert GAME.default_orders(raised, "1") == [Fold()]


def test_nothing_is_ever_forced() -> None:
    """Plan 4.8: forced plays: none; there is always FOLD and another option."""
    poor = table({"1": "red red red", "2": "blue blue blue"}, shells=(1, 20), bets=(1, 12), raised=True)
    assert GAME.forced_orders(poor, "1") is None
    assert legal_actions(poor, 0) == [Call(), Fold()]


def test_sample_orders_make_every_kind_of_action() -> None:
    state = table({"1": "red red red", "2": "blue blue blue"})
    rng = GameRng(1)
    kinds = set()
    for _ in range(100):
        orders = GAME.sample_orders(state, "1", rng)
        assert GAME.validate(state, "1", orders) == []
        kinds.add(type(orders[0]))
    raised = table({"1": "red red red", "2": "blue blue blue"}, bets=(1, 5), raised=True)
    kinds |= {type(GAME.sample_orders(raised, "1", rng)[0]) for _ in range(100)}
    assert kinds == {Check, Raise, Call, Fold}


def test_one_order_a_turn() -> None:
    state = table({"1": "red red red", "2": "blue blue blue"})
    assert GAME.validate(state, "1", [Check(), Fold()]) == [
        OrderProblem(None, "a turn is exactly one order: CHECK, RAISE n, CALL or FOLD")]
    assert GAME.validate(state, "2", [Check()]) == [OrderProblem(None, "it is not your turn: waiting for seat 1")]
    with pytest.raises(IllegalOrder):
        _act(table({"1": "red red red", "2": "blue blue blue"}, bets=(1, 5), raised=True), Check())
