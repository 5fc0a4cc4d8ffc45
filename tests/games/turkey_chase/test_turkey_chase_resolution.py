"""Worked examples of the seven phases of a Turkey Chase turn, every capture,
shared feeding, and orders that fail at resolution."""

from __future__ import annotations

from fractions import Fraction

from turkey_chase_scenarios import birds_of, farmers_of, fence_of, make_state, resolve, sq, texts

FEEDING, DESTROYED, FARMERS, BIRDS, SECOND, BUILT, NEW = (
    "1 Feeding",
    "2 Fences destroyed",
    "3 Farmers move",
    "4 Birds move",
    "5 Farmers' second move",
    "6 Fences built",
    "7 New farmers",
)


# -- 1 feeding -----------------------------------------------------------------------------


def test_a_bird_feeds_scores_the_corn_and_empties_the_square() -> None:
    state = make_state(birds={"A": ["E5"], "B": ["F1"]})
    result = resolve(state, {"A": "FEED E5", "B": "FEED F1"})
    assert texts(result.events) == ["A fed on E5 for 7 points", "B fed on F1 for 1 point"]
    assert result.state.scores == (7, 1, 0, 0)
    assert result.state.corn_at(sq("E5")) == 0
    assert result.state.corn_at(sq("F1")) == 0
    assert result.state.corn_at(sq("F6")) == 10
    assert result.state.turn == 2
    assert all(e.phase == FEEDING for e in result.events)


def test_two_players_feeding_on_one_square_share_it() -> None:
    state = make_state(birds={"A": ["F6"], "B": ["F6"]})
    result = resolve(state, {"A": "FEED F6", "B": "FEED F6"})
    assert texts(result.events) == [
        "A fed on F6 for 10 points (shared with B: 5 each)",
        "B fed on F6 for 10 points (shared with A: 5 each)",
    ]
    assert result.state.scores == (5, 5, 0, 0)
    assert result.state.corn_at(sq("F6")) == 0


def test_three_players_share_in_exact_fractions() -> None:
    state = make_state(birds={"A": ["E6"], "B": ["E6"], "C": ["E6", "E6"], "D": ["E6"]}, scores={"A": 1})
    result = resolve(state, {"A": "FEED E6", "B": "FEED E6", "C": "FEED E6"})
    assert result.state.scores == (1 + Fraction(7, 3), Fraction(7, 3), Fraction(7, 3), 0)
    assert sum(result.state.scores) == 8  # nothing lost to rounding
    assert texts(result.events)[0] == "A fed on E6 for 7 points (shared with B and C: 2.33 each)"
    # C has two birds there but feeds once: the square is shared three ways, not four
    assert texts(result.events)[2] == "C fed on E6 for 7 points (shared with A and B: 2.33 each)"


def test_a_bird_feeds_before_it_is_captured_in_the_same_turn() -> None:
    state = make_state(farmers={"A": ["D6"]}, birds={"C": ["E6"]})
    result = resolve(state, {"A": "MOVE D6-E6", "C": "FEED E6"})
    assert result.state.scores == (0, 0, 7, 0)
    assert birds_of(result.state, "C") == []


# -- 2 fences destroyed ------------------------------------------------------------------------


def test_a_fence_beside_a_players_piece_is_destroyed() -> None:
    state = make_state(farmers={"A": ["F2"]})
    result = resolve(state, {"A": "DESTROY F1/F2"})
    assert texts(result.events) == ["A destroyed the fence F1/F2"]
    assert result.events[0].phase == DESTROYED
    assert fence_of("F1/F2") not in result.state.fences
    assert len(result.state.fences) == 3


def test_two_players_may_destroy_the_same_fence_at_once() -> None:
    state = make_state(birds={"B": ["A6"], "C": ["B6"]})
    result = resolve(state, {"B": "DESTROY A6/B6", "C": "DESTROY B6/A6"})
    assert texts(result.events) == ["B destroyed the fence A6/B6", "C destroyed the fence A6/B6"]
    assert fence_of("A6/B6") not in result.state.fences


def test_a_bird_moves_through_a_fence_its_owner_destroys_the_same_turn() -> None:
    state = make_state(birds={"A": ["F1", "F1"]})
    result = resolve(state, {"A": "MOVE F1-F2\nDESTROY F1/F2"})
    assert texts(result.events) == ["A destroyed the fence F1/F2", "A's bird moved F1-F2"]
    assert birds_of(result.state, "A") == ["F1", "F2"]


def test_a_fence_destroyed_by_another_player_lets_a_move_through_at_resolution() -> None:
    # D's move was not valid alone (checked without B's orders), but B's destroy
    # happens first, so at resolution it succeeds
    state = make_state(farmers={"B": ["J5"]}, birds={"B": ["J6"], "D": ["K6"]})
    result = resolve(state, {"B": "DESTROY J6/K6", "D": "MOVE K6-J6"}, validated=False)
    assert "D's bird moved K6-J6" in texts(result.events)


# -- 3 farmers move --------------------------------------------------------------------------


def test_a_farmer_moves_one_square() -> None:
    state = make_state(farmers={"A": ["F7"]})
    result = resolve(state, {"A": "MOVE F7-F8"})
    assert texts(result.events) == ["A's farmer moved F7-F8"]
    assert result.events[0].phase == FARMERS
    assert farmers_of(result.state, "A") == ["F8"]


def test_a_farmer_moving_onto_a_bird_captures_it() -> None:
    state = make_state(farmers={"A": ["D6"]}, birds={"C": ["E6"], "B": ["A6"]})
    result = resolve(state, {"A": "MOVE D6-E6"})
    assert texts(result.events) == ["A's farmer moved D6-E6", "A's farmer captured C's bird on E6"]
    assert birds_of(result.state, "C") == []
    assert birds_of(result.state, "B") == ["A6"]


def test_a_farmer_captures_his_own_birds_too_and_every_bird_on_the_square() -> None:
    state = make_state(farmers={"A": ["D6"]}, birds={"A": ["E6", "F1"], "C": ["E6", "E6"]})
    result = resolve(state, {"A": "MOVE D6-E6"})
    assert texts(result.events, FARMERS)[1:] == [
        "A's farmer captured A's bird on E6",
        "A's farmer captured two of C's birds on E6",
    ]
    assert birds_of(result.state, "A") == ["F1"]
    assert birds_of(result.state, "C") == []


def test_farmers_arriving_together_capture_together() -> None:
    state = make_state(farmers={"A": ["D6"], "B": ["F6"]}, birds={"C": ["E6"]})
    result = resolve(state, {"A": "MOVE D6-E6", "B": "MOVE F6-E6"})
    assert texts(result.events)[-1] == "A's and B's farmers captured C's bird on E6"
    assert farmers_of(result.state, "A") == ["E6"] and farmers_of(result.state, "B") == ["E6"]


def test_farmers_and_farmers_share_squares() -> None:
    state = make_state(farmers={"A": ["D6", "F6"], "B": ["E6"]})
    result = resolve(state, {"A": "MOVE D6-E6\nMOVE F6-E6"})
    assert farmers_of(result.state, "A") == ["E6", "E6"]
    assert farmers_of(result.state, "B") == ["E6"]


# -- 4 birds move ------------------------------------------------------------------------------


def test_a_bird_moves_one_square() -> None:
    state = make_state(birds={"B": ["G5"]})
    result = resolve(state, {"B": "MOVE G5-G4"})
    assert texts(result.events) == ["B's bird moved G5-G4"]
    assert result.events[0].phase == BIRDS
    assert birds_of(result.state, "B") == ["G4"]


def test_birds_share_squares() -> None:
    state = make_state(birds={"A": ["F5"], "B": ["G4"], "C": ["F4"]})
    result = resolve(state, {"A": "MOVE F5-F4", "B": "MOVE G4-F4"})
    assert birds_of(result.state, "A") == ["F4"] and birds_of(result.state, "B") == ["F4"]
    assert birds_of(result.state, "C") == ["F4"]


def test_a_bird_moving_onto_a_farmer_is_captured() -> None:
    state = make_state(farmers={"A": ["G4"]}, birds={"B": ["G5", "K1"]})
    result = resolve(state, {"B": "MOVE G5-G4"})
    assert texts(result.events) == [
        "B's bird moved G5-G4",
        "B's bird moved onto A's farmer on G4 and was captured",
    ]
    assert result.events[1].kind == "capture"
    assert birds_of(result.state, "B") == ["K1"]


def test_a_bird_moving_onto_a_farmer_that_arrived_in_phase_3_is_captured() -> None:
    state = make_state(farmers={"A": ["G3"]}, birds={"B": ["G5"]})
    result = resolve(state, {"A": "MOVE G3-G4", "B": "MOVE G5-G4"})
    assert texts(result.events)[-1] == "B's bird moved onto A's farmer on G4 and was captured"
    assert birds_of(result.state, "B") == []


def test_two_birds_onto_two_farmers() -> None:
    state = make_state(farmers={"A": ["G4"], "D": ["G4"]}, birds={"B": ["G5", "G5"]})
    result = resolve(state, {"B": "MOVE G5-G4\nMOVE G5-G4"})
    assert texts(result.events)[-1] == "Two of B's birds moved onto A's and D's farmers on G4 and were captured"


def test_a_bird_that_was_captured_earlier_in_the_turn_fails_to_move() -> None:
    state = make_state(farmers={"B": ["F6"]}, birds={"C": ["E6"]})
    result = resolve(state, {"B": "MOVE F6-E6", "C": "MOVE E6-E7"})
    assert texts(result.events) == [
        "B's farmer moved F6-E6",
        "B's farmer captured C's bird on E6",
        "C: MOVE E6-E7 failed: no bird of yours on E6 any more",
    ]
    failed = result.events[-1]
    assert failed.kind == "failed" and failed.seat == "C" and failed.phase == BIRDS
    assert failed.data == {"order": "MOVE E6-E7", "reason": "no bird of yours on E6 any more"}
    assert birds_of(result.state, "C") == []


def test_a_captured_bird_that_had_fed_still_scored() -> None:
    state = make_state(farmers={"B": ["F6"]}, birds={"C": ["E6"]})
    result = resolve(state, {"B": "MOVE F6-E6", "C": "FEED E6\nMOVE E6-E7"})
    assert result.state.scores[2] == 7
    assert texts(result.events)[-1] == "C: MOVE E6-E7 failed: no bird of yours on E6 any more"


def test_of_two_birds_on_a_square_each_order_moves_one() -> None:
    state = make_state(birds={"A": ["F1", "F1"]})
    result = resolve(state, {"A": "MOVE F1-G1\nMOVE F1-E1"})
    assert birds_of(result.state, "A") == ["E1", "G1"]


# -- 5 farmers' second move ------------------------------------------------------------------------


def test_a_farmers_second_move_starts_where_the_first_ended() -> None:
    state = make_state(farmers={"A": ["F7"]})
    result = resolve(state, {"A": "MOVE F7-F8\nMOVE F8-G8"})
    assert [(e.phase, e.text) for e in result.events] == [
        (FARMERS, "A's farmer moved F7-F8"),
        (SECOND, "A's farmer moved F8-G8"),
    ]
    assert farmers_of(result.state, "A") == ["G8"]


def test_a_farmers_second_move_captures() -> None:
    state = make_state(farmers={"A": ["F7"]}, birds={"D": ["G8"]})
    result = resolve(state, {"A": "MOVE F7-F8\nMOVE F8-G8"})
    assert texts(result.events, SECOND) == ["A's farmer moved F8-G8", "A's farmer captured D's bird on G8"]


def test_a_bird_that_moved_away_in_phase_4_escapes_the_second_move() -> None:
    state = make_state(farmers={"A": ["F7"]}, birds={"D": ["G8"]})
    result = resolve(state, {"A": "MOVE F7-F8\nMOVE F8-G8", "D": "MOVE G8-H8"})
    assert birds_of(result.state, "D") == ["H8"]
    assert "captured" not in " ".join(texts(result.events))


def test_a_second_move_catches_a_bird_that_moved_in_phase_4() -> None:
    state = make_state(farmers={"A": ["F7"]}, birds={"D": ["H8"]})
    result = resolve(state, {"A": "MOVE F7-F8\nMOVE F8-G8", "D": "MOVE H8-G8"})
    assert texts(result.events)[-1] == "A's farmer captured D's bird on G8"
    assert birds_of(result.state, "D") == []


# -- 6 fences built ------------------------------------------------------------------------------------


def test_a_fence_is_built_on_an_empty_border() -> None:
    state = make_state(farmers={"A": ["H2"]})
    result = resolve(state, {"A": "BUILD H1/H2"})
    assert texts(result.events) == ["A built the fence H1/H2"]
    assert result.events[0].phase == BUILT
    assert fence_of("H1/H2") in result.state.fences


def test_a_fence_built_in_phase_6_does_not_stop_moves_of_the_same_turn() -> None:
    state = make_state(farmers={"A": ["H3"]}, birds={"B": ["H2"]})
    result = resolve(state, {"A": "BUILD H1/H2", "B": "MOVE H2-H1"})
    assert birds_of(result.state, "B") == ["H1"]
    assert fence_of("H1/H2") in result.state.fences


def test_two_players_building_the_same_fence_both_succeed() -> None:
    state = make_state(farmers={"A": ["G4"], "B": ["G5"]})
    result = resolve(state, {"A": "BUILD G4/G5", "B": "BUILD G5/G4"})
    assert texts(result.events) == ["A built the fence G4/G5", "B built the fence G4/G5"]
    assert fence_of("G4/G5") in result.state.fences
    assert len(result.state.fences) == 5


def test_a_fence_destroyed_and_rebuilt_in_one_turn_stands_again() -> None:
    state = make_state(farmers={"A": ["F2"]})
    result = resolve(state, {"A": "DESTROY F1/F2\nBUILD F1/F2"})
    assert texts(result.events) == ["A destroyed the fence F1/F2", "A built the fence F1/F2"]
    assert fence_of("F1/F2") in result.state.fences


# -- 7 new farmers --------------------------------------------------------------------------------------


def test_a_new_farmer_arrives_at_a_gap_from_turn_4() -> None:
    state = make_state(turn=4, farmers={"A": ["G4"]}, birds={"B": ["B6"]})
    result = resolve(state, {"A": "NEW F1"})
    assert texts(result.events) == ["A's new farmer arrived on F1"]
    assert result.events[0].phase == NEW
    assert farmers_of(result.state, "A") == ["F1", "G4"]


def test_a_new_farmer_placed_on_birds_captures_them() -> None:
    state = make_state(turn=5, birds={"B": ["A6", "A6"], "D": ["A6", "K6"]})
    result = resolve(state, {"C": "NEW A6"})
    assert texts(result.events) == [
        "C's new farmer arrived on A6",
        "C's new farmer captured two of B's birds on A6",
        "C's new farmer captured D's bird on A6",
    ]
    assert birds_of(result.state, "B") == [] and birds_of(result.state, "D") == ["K6"]


def test_a_new_farmer_before_turn_4_fails_if_it_ever_reaches_resolution() -> None:
    state = make_state(turn=3)
    result = resolve(state, {"A": "NEW A6"}, validated=False)
    assert texts(result.events) == ["A: NEW A6 failed: new farmers arrive only from turn 4 on"]
    assert farmers_of(result.state, "A") == []


# -- a whole turn ----------------------------------------------------------------------------------------


def test_a_turn_runs_its_phases_in_order_with_every_player_at_once() -> None:
    state = make_state(
        turn=4,
        farmers={"A": ["F7"], "B": ["G6"], "C": ["F5"], "D": ["E6"]},
        birds={"A": ["F1", "F1"], "B": ["A6", "A6"], "C": ["F11", "G10"], "D": ["K6", "K6"]},
    )
    result = resolve(
        state,
        {
            "A": "FEED F1\nDESTROY F1/F2\nMOVE F1-F2",
            "B": "MOVE G6-G7\nMOVE G7-G8\nBUILD G8/G9",
            "C": "MOVE G10-G9\nFEED F11\nMOVE F5-F4",
            "D": "NEW F11",
        },
    )
    assert [(e.phase, e.text) for e in result.events] == [
        (FEEDING, "A fed on F1 for 1 point"),
        (FEEDING, "C fed on F11 for 1 point"),
        (DESTROYED, "A destroyed the fence F1/F2"),
        (FARMERS, "B's farmer moved G6-G7"),
        (FARMERS, "C's farmer moved F5-F4"),
        (BIRDS, "A's bird moved F1-F2"),
        (BIRDS, "C's bird moved G10-G9"),
        (SECOND, "B's farmer moved G7-G8"),
        (BUILT, "B built the fence G8/G9"),
        (NEW, "D's new farmer arrived on F11"),
        (NEW, "D's new farmer captured C's bird on F11"),
    ]
    after = result.state
    assert after.turn == 5
    assert birds_of(after, "C") == ["G9"]
    assert farmers_of(after, "D") == ["E6", "F11"]
    assert after.scores == (1, 0, 1, 0)


def test_orders_beyond_the_budget_fail_unpaid_if_they_skip_validation() -> None:
    state = make_state(farmers={"A": ["G4"]}, birds={"A": ["F1", "F1"]})
    result = resolve(state, {"A": "FEED F1\nMOVE F1-G1\nMOVE G4-G3\nMOVE G3-G2\nMOVE F1-E1"}, validated=False)
    failed = [e.text for e in result.events if e.kind == "failed"]
    assert failed == ["A: MOVE G3-G2 failed: not enough points: these orders cost 7 of your 5 points"]
    assert birds_of(result.state, "A") == ["E1", "G1"]
    assert farmers_of(result.state, "A") == ["G3"]


def test_orders_without_a_piece_fail_at_resolution_if_they_skip_validation() -> None:
    state = make_state(farmers={"A": ["G4"]}, birds={"A": ["F1"]})
    result = resolve(state, {"A": "FEED E1\nMOVE G5-G6\nBUILD F1/F2"}, validated=False)
    assert texts(result.events) == [
        "A: FEED E1 failed: no bird of yours on E1",
        "A: MOVE G5-G6 failed: no bird of yours on G5",
        "A: BUILD F1/F2 failed: there is already a fence between F1 and F2",
    ]
    result = resolve(state, {"A": "DESTROY J6/K6\nDESTROY G4/G5"}, validated=False)
    assert texts(result.events) == [
        "A: DESTROY J6/K6 failed: none of your birds or farmers stands on J6 or K6",
        "A: DESTROY G4/G5 failed: there is no fence between G4 and G5",
    ]
    assert result.state.fences == state.fences


def test_resolve_does_not_change_the_old_state() -> None:
    state = make_state(farmers={"A": ["D6"]}, birds={"C": ["E6"]})
    before = (state.corn, state.farmers, state.birds, state.fences, state.scores)
    resolve(state, {"A": "MOVE D6-E6\nBUILD E6/E7", "C": "FEED E6"})
    assert (state.corn, state.farmers, state.birds, state.fences, state.scores) == before
