"""Every order HELP.txt and the hosting plan (section 4.7) write parses and does what they say."""

from __future__ import annotations

from great_regatta_builders import GAME, ScriptedRng, regatta, sailing
from order_text import orders_of

from pbem.core import OrderProblem
from pbem.games.great_regatta.rules import WHOLE_DECISION


def test_the_help_start_of_turn_new_then_roll_until_12_is_carried_out_in_one_go() -> None:
    """HELP: "NEW / ROLL UNTIL 12" in one mail. The first roll, 3, puts the boat on 3; the plan
    pushes a 4 (moves 5, to 8) and a 5 (moves 6, to 14) and stops on 12 or beyond."""
    assert "  NEW\n  ROLL UNTIL 12\n" in GAME.help()
    result = GAME.resolve(regatta(), {"1": orders_of(GAME, "NEW\nROLL UNTIL 12")}, ScriptedRng([3, 4, 5]))
    assert result.state.boats_of("1") == (14,) and result.state.seat == "2"
    assert result.events[-1].text == "Seat 1 has carried out the plan and stops: the boat stays on 14."


def test_the_help_orders_advance_7_roll_stop_and_roll_until_15() -> None:
    """HELP's order table: "ADVANCE 7 sail your boat on space 7 (a cube of your supply is spent)",
    "ROLL push your luck once; then you are asked again", "STOP end your turn; the boat stays where
    it is", "ROLL UNTIL 15 a plan: keep pushing until the boat stands on 15 or beyond"."""
    for line in ("NEW              a new boat on the start", "ADVANCE 7        sail your boat on space 7",
                 "ROLL             push your luck once", "STOP             end your turn",
                 "ROLL UNTIL 15    a plan"):
        assert line in GAME.help()
    state = regatta({"1": [7]})
    state = GAME.resolve(state, {"1": orders_of(GAME, "ADVANCE 7")}, ScriptedRng([2])).state
    assert state.moving == 9 and state.supply == (4, 5) and GAME.phase(state).name == "push"
    state = GAME.resolve(state, {"1": orders_of(GAME, "ROLL")}, ScriptedRng([1])).state
    assert state.moving == 11 and GAME.phase(state).name == "push"  # asked again
    state = GAME.resolve(state, {"1": orders_of(GAME, "ROLL UNTIL 15")}, ScriptedRng([3])).state
    assert state.boats_of("1") == (15,) and state.seat == "2"
    stop = GAME.resolve(sailing(regatta(), 4, covered=[4]), {"1": orders_of(GAME, "STOP")}, ScriptedRng([]))
    assert stop.state.boats_of("1") == (4,)


def test_a_refused_decision_is_refused_whole_and_claims_no_earlier_decision() -> None:
    """HELP: "if one of its lines is refused, none of it is stored (a decision you sent earlier for the
    same step, if any, still stands)"; the game says only that the decision goes together: whether an
    earlier one stands is the service's to say."""
    assert "a decision you sent earlier for the same step, if any, still stands" in GAME.help()
    problems = GAME.validate(regatta(), "1", orders_of(GAME, "NEW\nROLL\nSTOP"))
    assert problems[-1] == OrderProblem(None, WHOLE_DECISION)
    assert all("earlier" not in problem.message for problem in problems)
