"""Worked examples for every rule of The Great Regatta (rule book game 7, hosting plan §4.7)."""

from __future__ import annotations

import pytest
from great_regatta_builders import GAME, ScriptedRng, regatta, sailing

from pbem.core import GameError, GameRng, IllegalOrder, Outcome
from pbem.core.protocol import SILENCE_PASS
from pbem.games.great_regatta.orders import Advance, New, Roll, RollUntil, Stop
from pbem.games.great_regatta.rules import WHOLE_DECISION
from pbem.games.great_regatta.state import STAGE_OVER, STAGE_PUSH, STAGE_START

# --- setup and options ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_each_with_five_boats_in_supply(players: int) -> None:
    """Rule book setup 2: "Each player takes a supply of 5 cubes in their color"."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(1))
    assert state.supply == (5,) * players and state.boats == ((),) * players
    assert state.stage == STAGE_START and state.seat == "1"
    assert GAME.phase(state).name == "start" and GAME.phase(state).deadline_hours is None


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(GameError, match="2 to 4 players"):
        GAME.seat_names(players)


@pytest.mark.parametrize(("options", "message"), [
    ({"push_hours": "0"}, "option push_hours=0: give a whole number from 1 to 720"),
    ({"push_hours": "soon"}, "option push_hours=soon"),
    ({"start": "7"}, "option start=7"),
    ({"laps": "2"}, "unknown option 'laps'"),
])
def test_bad_options_are_refused_naming_option_and_value(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(1))


def test_start_random_draws_the_first_player() -> None:
    """Rule book setup 4 "Randomly choose the starting player" is plan §3's start=random."""
    assert {GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(s)).seat for s in range(20)} == {"1", "2", "3"}
    assert GAME.setup(("1", "2", "3"), {"start": "2"}, GameRng(1)).seat == "2"


# --- launching, advancing, the first roll -----------------------------------------------------------


def test_new_puts_a_boat_on_the_start_and_the_service_rolls_and_covers_the_number() -> None:
    """Rule book step 1-2: take a boat from the supply, place it on 0, roll, move, cover the number."""
    result = GAME.resolve(regatta(), {"1": [New()]}, ScriptedRng([4]))
    state = result.state
    assert state.stage == STAGE_PUSH and state.moving == 4 and state.origin == 0 and state.covered == (4,)
    assert state.supply == (4, 5)
    assert [e.text for e in result.events] == [
        "Seat 1 puts a new boat on the start.",
        "Seat 1 rolls 4: the boat moves 4, from 0 to 4 (4 covered).",
    ]
    phase = GAME.phase(state)
    assert phase.name == "push" and phase.seats == ("1",)
    assert phase.prompt == ("Your boat stands on 4 (from 0; rolled 4; covered: 4). Push your luck? "
                            "ROLL, STOP or ROLL UNTIL <space>; silence is STOP.")


def test_advance_spends_a_supply_cube_to_sail_an_own_boat_again() -> None:
    """Rule book step 1: "Remove a boat cube from your supply to move one of your existing boat cubes"."""
    state = regatta({"1": [3, 9], "2": [5]})
    result = GAME.resolve(state, {"1": [Advance(9), Stop()]}, ScriptedRng([2]))
    after = result.state
    assert after.boats == ((3, 11), (5,)) and after.supply == (4, 5)
    assert after.stage == STAGE_START and after.seat == "2"
    assert result.events[0].text == "Seat 1 discards a boat cube to advance the boat on 9."


def test_advance_needs_an_own_boat_on_that_space() -> None:
    """Plan §4.7: ADVANCE needs an own boat on the track."""
    state = regatta({"1": [3], "2": [9]})
    problems = GAME.validate(state, "1", [Advance(9)])
    assert problems[0].index == 0 and problems[0].message == "ADVANCE 9: you have no boat on 9 (your boats are on 3)"
    problems = GAME.validate(regatta(), "1", [Advance(2)])
    assert problems[0].message == "ADVANCE 2: you have no boat on 2 (you have no boat on the course; send NEW)"
    assert problems[-1].index is None and problems[-1].message == WHOLE_DECISION


def test_a_turn_starts_with_exactly_one_action_and_at_most_one_continuation() -> None:
    state = regatta({"1": [3]})
    assert GAME.validate(state, "1", [Stop()])[0].message == "a turn starts with NEW or ADVANCE <space>"
    assert GAME.validate(state, "1", [New(), Advance(3)])[0].message == "one boat a turn: NEW or ADVANCE, not both or twice"
    assert GAME.validate(state, "1", [New(), Roll(), Stop()])[0].index == 2
    assert GAME.validate(state, "1", [Stop(), New()]) == []  # the lines may come in any order


def test_only_the_seat_to_play_may_send_orders() -> None:
    assert GAME.validate(regatta(), "2", [New()])[0].message == "it is not your turn: waiting for seat 1"


# --- pushing your luck ---------------------------------------------------------------------------------


def test_a_push_on_an_uncovered_number_moves_the_roll_plus_one_and_covers_it() -> None:
    """Rule book step 3: "move the Boat as many spaces as the result of the die PLUS ONE"; plan [D]: covered."""
    state = sailing(regatta(), 4, covered=[4])
    result = GAME.resolve(state, {"1": [Roll()]}, ScriptedRng([2]))
    assert result.state.moving == 7 and result.state.covered == (2, 4) and result.state.stage == STAGE_PUSH
    assert result.events[0].text == "Seat 1 pushes and rolls 2: the boat moves 3, from 4 to 7 (2 covered)."


def test_a_push_on_a_covered_number_loses_the_boat_and_ends_the_turn() -> None:
    """Rule book step 3: "If the result of the die is already covered by a disc, remove the Boat cube from
    play and end your turn"; step 4: the discs are cleared."""
    state = sailing(regatta({"1": [12]}), 9, covered=[4, 5], rolls=[4, 5], origin=0)
    result = GAME.resolve(state, {"1": [Roll()]}, ScriptedRng([5]))
    after = result.state
    assert after.boats == ((12,), ()) and after.supply == (4, 5)
    assert after.stage == STAGE_START and after.seat == "2" and after.covered == () and after.moving is None
    assert result.events[-1].text == "Seat 1 pushes and rolls 5, already covered: the boat on 9 is lost and the turn ends."


def test_stop_ends_the_turn_and_the_boat_stays() -> None:
    result = GAME.resolve(sailing(regatta(), 6, covered=[6]), {"1": [Stop()]}, ScriptedRng([]))
    assert result.state.boats == ((6,), ()) and result.state.seat == "2" and result.state.covered == ()
    assert result.events[-1].text == "Seat 1 stops: the boat stays on 6."


def test_moving_past_18_wraps_to_the_start_and_beyond() -> None:
    """Rule book: "If a Boat must move beyond the last space, it continues on to the start space and beyond"."""
    result = GAME.resolve(sailing(regatta(), 16, covered=[1]), {"1": [Roll()]}, ScriptedRng([4]))
    assert result.state.moving == 2 and result.state.passed_start
    assert result.events[0].text == "Seat 1 pushes and rolls 4: the boat moves 5 past the start, from 16 to 2 (4 covered)."


@pytest.mark.parametrize(("third", "moving", "lost"), [(1, 16, False), (2, None, True), (3, None, True),
                                                      (4, 0, False), (5, 1, False), (6, 2, False)])
def test_example_7a_a_push_onto_pauls_boat_must_push_again(third: int, moving: int | None, lost: bool) -> None:
    """Example 7A: John advances, rolls 3 (3 covered), pushes and rolls 2 (moves 3, 2 covered) onto Paul's
    boat, so he must roll again: a 2 or 3 loses the boat, a 1 moves 2, a 4 or higher sends him to or
    past the start."""
    state = regatta({"1": [8], "2": [14]})
    state = GAME.resolve(state, {"1": [Advance(8)]}, ScriptedRng([3])).state
    assert state.moving == 11 and state.covered == (3,)
    result = GAME.resolve(state, {"1": [Roll()]}, ScriptedRng([2, third]))
    after = result.state
    assert "Space 14 holds a boat of seat 2: seat 1 must push, and the service rolls." in [e.text for e in result.events]
    if lost:
        assert after.stage == STAGE_START and after.seat == "2" and after.boats == ((), (14,))
    else:
        assert after.stage == STAGE_PUSH and after.moving == moving and after.covered == tuple(sorted({2, 3, third}))
        assert after.passed_start == (third >= 4)


def test_a_mandatory_push_overrides_a_planned_stop() -> None:
    """Rule book IMPORTANT: a boat ending on another boat MUST push; plan [D]: the service rolls it without
    asking, overriding a planned STOP."""
    state = regatta({"2": [4]})
    result = GAME.resolve(state, {"1": [New(), Stop()]}, ScriptedRng([4, 1]))
    assert result.state.boats == ((6,), (4,)) and result.state.seat == "2"
    assert [e.kind for e in result.events] == ["new", "roll", "must-push", "roll", "stop"]


def test_an_own_boat_and_the_start_count_as_occupied() -> None:
    """Rule book: "a space where there is another Boat (yours or someone else's)"; plan: space 0 included."""
    own = GAME.resolve(regatta({"1": [3]}), {"1": [New(), Stop()]}, ScriptedRng([3, 2]))
    assert own.events[2].text == "Space 3 holds another boat of seat 1: seat 1 must push, and the service rolls."
    assert own.state.boats_of("1") == (3, 6)
    start = GAME.resolve(sailing(regatta({"2": [0]}), 15, covered=[2]), {"1": [Roll()]}, ScriptedRng([3, 1]))
    assert start.events[1].text == "Space 0 holds a boat of seat 2: seat 1 must push, and the service rolls."
    assert start.state.moving == 2


def test_a_new_boat_leaves_the_start_with_its_first_roll_even_when_a_boat_rests_there() -> None:
    result = GAME.resolve(regatta({"2": [0]}), {"1": [New(), Stop()]}, ScriptedRng([5]))
    assert result.state.boats == ((5,), (0,))


def test_pushes_are_bounded_by_the_six_result_circles() -> None:
    """With 1..6 covered any push loses the boat: a turn has at most six rolls that move."""
    state = sailing(regatta(), 10, covered=[1, 2, 3, 4, 5, 6])
    result = GAME.resolve(state, {"1": [Roll()]}, ScriptedRng([6]))
    assert result.state.boats == ((), ()) and result.events[-1].kind == "lost"


# --- ROLL UNTIL --------------------------------------------------------------------------------------------


def test_roll_until_is_carried_out_over_several_rolls_in_one_go() -> None:
    """CLARIFICATIONS: "keep rolling until the boat stands on that space or beyond"."""
    result = GAME.resolve(regatta(), {"1": [New(), RollUntil(12)]}, ScriptedRng([2, 1, 3, 4]))
    # 0 -> 2; push 1: +2 -> 4; push 3: +4 -> 8; push 4: +5 -> 13 >= 12: stop
    assert result.state.boats == ((13,), ()) and result.state.seat == "2"
    assert [e.kind for e in result.events] == ["new", "roll", "plan", "roll", "roll", "roll", "stop"]
    assert result.events[-1].text == "Seat 1 has carried out the plan and stops: the boat stays on 13."


def test_roll_until_stops_when_the_boat_passes_the_start() -> None:
    """Plan §4.7 [D]: the plan stops once the boat has passed the start during this turn."""
    state = sailing(regatta(), 15, covered=[5])
    result = GAME.resolve(state, {"1": [RollUntil(18)]}, ScriptedRng([3]))
    assert result.state.boats == ((0,), ())
    result = GAME.resolve(state, {"1": [RollUntil(18)]}, ScriptedRng([6]))
    assert result.state.boats == ((3,), ())


def test_roll_until_stops_when_the_boat_is_lost() -> None:
    result = GAME.resolve(sailing(regatta(), 5, covered=[5]), {"1": [RollUntil(17)]}, ScriptedRng([1, 5]))
    assert result.state.boats == ((), ()) and result.events[-1].kind == "lost"


def test_roll_until_still_makes_a_mandatory_push_on_the_target() -> None:
    """Plan §4.7 [D]: mandatory pushes override the plan's stop."""
    state = sailing(regatta({"2": [12]}), 9, covered=[4])
    result = GAME.resolve(state, {"1": [RollUntil(12)]}, ScriptedRng([2, 1]))
    assert result.state.boats == ((14,), (12,))
    assert [e.kind for e in result.events] == ["plan", "roll", "must-push", "roll", "stop"]


@pytest.mark.parametrize(("space", "message"), [
    (0, "ROLL UNTIL 0: name a space from 1 to 18"),
    (19, "ROLL UNTIL 19: name a space from 1 to 18"),
    (7, "ROLL UNTIL 7: your boat stands on 9 already; name a space beyond it, or send ROLL or STOP"),
])
def test_roll_until_must_name_a_space_beyond_the_boat(space: int, message: str) -> None:
    problems = GAME.validate(sailing(regatta(), 9, covered=[3]), "1", [RollUntil(space)])
    assert (problems[0].index, problems[0].message) == (0, message)


def test_roll_until_at_the_start_of_a_turn_counts_from_the_boats_space() -> None:
    state = regatta({"1": [10]})
    assert GAME.validate(state, "1", [Advance(10), RollUntil(10)])[0].message.startswith(
        "ROLL UNTIL 10: your boat stands on 10 already")
    assert GAME.validate(state, "1", [Advance(10), RollUntil(11)]) == []
    assert GAME.validate(state, "1", [New(), RollUntil(1)]) == []


def test_a_boat_that_passed_the_start_takes_roll_or_stop_only() -> None:
    state = sailing(regatta(), 2, covered=[3, 4], passed_start=True)
    assert GAME.validate(state, "1", [RollUntil(10)])[0].message == (
        "ROLL UNTIL 10: your boat has passed the start this turn, so a plan would stop at once; send ROLL or STOP")


def test_a_push_decision_is_exactly_one_of_roll_stop_roll_until() -> None:
    state = sailing(regatta(), 6, covered=[6])
    assert GAME.validate(state, "1", [New()])[0].message == (
        "NEW: your boat is already sailing this turn; send ROLL, STOP or ROLL UNTIL")
    assert GAME.validate(state, "1", [Roll(), Stop()])[0].index is None
    assert GAME.validate(state, "1", [])[0].index is None


def test_resolve_refuses_an_illegal_decision() -> None:
    with pytest.raises(IllegalOrder, match="seat 1: a turn starts with NEW"):
        GAME.resolve(regatta(), {"1": [Stop()]}, ScriptedRng([]))
    with pytest.raises(GameError, match="no orders for seat 1"):
        GAME.resolve(regatta(), {}, ScriptedRng([]))


# --- NMR, windows, forced plays ---------------------------------------------------------------------------


def test_nmr_is_new_then_stop_and_stop_in_a_push_decision() -> None:
    """CLARIFICATIONS / plan §4.7: NMR NEW, then STOP; in a push phase, STOP."""
    assert GAME.default_orders(regatta(), "1") == [New(), Stop()]
    assert GAME.default_orders(sailing(regatta(), 3, covered=[3]), "1") == [Stop()]


def test_a_push_decision_is_a_short_answer_window_where_silence_is_stop() -> None:
    """Plan §4.7 and X2: a shorter deadline for push phases; silence there means PASS (STOP), not NMR."""
    phase = GAME.phase(sailing(regatta(), 3, covered=[3]))
    assert phase.deadline_hours == 24 and phase.silence == SILENCE_PASS and phase.is_window
    state = GAME.setup(("1", "2"), {"push_hours": "6"}, GameRng(1))
    state = GAME.resolve(state, {"1": [New()]}, ScriptedRng([2])).state
    assert GAME.phase(state).deadline_hours == 6
    assert GAME.phase(GAME.setup(("1", "2"), {}, GameRng(1))).is_window is False


def test_there_are_no_forced_plays_and_the_game_asks_for_digests() -> None:
    """Plan §4.7: no forced plays (mandatory pushes are rolled inside resolve); X4: default digests."""
    assert GAME.forced_orders(regatta(), "1") is None
    assert GAME.forced_orders(sailing(regatta(), 3, covered=[3]), "1") is None
    assert GAME.default_reports == "digest"


# --- the end and scoring ------------------------------------------------------------------------------------


def test_the_game_ends_when_every_supply_is_used_and_boats_score_their_spaces() -> None:
    """Rule book: the game ends when no cubes are left in the supplies; "Each player adds up all the points
    from the spaces where they have a cube"."""
    state = regatta({"1": [5, 12], "2": [9, 16]}, supply=[0, 1], current=1)
    result = GAME.resolve(state, {"2": [Advance(9), Stop()]}, ScriptedRng([1]))
    final = result.state
    assert final.stage == STAGE_OVER and final.boats == ((5, 12), (10, 16))
    assert GAME.scores(final) == {"1": 17, "2": 26}
    assert GAME.outcome(final) == Outcome(("2",), "Seat 2 has the most points, 26.")
    assert result.events[-1].text == "Every boat cube is used: the regatta is over. Scores: seat 1 17, seat 2 26."


def test_a_tie_goes_to_the_most_advanced_boat() -> None:
    """Rule book: "If there is a tie, the winner is the tied player with the most advanced Boat"; plan [D]:
    the highest space."""
    state = regatta({"1": [5, 12], "2": [2, 14]}, supply=[0, 1], current=1)
    final = GAME.resolve(state, {"2": [New(), Stop()]}, ScriptedRng([1])).state
    assert GAME.scores(final) == {"1": 17, "2": 17}
    outcome = GAME.outcome(final)
    assert outcome == Outcome(("2",), "Seats 1 and 2 have 17 points each; seat 2 has the most advanced boat, on 14.")


def test_a_boat_on_the_start_beats_no_boat_and_no_boats_at_all_share_the_win() -> None:
    """Plan §4.7 [D]: if the most advanced boats are equal, a shared win. Boats never share a space at the end
    of a turn, so that happens only between tied players without any boat."""
    state = regatta({"3": [0]}, supply=[0, 0, 1], current=2, players=3)
    final = GAME.resolve(state, {"3": [New(), Roll()]}, ScriptedRng([2, 2])).state  # the new boat is lost
    assert final.stage == STAGE_OVER and GAME.scores(final) == {"1": 0, "2": 0, "3": 0}
    assert GAME.outcome(final) == Outcome(("3",), "Seats 1, 2 and 3 have 0 points each; seat 3 has the most "
                                                  "advanced boat, on 0.")
    state = regatta({}, supply=[0, 1], current=1)
    final = GAME.resolve(state, {"2": [New()]}, ScriptedRng([3])).state
    final = GAME.resolve(final, {"2": [Roll()]}, ScriptedRng([3])).state
    assert GAME.outcome(final) == Outcome(("1", "2"), "Seats 1 and 2 have 0 points each and none of them has a "
                                                      "boat on the course: they share the victory.")


def test_every_view_shows_everything() -> None:
    """Plan §4.7: no hidden information; the sailing boat is marked."""
    state = sailing(regatta({"2": [4]}), 9, covered=[3, 5], rolls=[3, 5])
    public = GAME.view(state, None)
    assert public["course"][9] == {"space": 9, "boats": ["1"], "moving": True}
    assert public["course"][4] == {"space": 4, "boats": ["2"], "moving": False}
    assert [r["covered"] for r in public["results"]] == [False, False, True, False, True, False]
    assert {**GAME.view(state, "1"), "you": None, "players": public["players"]} == public


def test_a_seat_that_holds_with_noorders_plays_the_nmr_default() -> None:
    """NOORDERS stores an empty submission: NEW then STOP, or STOP in a push decision."""
    assert GAME.resolve(regatta(), {"1": []}, ScriptedRng([3])).state.boats == ((3,), ())
    assert GAME.resolve(sailing(regatta(), 7, covered=[1]), {"1": []}, ScriptedRng([])).state.boats == ((7,), ())


def test_the_check_summary_says_what_the_service_will_do() -> None:
    assert GAME.submission_summary(regatta(), "1", [New(), Stop()]) == (
        "The service will stop after the first roll (unless your boat lands on an occupied space).")
    assert GAME.submission_summary(sailing(regatta(), 7, covered=[1]), "1", [Stop()]) == (
        "Your turn ends; your boat stays on 7.")
    assert GAME.submission_summary(regatta(), "1", [New()]) == (
        "After the first roll the service will ask you whether to push.")
    assert GAME.submission_summary(regatta(), "1", [New(), Roll()]) == "The service will roll once more, then ask you again."
