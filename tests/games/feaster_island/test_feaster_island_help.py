"""Every order HELP.txt and the hosting plan (section 4.11) write parses and does what they say, and
the check reply says what a play takes only when a play was accepted."""

from __future__ import annotations

from feaster_island_builders import GAME, ScriptedRng, table
from order_text import orders_of, parsed_text

from pbem.games.feaster_island.state import COLOURS, STAGE_LAST
from pbem.service.checking import check_orders


def test_the_help_turn_place_yellow_1_yellow_2_white_5_take_5() -> None:
    """HELP: "PLACE yellow:1 yellow:2 white:5 / TAKE 5" after drawing 2 yellow and 1 white (example 11A):
    the cubes go on columns 1, 2 and 5, and column 5's cubes are taken, the white just placed included."""
    assert "  PLACE yellow:1 yellow:2 white:5\n  TAKE 5\n" in GAME.help()
    state = table(["blue", "green", "black", "blue", "red white", "green"], drawn=["yellow", "white", "yellow"])
    orders = orders_of(GAME, "PLACE yellow:1 yellow:2 white:5\nTAKE 5")
    assert GAME.validate(state, "1", orders) == []
    after = GAME.resolve(state, {"1": orders}, ScriptedRng([1])).state
    assert after.plate("1") == {**{c: 0 for c in COLOURS}, "red": 1, "white": 2}
    assert after.columns[:2] == (("blue", "yellow"), ("green", "yellow"))


def test_the_plan_turn_place_red_1_yellow_3_then_take_3_split_over_lines() -> None:
    """Plan 4.11 ([C] confirmed): `PLACE red:1 yellow:3` then `TAKE 3`, in one mail; HELP: "You may
    split the pairs over several PLACE lines"."""
    state = table(["blue", "", "black", "", "", ""], drawn=["yellow", "red"])
    for text in ("PLACE red:1 yellow:3\nTAKE 3", "PLACE red:1\nPLACE yellow:3\nTAKE 3", "TAKE 3\nplace YELLOW:3 red:1"):
        orders = orders_of(GAME, text)
        assert GAME.validate(state, "1", orders) == [], text
        after = GAME.resolve(state, {"1": orders}, ScriptedRng([1])).state
        assert after.plate("1")["black"] == 1 and after.plate("1")["yellow"] == 1, text


def test_the_help_last_round_take_4_and_pass() -> None:
    """HELP: "TAKE 4 -- take column 4", "PASS -- take nothing" in the last round."""
    state = table(["red", "", "", "blue green", "", ""], stage=STAGE_LAST, last_left=2)
    after = GAME.resolve(state, {"1": orders_of(GAME, "TAKE 4")}, ScriptedRng([])).state
    assert after.plate("1")["blue"] == 1 and after.plate("1")["green"] == 1 and after.seat == "2"
    after = GAME.resolve(after, {"2": orders_of(GAME, "PASS")}, ScriptedRng([])).state
    assert after.is_over and sum(after.plate("2").values()) == 0


def test_a_refused_last_take_is_not_summed_up_as_taking_no_column() -> None:
    """A TAKE of an empty column is refused and nothing is stored, so the reply must not also say
    "You take no column." (which reads as if a PASS were stored); a PASS does say it."""
    state = table(["red", "", "", "", "", ""], stage=STAGE_LAST, last_left=2)
    refused = check_orders(GAME, state, "1", parsed_text(GAME, "TAKE 2"))
    assert refused.lines[0].problem is not None and refused.summary == ""
    passed = check_orders(GAME, state, "1", parsed_text(GAME, "PASS"))
    assert passed.is_clean and passed.summary == "You take no column."
    took = check_orders(GAME, state, "1", parsed_text(GAME, "TAKE 1"))
    assert took.summary == "You will take 1 cube from column 1: 1 red."
