"""Every order HELP.txt and the hosting plan (section 4.10) write parses and does what they say."""

from __future__ import annotations

from kentucksea_derby_builders import GAME, ScriptedRng, derby
from order_text import orders_of

from pbem.games.kentucksea_derby.state import STAGE_BET, STAGE_SPEED


def test_the_help_bet_15_bets_15_of_your_40_shells() -> None:
    """HELP: "BET 15 -- bet 15 of your 40 shells (0 to 40)" (example 10A: from 40 to 25)."""
    assert "  BET 15        bet 15 of your 40 shells (0 to 40)" in GAME.help()
    state = derby(3, column=("black", "red", "white", "blue", "yellow", "green"), shells=(40,) * 3, stage=STAGE_BET)
    orders = {"1": orders_of(GAME, "BET 15"), "2": orders_of(GAME, "bet 0"), "3": orders_of(GAME, "Bet 40")}
    after = GAME.resolve(state, orders, ScriptedRng([])).state
    assert after.shells[0] == 25 and after.bets[0] == 15


def test_the_help_bid_3_pays_3_shells_at_once_and_the_highest_bid_plays_first() -> None:
    """HELP: "BID 3 -- 1 to 5 shells (never more than you have)"; "The highest bid plays first"."""
    assert "     BID 3         1 to 5 shells" in GAME.help()
    state = derby(3)
    orders = {"1": orders_of(GAME, "BID 3"), "2": orders_of(GAME, "BID 5"), "3": orders_of(GAME, "BID 1")}
    after = GAME.resolve(state, orders, ScriptedRng([])).state
    assert after.order == ("2", "1", "3") and after.shells == (17, 15, 19)
    assert after.stage == STAGE_SPEED and after.speakers == ("3", "1", "2")  # reverse turn order


def test_the_help_speed_blue_6_and_speed_pass() -> None:
    """HELP: "SPEED blue 6 -- put the blue racer on row 6 (the bottom)"; "SPEED PASS -- leave the
    column as it is"; the others keep their order (example 10D)."""
    assert "     SPEED blue 6    put the blue racer on row 6 (the bottom)" in GAME.help()
    assert "     SPEED PASS      leave the column as it is" in GAME.help()
    column = ("red", "blue", "green", "yellow", "black", "white")
    state = derby(3, column=column, stage=STAGE_SPEED, speakers=("3", "2", "1"))
    state = GAME.resolve(state, {"3": orders_of(GAME, "SPEED blue 6")}, ScriptedRng([])).state
    assert state.column == ("red", "green", "yellow", "black", "white", "blue")
    state = GAME.resolve(state, {"2": orders_of(GAME, "SPEED PASS")}, ScriptedRng([])).state
    assert state.column == ("red", "green", "yellow", "black", "white", "blue") and state.speakers == ("1",)


def test_the_nmr_orders_named_in_help_are_the_defaults() -> None:
    """HELP: "No orders by the deadline (NMR), or NOORDERS: BET 0; no bid, which pays the minimum, 1;
    SPEED PASS" ([C] BID 1, SPEED PASS; plan [D] BET 0)."""
    assert GAME.default_orders(derby(3, stage=STAGE_BET, shells=(40,) * 3), "1") == orders_of(GAME, "BET 0")
    assert GAME.default_orders(derby(3, stage=STAGE_SPEED, speakers=("1",)), "1") == orders_of(GAME, "SPEED PASS")
    state = derby(3)
    assert GAME.default_orders(state, "1") == []
    orders = {"1": [], "2": orders_of(GAME, "BID 2"), "3": orders_of(GAME, "BID 3")}
    after = GAME.resolve(state, orders, ScriptedRng([])).state
    assert after.shells[0] == 19  # no bid pays 1, as BID 1 would


def test_the_check_reply_to_a_bet_gives_the_bet_and_shells_after_the_adjustments() -> None:
    """Example 10B's adjustments in the check reply: the bet gains 5 when the rival is a player's racer,
    the shells gain 10 when one's racer is a player's rival (they are known when the bet is sent)."""
    column = ("black", "blue", "red", "green", "white", "yellow")  # seat 1 red, 2 blue, 3 green, 4 yellow
    state = derby(4, column=column, shells=(40,) * 4, stage=STAGE_BET)
    assert GAME.submission_summary(state, "1", orders_of(GAME, "BET 15")) == (
        "Your bet will stand at 20 and you will have 35 shells left: your bet gains 5 (your rival blue is "
        "seat 2's) and you gain 10 shells (your racer is a player's rival).")
    assert GAME.submission_summary(state, "4", orders_of(GAME, "BET 15")) == (
        "Your bet will stand at 15 and you will have 25 shells left.")
