"""Checking Turkey Chase orders at submission: against the start of the turn
plus the player's own earlier-phase orders, with the 5-point budget."""

from __future__ import annotations

import pytest
from turkey_chase_scenarios import GAME, make_state, messages, parse, problems

from pbem.core import OrderProblem

BASE = make_state(
    farmers={"A": ["F6"], "B": ["G6"], "C": ["C3"]},
    birds={"A": ["F1", "F1"], "B": ["E5"], "C": ["J6"], "D": ["K6", "H9"]},
)


def cost(state, seat: str, text: str) -> str:
    return GAME.submission_summary(state, seat, parse(text))


# -- messages that name the input ---------------------------------------------


def test_a_move_to_a_square_not_next_to_the_piece_is_refused() -> None:
    assert problems(BASE, "A", "MOVE F6-F8") == [(0, "MOVE F6-F8: F8 is not next to F6")]
    assert messages(BASE, "A", "MOVE F6-G7") == ["MOVE F6-G7: G7 is not next to F6"]
    assert messages(BASE, "A", "MOVE F6-F6") == ["MOVE F6-F6: F6 is not next to F6"]


def test_feeding_needs_a_bird_of_yours_on_the_square() -> None:
    assert problems(BASE, "A", "FEED D4") == [(0, "FEED D4: no bird of yours on D4")]
    assert messages(BASE, "A", "FEED E5") == ["FEED E5: no bird of yours on E5"]  # B's bird
    assert messages(BASE, "B", "FEED E5") == []


def test_a_player_feeds_on_a_square_only_once_a_turn() -> None:
    assert problems(BASE, "A", "FEED F1\nFEED F1") == [(1, "FEED F1: you already feed on F1 this turn")]


def test_feeding_on_a_square_without_corn_is_refused() -> None:
    state = make_state(birds={"A": ["D4"]}, corn={"D4": 0})
    assert messages(state, "A", "FEED D4") == ["FEED D4: D4 has no corn left"]


def test_a_move_needs_a_piece_of_yours() -> None:
    assert messages(BASE, "A", "MOVE G6-G7") == ["MOVE G6-G7: no bird or farmer of yours on G6"]
    assert messages(BASE, "A", "MOVE E4-E5") == ["MOVE E4-E5: no bird or farmer of yours on E4"]


def test_a_move_may_not_cross_a_fence() -> None:
    assert messages(BASE, "A", "MOVE F1-F2") == ["MOVE F1-F2: a fence stands between F1 and F2"]
    assert messages(BASE, "C", "MOVE J6-K6") == ["MOVE J6-K6: a fence stands between J6 and K6"]


def test_a_bird_moves_once_a_turn_but_two_birds_on_a_square_move_one_each() -> None:
    assert messages(BASE, "A", "MOVE F1-G1\nMOVE F1-E1") == []
    assert problems(BASE, "A", "MOVE F1-G1\nMOVE F1-E1\nMOVE F1-G1") == [
        (2, "MOVE F1-G1: a bird moves at most once a turn, and every bird of yours on F1 already moves")
    ]
    # the bird that moved to G1 cannot move on: G1 held no bird of A's at the start
    assert messages(BASE, "A", "MOVE F1-G1\nMOVE G1-H1") == ["MOVE G1-H1: no bird or farmer of yours on G1"]


# -- which piece a MOVE moves -------------------------------------------------------


def test_a_farmers_second_move_starts_where_its_first_ended_and_costs_two() -> None:
    assert messages(BASE, "A", "MOVE F6-F7\nMOVE F7-G7") == []
    assert cost(BASE, "A", "MOVE F6-F7\nMOVE F7-G7") == "These orders cost 3 of your 5 points."


def test_a_second_move_needs_a_first_move_written_before_it() -> None:
    assert problems(BASE, "A", "MOVE F7-G7\nMOVE F6-F7") == [
        (0, "MOVE F7-G7: write a farmer's second move after its first move")
    ]
    assert messages(BASE, "A", "MOVE F7-G7") == ["MOVE F7-G7: no bird or farmer of yours on F7"]


def test_a_farmer_moves_at_most_twice() -> None:
    assert problems(BASE, "A", "MOVE F6-F7\nMOVE F7-F8\nMOVE F8-F9") == [
        (2, "MOVE F8-F9: a farmer moves at most twice a turn")
    ]


def test_a_refused_first_move_has_no_second_move() -> None:
    assert problems(BASE, "A", "MOVE F6-F8\nMOVE F8-F9") == [
        (0, "MOVE F6-F8: F8 is not next to F6"),
        (1, "MOVE F8-F9: no bird or farmer of yours on F8"),
    ]


def test_a_bird_under_your_own_arriving_farmer_cannot_move() -> None:
    state = make_state(farmers={"A": ["F7"]}, birds={"A": ["F8"]})
    # line order does not matter: farmers move (phase 3) before birds (phase 4)
    expected = "MOVE F8-F9: your own farmer moves onto F8 in phase 3 and captures your bird there first"
    assert messages(state, "A", "MOVE F8-F9\nMOVE F7-F8") == [expected]
    # written after the farmer's first move, MOVE F8-x is that farmer's second move
    assert messages(state, "A", "MOVE F7-F8\nMOVE F8-F9") == []
    assert cost(state, "A", "MOVE F7-F8\nMOVE F8-F9") == "These orders cost 3 of your 5 points."


def test_two_farmers_on_one_square_each_take_a_first_move() -> None:
    state = make_state(farmers={"A": ["F7", "F7"]})
    assert cost(state, "A", "MOVE F7-F8\nMOVE F7-F6") == "These orders cost 2 of your 5 points."
    assert cost(state, "A", "MOVE F7-F8\nMOVE F8-F9\nMOVE F7-F6") == "These orders cost 4 of your 5 points."


def test_a_second_farmer_standing_where_a_first_move_ends_moves_first_when_written_first() -> None:
    state = make_state(farmers={"A": ["F7", "F8"]})
    # written after MOVE F7-F8, MOVE F8-F9 is the second move of that farmer (2 points)
    assert cost(state, "A", "MOVE F7-F8\nMOVE F8-F9") == "These orders cost 3 of your 5 points."
    # written before, it is the first move of the farmer standing on F8 (1 point)
    assert cost(state, "A", "MOVE F8-F9\nMOVE F7-F8") == "These orders cost 2 of your 5 points."


# -- own earlier-phase orders count ---------------------------------------------------


def test_a_bird_may_move_through_a_fence_its_owner_destroys_the_same_turn() -> None:
    for text in ("DESTROY F1/F2\nMOVE F1-F2", "MOVE F1-F2\nDESTROY F1/F2"):
        assert messages(BASE, "A", text) == []
    assert cost(BASE, "A", "DESTROY F1/F2\nMOVE F1-F2") == "These orders cost 3 of your 5 points."


def test_a_farmer_may_move_through_a_fence_its_owner_destroys_the_same_turn() -> None:
    state = make_state(farmers={"A": ["F10"]})
    assert messages(state, "A", "MOVE F10-F11") == ["MOVE F10-F11: a fence stands between F10 and F11"]
    assert messages(state, "A", "DESTROY F10/F11\nMOVE F10-F11") == []


# -- fences -----------------------------------------------------------------------------


def test_destroy_needs_an_existing_fence() -> None:
    assert messages(BASE, "A", "DESTROY F6/F7") == ["DESTROY F6/F7: there is no fence between F6 and F7"]


def test_destroy_needs_a_piece_of_yours_beside_the_fence() -> None:
    assert messages(BASE, "A", "DESTROY A6/B6") == ["DESTROY A6/B6: none of your birds or farmers stands on A6 or B6"]
    assert messages(BASE, "C", "DESTROY J6/K6") == []  # C's bird on J6
    assert messages(BASE, "D", "DESTROY J6/K6") == []  # D's bird on K6
    assert messages(BASE, "A", "DESTROY F1/F2") == []  # A's birds on F1


def test_destroy_counts_pieces_where_they_stand_when_the_turn_starts() -> None:
    state = make_state(farmers={"A": ["F8"]}, fences=["F9/F10"])
    # the farmer reaches F9 only in phase 3, after fences are destroyed in phase 2
    assert messages(state, "A", "MOVE F8-F9\nDESTROY F9/F10") == [
        "DESTROY F9/F10: none of your birds or farmers stands on F9 or F10"
    ]


def test_a_fence_is_destroyed_once_per_player() -> None:
    assert problems(BASE, "A", "DESTROY F1/F2\nDESTROY F2/F1") == [
        (1, "DESTROY F1/F2: you already destroy F1/F2 this turn")
    ]


def test_fence_orders_must_name_neighbouring_squares() -> None:
    assert messages(BASE, "A", "DESTROY F1/F3") == ["DESTROY F1/F3: F1 and F3 are not next to each other"]
    assert messages(BASE, "A", "BUILD E5/F6") == ["BUILD E5/F6: E5 and F6 are not next to each other"]
    assert messages(BASE, "A", "BUILD E5/E5") == ["BUILD E5/E5: E5/E5 is not a fence: name two neighbouring squares"]


def test_the_external_fence_can_be_neither_destroyed_nor_built() -> None:
    # every fence is written between two squares of the field; the squares beyond
    # the edge have no names, so such an order is a syntax error
    from turkey_chase_scenarios import PARSER

    for text in ("DESTROY A6/A0", "BUILD K6/L6", "DESTROY F0/F1", "BUILD F11/F12"):
        (line,) = PARSER.parse(text).lines
        assert line.problem is not None, text
    assert all("/" in name for name in GAME.view(BASE, None)["fences"])
    assert len(GAME.view(BASE, None)["fences"]) == 4


def test_build_beside_your_farmer_costs_one_elsewhere_two() -> None:
    assert cost(BASE, "A", "BUILD F6/F7") == "These orders cost 1 of your 5 points."
    assert cost(BASE, "A", "BUILD E6/F6") == "These orders cost 1 of your 5 points."
    assert cost(BASE, "A", "BUILD H1/H2") == "These orders cost 2 of your 5 points."
    assert cost(BASE, "A", "BUILD G6/G7") == "These orders cost 2 of your 5 points."  # B's farmer, not A's


def test_build_cost_counts_where_your_farmer_stands_in_phase_6() -> None:
    # the farmer moves F6-F7 first (phase 3): F6/E6 is then not beside him, F7/F8 is
    assert cost(BASE, "A", "BUILD F7/F8\nMOVE F6-F7") == "These orders cost 2 of your 5 points."
    assert cost(BASE, "A", "BUILD E6/F6\nMOVE F6-F7") == "These orders cost 3 of your 5 points."
    assert cost(BASE, "A", "MOVE F6-F7\nMOVE F7-F8\nBUILD F8/G8") == "These orders cost 4 of your 5 points."


def test_build_on_an_existing_fence_is_refused_unless_you_destroy_it_first() -> None:
    assert messages(BASE, "A", "BUILD F1/F2") == ["BUILD F1/F2: there is already a fence between F1 and F2"]
    assert messages(BASE, "A", "BUILD F1/F2\nDESTROY F1/F2") == []
    assert problems(BASE, "A", "BUILD H1/H2\nBUILD H2/H1") == [(1, "BUILD H1/H2: you already build H1/H2 this turn")]


# -- new farmers --------------------------------------------------------------------------


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_new_farmers_are_refused_before_turn_4(turn: int) -> None:
    state = make_state(turn=turn)
    assert messages(state, "A", "NEW A6") == [f"NEW A6: new farmers arrive only from turn 4 on (this is turn {turn})"]


@pytest.mark.parametrize("square", ["A6", "F1", "F11", "K6"])
def test_new_farmers_arrive_from_turn_4_at_a_gap_for_4_points(square: str) -> None:
    state = make_state(turn=4)
    assert messages(state, "B", f"NEW {square}") == []
    assert cost(state, "B", f"NEW {square}") == "These orders cost 4 of your 5 points."


def test_new_farmers_arrive_only_at_the_gaps() -> None:
    assert messages(make_state(turn=7), "A", "NEW B6") == ["NEW B6: new farmers arrive only on A6, F1, F11 or K6"]


# -- the budget ------------------------------------------------------------------------------


def test_orders_over_the_budget_are_refused_in_line_order() -> None:
    text = "FEED F1\nMOVE F6-F7\nMOVE F7-F8\nMOVE F1-G1"
    assert problems(BASE, "A", text) == [(3, "MOVE F1-G1: these orders cost 6 of your 5 points")]
    text = "MOVE F1-G1\nFEED F1\nMOVE F6-F7\nMOVE F7-F8"
    assert problems(BASE, "A", text) == [(3, "MOVE F7-F8: these orders cost 6 of your 5 points")]


def test_the_budget_example_of_the_issue() -> None:
    text = "FEED F1\nDESTROY F1/F2\nMOVE F6-F7\nMOVE F7-F8"
    assert problems(BASE, "A", text) == [(3, "MOVE F7-F8: these orders cost 7 of your 5 points")]


def test_a_later_cheaper_order_may_still_fit() -> None:
    text = "FEED F1\nDESTROY F1/F2\nBUILD H1/H2\nMOVE F6-F7"
    assert problems(BASE, "A", text) == [(2, "BUILD H1/H2: these orders cost 7 of your 5 points")]
    assert cost(BASE, "A", "FEED F1\nDESTROY F1/F2\nMOVE F6-F7") == "These orders cost 5 of your 5 points."


def test_exactly_five_points_is_fine() -> None:
    assert messages(BASE, "A", "DESTROY F1/F2\nFEED F1\nMOVE F1-F2") == []
    assert messages(make_state(turn=4, farmers={"A": ["F6"]}), "A", "NEW K6\nMOVE F6-F7") == []


def test_refusing_a_destroy_for_the_budget_refuses_the_move_that_needed_it() -> None:
    text = "FEED F1\nMOVE F6-F7\nMOVE F1-G1\nDESTROY F1/F2\nMOVE F1-F2"
    found = problems(BASE, "A", text)
    assert found == [
        (3, "DESTROY F1/F2: these orders cost 7 of your 5 points"),
        (4, "MOVE F1-F2: a fence stands between F1 and F2"),
    ]
    accepted = [o for i, o in enumerate(parse(text)) if i not in {3, 4}]
    assert GAME.validate(BASE, "A", accepted) == []


def test_refusing_a_move_can_make_a_build_dearer_and_validation_stays_consistent() -> None:
    # BUILD F8/G8 is cheap only if the farmer's second move (refused for the budget) happens
    text = "BUILD F8/G8\nFEED F1\nMOVE F6-F7\nMOVE F7-F8"
    found = problems(BASE, "A", text)
    accepted = [o for i, o in enumerate(parse(text)) if i not in {index for index, _ in found}]
    assert GAME.validate(BASE, "A", accepted) == []
    assert found[0] == (3, "MOVE F7-F8: these orders cost 6 of your 5 points")
    assert GAME.submission_summary(BASE, "A", accepted) == "These orders cost 5 of your 5 points."


def test_submission_summary_of_nothing_is_zero() -> None:
    assert cost(BASE, "A", "") == "These orders cost 0 of your 5 points."


# -- submissions as a whole ---------------------------------------------------------------------


def test_a_seat_that_does_not_exist_is_told_so() -> None:
    assert GAME.validate(BASE, "E", []) == [
        OrderProblem(None, "it is not your turn: waiting for seats A, B, C, D")
    ]


def test_no_orders_once_the_game_is_over() -> None:
    over = make_state(farmers={"A": ["F6"]}, birds={}, scores={"A": 3})
    assert GAME.validate(over, "A", parse("MOVE F6-F7")) == [OrderProblem(None, "the game is over")]
