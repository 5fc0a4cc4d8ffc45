"""Every order HELP.txt and the hosting plan (section 4.8) write parses and does what they say, and
a showdown decided by the cliffs says how."""

from __future__ import annotations

from order_text import orders_of
from shelloker_builders import GAME, table

from pbem.core import GameRng


def _play(state, text):  # type: ignore[no-untyped-def]
    return GAME.resolve(state, {state.seat_to_play: orders_of(GAME, text)}, GameRng(0))


def test_the_help_orders_check_raise_6_call_and_fold_do_what_help_says() -> None:
    """HELP: "CHECK stay on bet space 1", "RAISE 6 move your bet cube above the top bet", "CALL move
    your bet cube to the top bet (allowed even above your shells)", "FOLD ... you lose the shells of
    your bet space"."""
    for line in ("CHECK       stay on bet space 1", "RAISE 6     move your bet cube above the top bet",
                 "CALL        move your bet cube to the top bet", "FOLD        leave the round"):
        assert line in GAME.help()
    hands = {"1": "red red red", "2": "blue blue blue", "3": "white white white"}
    state = table(hands)
    state = _play(state, "CHECK").state
    assert state.bets == (1, 1, 1) and state.checked == (True, False, False)
    state = _play(state, "RAISE 6").state
    assert state.bets[1] == 6
    state = _play(state, "FOLD").state  # seat 3 folds on 1 and loses 1
    assert state.shells[2] == 19 and state.folded[2]
    result = _play(state, "CALL")  # seat 1 calls 6: the bets are level, showdown
    assert [e.kind for e in result.events][:3] == ["call", "showdown", "showdown-result"]


def test_a_raise_above_the_shells_is_refused_and_a_call_above_them_is_not() -> None:
    """HELP: RAISE "to at most 12, and at most your shells"; CALL "allowed even above your shells"."""
    state = table({"1": "red red red", "2": "blue blue blue"}, shells=(20, 4), bets=(6, 1), raised=True, to_play="2")
    assert GAME.validate(state, "2", orders_of(GAME, "RAISE 7"))[0].message == (
        "RAISE 7: you have only 4 shells; you may raise to at most that (CALL any bet)")
    assert GAME.validate(state, "2", orders_of(GAME, "CALL")) == []


def test_the_nmr_orders_named_in_help_are_the_defaults() -> None:
    """HELP and [C]: "CHECK when nobody has raised, else FOLD"."""
    hands = {"1": "red red red", "2": "blue blue blue"}
    assert GAME.default_orders(table(hands), "1") == orders_of(GAME, "CHECK")
    raised = table(hands, bets=(1, 5), raised=True)
    assert GAME.default_orders(raised, "1") == orders_of(GAME, "FOLD")


def test_a_showdown_says_which_cliff_space_broke_the_tie() -> None:
    """[R] "the winner is the player with the highest number of Value cubes of the same color of the
    Value cube in the highest number space ... If still tied, repeat the same check on the next
    highest number space": three hands worth 5; space 2 (blue) puts seat 3 out, space 1 (red) leaves
    seats 1 and 2 tied, so they neither gain nor lose and seat 3 loses."""
    hands = {"1": "red blue green", "2": "blue red green", "3": "red red yellow"}
    state = table(hands, cliffs="red blue", bets=(6, 6, 1), raised=True, to_play="3")
    result = _play(state, "CALL")
    text = next(e.text for e in result.events if e.kind == "showdown-result")
    assert text == ("Seats 1, 2, 3 tie on 5; cliff space 2 is blue: seat 1 holds 1 blue cube, seat 2 holds 1, "
                    "seat 3 holds 0. Seats 1, 2 tie even after the cliffs: they neither gain nor lose; "
                    "seat 3 loses 6.")
    assert result.state.shells == (20, 20, 14)


def test_a_showdown_won_on_worth_alone_names_no_cliff() -> None:
    hands = {"1": "red red red", "2": "white white white"}
    result = _play(table(hands, bets=(4, 1), raised=True, to_play="2"), "CALL")
    text = next(e.text for e in result.events if e.kind == "showdown-result")
    assert text == "Seat 1 wins and gains 4 shells; seat 2 loses 4."


def test_the_fold_summary_says_what_the_fold_costs_at_most_the_shells_held() -> None:
    """[R] "Fold: you immediately lose the number of Shells equal to the number in the space your Bet
    cube is in"; [D] at most the shells one has: seat 2 called 9 with 3 shells, seat 1 raised to 11."""
    hands = {"1": "red red red", "2": "blue blue blue"}
    state = table(hands, shells=(20, 3), bets=(11, 9), raised=True, to_play="2")
    assert GAME.submission_summary(state, "2", orders_of(GAME, "FOLD")) == "You fold and lose 3 shells."
    assert _play(state, "FOLD").state.shells == (29, 0)  # seat 1 gains seat 2's bet, 9; seat 2 has none left
    cheap = table(hands, to_play="2")
    assert GAME.submission_summary(cheap, "2", orders_of(GAME, "FOLD")) == "You fold and lose 1 shell."
