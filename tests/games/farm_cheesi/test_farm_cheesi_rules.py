"""Worked examples for every Farm-cheesi rule, on small scenarios built directly.

Two-player games use seats 1 (enters on 5, exits at 68) and 3 (enters on 39,
exits at 34). ``farm({...})`` places maggots; missing ones wait in the carcass.
"""

from __future__ import annotations

import pytest

from farm_cheesi_scenarios import GAME, ScriptedRng, farm, messages, orders, places, problems, resolve, texts
from pbem.core import GameError, OrderProblem
from pbem.games.farm_cheesi.orders import Bonus, Enter, Move

# --- entering ---------------------------------------------------------------------


def test_enter_with_a_five_then_move_the_other_die() -> None:
    state = farm({"1": [], "3": ["20"]}, roll=(5, 3))
    assert texts(GAME.forced_orders(state, "1")) == ["ENTER", "MOVE 1 3"]
    after = resolve(state, "ENTER\nMOVE 1 3").state
    assert places(after, "1") == ("8", "C", "C", "C")
    assert after.current == "3"


def test_enter_with_two_dice_summing_to_five() -> None:
    state = farm({"1": [], "3": ["20"]}, roll=(1, 4))
    assert texts(GAME.forced_orders(state, "1")) == ["ENTER"]
    result = resolve(state, "ENTER")
    assert places(result.state, "1") == ("5", "C", "C", "C")
    assert any(e.text == "Seat 1 entered maggot 1 on 5 with 1 and 4." for e in result.events)


def test_entering_with_a_sum_of_five_is_a_choice_not_a_duty() -> None:
    state = farm({"1": ["10"], "3": ["20"]}, roll=(2, 3))
    assert problems(state, "ENTER") == []
    assert problems(state, "MOVE 1 2\nMOVE 1 3") == []
    assert GAME.forced_orders(state, "1") is None


def test_enter_needs_a_five() -> None:
    state = farm({"1": ["10"], "3": ["20"]}, roll=(2, 4))
    assert messages(state, "ENTER\nMOVE 1 2\nMOVE 1 4") == [
        "ENTER: entering needs a 5 or two dice summing to 5 (you rolled 2 and 4; still unused: 2 and 4)"
    ]


def test_every_five_must_enter_a_maggot_while_one_waits() -> None:
    state = farm({"1": ["10"], "3": ["20"]}, roll=(5, 3))
    assert messages(state, "MOVE 1 5\nMOVE 1 3") == [
        "each 5 must bring a maggot out of the carcass while one waits there and the entry is open: "
        "ENTER and MOVE 1 3 is a legal play"
    ]
    assert problems(state, "ENTER\nMOVE 1 3") == []
    assert problems(state, "MOVE 1 3\nENTER") == []
    assert problems(state, "ENTER\nMOVE 2 3") == []


def test_a_doublet_of_fives_enters_two_maggots() -> None:
    state = farm({"1": ["10"], "3": ["20"]}, roll=(5, 5))
    assert texts(GAME.forced_orders(state, "1")) == ["ENTER", "ENTER"]
    after = resolve(state, "ENTER\nENTER", rolls=(2, 1)).state
    assert places(after, "1") == ("10", "5", "5", "C")
    assert (after.current, after.roll, after.doublets) == ("1", (2, 1), 1)  # a doublet: roll again


def test_the_forced_entry_waits_until_an_own_blockade_on_the_entry_opens() -> None:
    state = farm({"1": ["5", "5"], "3": ["20"]}, roll=(5, 1))
    assert problems(state, "MOVE 1 1\nENTER") == []
    assert messages(state, "ENTER\nMOVE 1 1") == [
        "ENTER: your entry square 5 is blocked by a blockade of seat 1",
        "each 5 must bring a maggot out of the carcass while one waits there and the entry is open: "
        "MOVE 1 1 and ENTER is a legal play",
    ]
    assert messages(state, "MOVE 1 5\nMOVE 2 1")[0].startswith("each 5 must bring a maggot out")


# --- blockades --------------------------------------------------------------------


def test_no_maggot_may_pass_or_land_on_a_blockade() -> None:
    state = farm({"1": ["10", "30", "HOME", "HOME"], "3": ["12", "12"]}, roll=(6, 2))
    assert messages(state, "MOVE 1 6\nMOVE 2 2") == [
        "MOVE 1 6: maggot 1 would pass a blockade at 12",
        "you must use both dice: MOVE 2 2 and MOVE 2 6 is a legal play",
    ]
    assert messages(state, "MOVE 1 2\nMOVE 2 6")[0] == "MOVE 1 2: maggot 1 would land on a blockade at 12"
    assert problems(state, "MOVE 2 6\nMOVE 2 2") == []


def test_a_blockade_stops_its_owners_maggots_too() -> None:
    state = farm({"1": ["18", "20", "20", "HOME"], "3": ["40"]}, roll=(4, 1))
    assert messages(state, "MOVE 1 4\nMOVE 1 1")[0] == "MOVE 1 4: maggot 1 would pass a blockade at 20"


def test_a_blockade_on_the_entry_square_stops_entering() -> None:
    state = farm({"1": [], "3": ["5", "5"]}, roll=(5, 2))
    assert messages(state, "ENTER")[0] == "ENTER: your entry square 5 is blocked by a blockade of seat 3"
    assert GAME.forced_orders(state, "1") == []
    result = resolve(state, "", rolls=(1, 2))
    assert places(result.state, "1") == ("C", "C", "C", "C")
    assert result.state.current == "3"
    assert any(e.kind == "no-move" for e in result.events)


def test_a_blockade_may_not_move_forward_together_to_form_a_new_one() -> None:
    state = farm({"1": ["10", "10"], "3": ["40"]}, roll=(3, 3))
    assert messages(state, "MOVE 1 3\nMOVE 2 3") == [
        "MOVE 2 3: maggots 1 and 2 started this roll as a blockade and may not move forward together "
        "to form a new one at 13",
        "you must use both dice: MOVE 1 3 and MOVE 1 3 is a legal play",
    ]
    assert problems(state, "MOVE 1 3\nMOVE 1 3") == []
    assert problems(state, "MOVE 2 3\nMOVE 2 3") == []


def test_no_more_than_two_maggots_on_a_square() -> None:
    state = farm({"1": ["10", "13", "13", "HOME"], "3": ["40"]}, roll=(3, 4))
    assert messages(state, "MOVE 1 3\nMOVE 1 4")[0] == "MOVE 1 3: maggot 1 would land on a blockade at 13"


# --- captures, safe squares --------------------------------------------------------


def test_a_capture_sends_the_maggot_home_to_its_carcass_and_earns_20() -> None:
    state = farm({"1": ["10", "30", "40", "50"], "3": ["15", "62"]}, roll=(5, 2))
    result = resolve(state, "MOVE 1 5\nMOVE 2 2")
    after = result.state
    assert places(after, "3") == ("C", "62", "C", "C")
    assert (after.stage, after.current, after.bonuses) == ("bonus", "1", (20,))
    assert "You have a bonus of 20" in GAME.phase(after).prompt
    assert any("capturing seat 3's maggot 1 (back to its carcass; bonus 20)" in e.text for e in result.events)
    assert GAME.forced_orders(after, "1") is None
    assert messages(after, "") == ["you must use your 20 bonus with one maggot: BONUS 1, BONUS 2, BONUS 3 or BONUS 4"]
    assert messages(after, "BONUS 3\nBONUS 4") == ["BONUS 4: no bonus is left to use"]
    assert messages(after, "MOVE 3 5") == [
        "MOVE 3 5: your roll is played; use your bonus first with BONUS <maggot>",
        "you must use your 20 bonus with one maggot: BONUS 1, BONUS 2, BONUS 3 or BONUS 4",
    ]
    done = GAME.resolve(after, {"1": orders("BONUS 3")}, ScriptedRng([4, 2])).state
    assert places(done, "1") == ("15", "32", "60", "50")
    assert (done.stage, done.current, done.roll) == ("move", "3", (4, 2))


def test_a_bonus_move_that_captures_earns_another_bonus() -> None:
    state = farm({"1": ["10", "30", "40", "50"], "3": ["60"]}, stage="bonus", bonuses=(20,), roll=(1, 2))
    assert problems(state, "BONUS 3") == []  # the new bonus may wait for the next phase
    assert problems(state, "BONUS 3\nBONUS 4") == []  # or be used at once
    after = resolve(state, "BONUS 3").state
    assert places(after, "3")[0] == "C"
    assert (after.stage, after.current, after.bonuses) == ("bonus", "1", (20,))
    done = resolve(state, "BONUS 3\nBONUS 4", rolls=(4, 2)).state
    assert places(done, "1") == ("10", "30", "60", "H2")
    assert (done.stage, done.current) == ("move", "3")


def test_an_unusable_bonus_is_forfeited() -> None:
    state = farm({"1": ["10", "HOME", "HOME", "HOME"], "3": ["15", "30", "30"]}, roll=(5, 1))
    result = resolve(state, "MOVE 1 5\nMOVE 1 1", rolls=(2, 1))
    assert places(result.state, "1") == ("16", "HOME", "HOME", "HOME")
    assert places(result.state, "3")[0] == "C"
    assert result.state.current == "3" and result.state.bonuses == ()
    assert any(e.kind == "forfeit" and "20 bonus cannot be used" in e.text for e in result.events)


def test_entering_captures_a_lone_opponent_on_the_entry_square() -> None:
    state = farm({"1": [], "3": ["5"]}, roll=(5, 1))
    assert texts(GAME.forced_orders(state, "1")) == ["ENTER", "MOVE 1 1"]
    after = resolve(state, "ENTER\nMOVE 1 1").state
    assert places(after, "3") == ("C", "C", "C", "C")
    assert places(after, "1") == ("6", "C", "C", "C")
    assert (after.stage, after.bonuses) == ("bonus", (20,))
    assert texts(GAME.forced_orders(after, "1")) == ["BONUS 1"]


def test_a_maggot_may_pass_but_not_land_on_a_safe_square_held_by_another_player() -> None:
    state = farm({"1": ["10", "20", "HOME", "HOME"], "3": ["12"]}, roll=(2, 4))
    assert messages(state, "MOVE 1 2\nMOVE 2 4")[0] == (
        "MOVE 1 2: maggot 1 would land on safe square 12, held by seat 3's maggot"
    )
    # not even on the way: 10 -> 12 -> 16 is refused, 10 -> 14 -> 16 is fine
    assert messages(state, "MOVE 1 2\nMOVE 1 4")[0].startswith("MOVE 1 2: maggot 1 would land on safe square 12")
    assert problems(state, "MOVE 1 4\nMOVE 1 2") == []
    after = resolve(state, "MOVE 1 4\nMOVE 2 2").state
    assert places(after, "3")[0] == "12"
    assert places(after, "1")[:2] == ("14", "22")


def test_the_entry_square_of_another_player_is_safe_from_passers_by() -> None:
    state = farm({"1": ["36", "HOME", "HOME", "HOME"], "3": ["H1", "H2", "HOME", "HOME"]}, roll=(3, 1))
    # seat 3 has no maggot in the carcass; square 39 is seat 3's entry square
    after = resolve(state, "MOVE 1 3\nMOVE 1 1").state
    assert places(after, "1")[0] == "40"
    blocked = farm({"1": ["36", "HOME", "HOME", "HOME"], "3": ["39", "H2", "HOME", "HOME"]}, roll=(3, 1))
    assert messages(blocked, "MOVE 1 3\nMOVE 1 1")[0].startswith("MOVE 1 3: maggot 1 would land on safe square 39")


# --- doublets ---------------------------------------------------------------------


def test_a_doublet_with_every_maggot_out_also_moves_the_opposite_faces_and_rolls_again() -> None:
    state = farm({"1": ["10", "30", "40", "50"], "3": []}, roll=(6, 6))
    prompt = GAME.phase(state).prompt
    assert prompt.startswith("You rolled 6 and 6. A doublet with every maggot out: you also move the opposite faces 1 and 1")
    assert GAME.view(state, None)["move_values"] == [1, 1, 6, 6]
    result = resolve(state, "MOVE 1 6\nMOVE 1 6\nMOVE 1 1\nMOVE 1 1", rolls=(2, 3))
    assert places(result.state, "1") == ("24", "30", "40", "50")
    assert (result.state.current, result.state.roll, result.state.doublets) == ("1", (2, 3), 1)


def test_the_fourteen_are_all_moved_or_none() -> None:
    state = farm({"1": ["10", "30", "40", "50"], "3": []}, roll=(6, 6))
    assert messages(state, "MOVE 1 6\nMOVE 2 6") == [
        "with a doublet and its opposite faces you move all 14 (1, 1, 6 and 6) or nothing: "
        "MOVE 1 6, MOVE 2 6, MOVE 1 1 and MOVE 1 1 is a legal play"
    ]


def test_when_the_fourteen_cannot_all_be_moved_nothing_moves_and_the_player_rolls_again() -> None:
    state = farm({"1": ["H4", "HOME", "HOME", "HOME"], "3": ["20"]}, roll=(6, 6))
    assert GAME.forced_orders(state, "1") == []
    assert messages(state, "MOVE 1 1") == ["you cannot move all 14 (1, 1, 6 and 6), so nothing moves: send no moves"]
    result = resolve(state, "", rolls=(4, 2))
    assert places(result.state, "1")[0] == "H4"
    assert (result.state.current, result.state.roll) == ("1", (4, 2))
    assert any(e.kind == "no-move" and "could not move all 14" in e.text for e in result.events)


def test_with_a_carcass_maggot_a_doublet_has_no_opposite_faces() -> None:
    state = farm({"1": ["10", "30", "40"], "3": []}, roll=(6, 6))
    assert GAME.view(state, None)["move_values"] == [6, 6]
    assert problems(state, "MOVE 1 6\nMOVE 2 6") == []


def test_doublets_cannot_be_split_to_reach_home() -> None:
    state = farm({"1": ["10", "H6", "HOME", "HOME"], "3": []}, roll=(6, 6))
    assert messages(state, "MOVE 2 1\nMOVE 2 1\nMOVE 1 6\nMOVE 1 6")[0] == (
        "MOVE 2 1: maggot 2 may reach HOME with a doublet only by moving all 14 itself (the doublets cannot be split)"
    )
    assert all(play.pos[0][1] != 71 for play in GAME.legal_plays(state))


def test_a_maggot_exactly_fourteen_from_home_may_use_the_whole_doublet_to_get_there() -> None:
    state = farm({"1": ["62", "HOME", "HOME", "HOME"], "3": ["20"]}, roll=(1, 1))
    assert texts(GAME.forced_orders(state, "1")) == ["MOVE 1 6", "MOVE 1 6", "MOVE 1 1", "MOVE 1 1"]
    result = resolve(state, "MOVE 1 6\nMOVE 1 6\nMOVE 1 1\nMOVE 1 1")
    assert GAME.outcome(result.state) is not None and GAME.outcome(result.state).winners == ("1",)


def test_the_third_doublet_sends_the_most_advanced_maggot_back_and_ends_the_turn() -> None:
    state = farm({"1": ["10", "40"], "3": ["20"]}, roll=(3, 3), doublets=2)
    result = resolve(state, "MOVE 1 3\nMOVE 1 3", rolls=(4, 4, 2, 1))
    after = result.state
    assert places(after, "1") == ("16", "C", "C", "C")
    assert (after.current, after.roll, after.doublets) == ("3", (2, 1), 0)
    penalty = [e for e in result.events if e.kind == "penalty"]
    assert [e.text for e in penalty] == [
        "Seat 1 rolled 4 and 4, a third doublet in one turn: maggot 2 goes back from 40 to the carcass, and the turn ends."
    ]


def test_the_penalty_skips_maggots_already_home() -> None:
    state = farm({"1": ["10", "HOME", "H3"], "3": ["20"]}, roll=(3, 3), doublets=2)
    after = resolve(state, "MOVE 1 3\nMOVE 1 3", rolls=(2, 2, 2, 1)).state
    assert places(after, "1") == ("16", "HOME", "C", "C")


# --- home and the 10 bonus ----------------------------------------------------------


def test_home_needs_an_exact_count_and_earns_10() -> None:
    state = farm({"1": ["H5", "20"], "3": ["40"]}, roll=(3, 4))
    assert messages(state, "MOVE 1 4\nMOVE 2 3")[0] == "MOVE 1 4: maggot 1 is 3 from HOME and HOME needs an exact count"
    result = resolve(state, "MOVE 1 3\nMOVE 2 4")
    after = result.state
    assert places(after, "1")[:2] == ("HOME", "24")
    assert (after.stage, after.bonuses) == ("bonus", (10,))
    assert any(e.text == "Seat 1 moved maggot 1 from H5 to HOME with the 3 (bonus 10)." for e in result.events)
    assert texts(GAME.forced_orders(after, "1")) == ["BONUS 2"]
    done = GAME.resolve(after, {"1": [Bonus(2)]}, ScriptedRng([1, 2])).state
    assert places(done, "1")[:2] == ("HOME", "34")


def test_bonuses_are_used_in_the_order_earned() -> None:
    state = farm({"1": ["10", "H5", "40", "HOME"], "3": ["14"]}, roll=(4, 3))
    after = resolve(state, "MOVE 1 4\nMOVE 2 3").state
    assert after.bonuses == (20, 10)
    assert problems(after, "BONUS 3\nBONUS 1") == []
    assert messages(after, "BONUS 3") == ["you must use your 10 bonus with one maggot: BONUS 1 or BONUS 3"]
    done = GAME.resolve(after, {"1": orders("BONUS 3\nBONUS 1")}, ScriptedRng([1, 2])).state
    assert places(done, "1") == ("24", "HOME", "60", "HOME")


def test_the_home_bonus_after_a_doublet_waits_for_the_end_of_the_turn() -> None:
    # farm-cheesi.md: "ten movement points that can be used by any one maggot still in play
    # at the end of their turn" -- after the re-roll the doublet gives, not before it.
    state = farm({"1": ["H6", "24"], "3": ["40"]}, roll=(2, 2))
    result = resolve(state, "MOVE 1 2\nMOVE 2 2", rolls=(3, 4))
    again = result.state
    assert places(again, "1") == ("HOME", "26", "C", "C")
    assert (again.current, again.stage, again.roll, again.bonuses, again.held) == ("1", "move", (3, 4), (), (10,))
    assert GAME.phase(again).prompt.endswith("Your HOME bonus of 10 waits for the end of your turn.")
    assert GAME.view(again, None)["held"] == [10]
    assert not any(e.kind == "bonus" for e in result.events)
    end = resolve(again, "MOVE 2 3\nMOVE 2 4", rolls=(6, 1)).state
    assert (end.current, end.stage, end.bonuses, end.held) == ("1", "bonus", (10,), ())  # now, at the end
    assert places(end, "1") == ("HOME", "33", "C", "C")
    assert texts(GAME.forced_orders(end, "1")) == ["BONUS 2"]  # the only maggot still in play
    done = GAME.resolve(end, {"1": [Bonus(2)]}, ScriptedRng([6, 1])).state
    assert places(done, "1") == ("HOME", "43", "C", "C")
    assert (done.current, done.roll, done.held) == ("3", (6, 1), ())


def test_the_third_doublet_penalty_cannot_hit_the_maggot_that_uses_the_home_bonus() -> None:
    # The 10 is used at the end of the turn, so after the penalty of a third doublet:
    # the maggot sent back was never moved by it, and a maggot still in play uses it.
    state = farm({"1": ["H6", "30", "10"], "3": ["40"]}, roll=(2, 2), doublets=2)
    result = resolve(state, "MOVE 1 2\nMOVE 2 2", rolls=(4, 4))
    after = result.state
    assert [e.kind for e in result.events][-1] == "penalty"
    assert places(after, "1") == ("HOME", "C", "10", "C")  # maggot 2 (on 32) went back; it holds no bonus
    assert (after.current, after.stage, after.bonuses, after.held, after.doublets) == ("1", "bonus", (10,), (), 3)
    assert texts(GAME.forced_orders(after, "1")) == ["BONUS 3"]
    done = GAME.resolve(after, {"1": [Bonus(3)]}, ScriptedRng([5, 2])).state
    assert places(done, "1") == ("HOME", "C", "20", "C")
    assert (done.current, done.roll, done.doublets) == ("3", (5, 2), 0)  # the turn ended: no roll again


def test_a_home_bonus_held_when_no_maggot_is_left_in_play_is_forfeited_at_the_end_of_the_turn() -> None:
    state = farm({"1": ["H6", "HOME", "HOME", "C"], "3": ["40"]}, roll=(2, 2))
    again = resolve(state, "MOVE 1 2", rolls=(1, 2)).state
    assert again.held == (10,) and again.current == "1"
    result = resolve(again, "", rolls=(6, 1))  # no 5: the carcass maggot cannot enter
    assert any(e.kind == "forfeit" and "10 bonus cannot be used" in e.text for e in result.events)
    assert (result.state.current, result.state.held) == ("3", ())


def test_a_home_bonus_not_after_a_doublet_is_still_used_straight_after_the_roll() -> None:
    state = farm({"1": ["H5", "20"], "3": ["40"]}, roll=(3, 4))
    after = resolve(state, "MOVE 1 3\nMOVE 2 4").state
    assert (after.stage, after.bonuses, after.held) == ("bonus", (10,), ())  # the turn ends with this roll


def test_a_capture_bonus_after_a_doublet_is_used_at_once_and_a_home_reached_by_it_waits() -> None:
    # The 20 for a capture is used after the moves of the roll that earned it (HELP); a 10 that
    # such a bonus move earns by reaching HOME waits for the end of the turn like any other.
    state = farm({"1": ["10", "56", "40"], "3": ["14"]}, roll=(2, 2))
    after = resolve(state, "MOVE 1 2\nMOVE 1 2").state  # 10 -> 14 captures seat 3's maggot
    assert (after.stage, after.bonuses, after.held) == ("bonus", (20,), ())
    assert problems(after, "BONUS 2") == []
    again = resolve(after, "BONUS 2", rolls=(1, 3)).state  # 56 + 20 reaches HOME
    assert places(again, "1") == ("14", "HOME", "40", "C")
    assert (again.current, again.stage, again.roll, again.bonuses, again.held) == ("1", "move", (1, 3), (), (10,))


def test_farm_cheesi_rules_version_is_2_since_the_home_bonus_waits_for_the_end_of_the_turn() -> None:
    assert GAME.rules_version == 2


# --- the most of the roll ----------------------------------------------------------


def test_both_dice_must_be_used_when_they_can() -> None:
    state = farm({"1": ["10", "20"], "3": ["40"]}, roll=(3, 6))
    assert messages(state, "MOVE 1 3") == ["you must use both dice: MOVE 1 3 and MOVE 1 6 is a legal play"]
    assert messages(state, "") == ["you must play your roll of 3 and 6: MOVE 1 6 and MOVE 1 3 is a legal play"]


def test_when_only_one_die_can_be_used_it_must_be_the_higher() -> None:
    state = farm({"1": ["10"], "3": ["18", "18"]}, roll=(2, 6))
    assert messages(state, "MOVE 1 2") == ["only one die can be used, so it must be the higher one (6): MOVE 1 6 is a legal play"]
    assert texts(GAME.forced_orders(state, "1")) == ["MOVE 1 6"]
    result = resolve(state, "MOVE 1 6")
    assert places(result.state, "1")[0] == "16"
    assert any(e.text == "Seat 1 could not use 2." for e in result.events)


def test_the_greatest_total_wins_over_a_smaller_one() -> None:
    # 5 then 6 with maggot 1 is blocked at 21; maggot 2 can take the 6 and maggot 1 the 5
    state = farm({"1": ["10", "30", "HOME", "HOME"], "3": ["21", "21"]}, roll=(5, 6))
    assert messages(state, "MOVE 1 5")[-1].startswith("you must use both dice:")
    assert problems(state, "MOVE 1 5\nMOVE 2 6") == []


def test_unused_die_and_wrong_values_are_named() -> None:
    state = farm({"1": ["10", "20"], "3": ["40"]}, roll=(3, 6))
    assert messages(state, "MOVE 1 3\nMOVE 2 3\nMOVE 2 6") == [
        "MOVE 2 3: there is no unused 3 (you rolled 3 and 6; still unused: 6)"
    ]
    assert messages(state, "MOVE 3 6\nMOVE 1 3\nMOVE 1 6")[0] == (
        "MOVE 3 6: maggot 3 is in the carcass (a 5 brings it out with ENTER)"
    )
    assert messages(state, "BONUS 1\nMOVE 1 3\nMOVE 1 6")[0] == (
        "BONUS 1: no bonus is waiting: bonuses are used after the roll's moves"
    )


# --- NMR default and forced plays ----------------------------------------------------


def test_nmr_default_moves_the_most_advanced_maggot_furthest() -> None:
    state = farm({"1": ["10", "30"], "3": ["60"]}, roll=(3, 4))
    assert texts(GAME.default_orders(state, "1")) == ["MOVE 2 4", "MOVE 2 3"]
    assert problems(state, "MOVE 2 4\nMOVE 2 3") == []


def test_nmr_default_when_the_leader_cannot_take_everything() -> None:
    # maggot 2 on 30 may move 3 (to 33) but the 4 would cross seat 3's blockade on 34
    state = farm({"1": ["10", "30"], "3": ["34", "34"]}, roll=(3, 4))
    assert texts(GAME.default_orders(state, "1")) == ["MOVE 1 4", "MOVE 2 3"]


def test_nmr_default_uses_a_bonus_on_the_most_advanced_maggot() -> None:
    state = farm({"1": ["10", "30", "40", "50"], "3": ["62"]}, stage="bonus", bonuses=(10,), roll=(1, 2))
    assert texts(GAME.default_orders(state, "1")) == ["BONUS 4"]


def test_forced_play_when_every_legal_play_ends_the_same() -> None:
    state = farm({"1": ["10"], "3": ["40"]}, roll=(2, 3))
    # MOVE 1 2 then MOVE 1 3 and the reverse order end alike; ENTER (2+3) is a different ending
    assert GAME.forced_orders(state, "1") is None
    alone = farm({"1": ["10", "HOME", "HOME", "HOME"], "3": ["40"]}, roll=(2, 3))
    assert texts(GAME.forced_orders(alone, "1")) == ["MOVE 1 3", "MOVE 1 2"]


def test_forced_and_default_are_nothing_for_a_seat_not_to_move() -> None:
    state = farm({"1": ["10"], "3": ["40"]}, roll=(2, 3))
    assert GAME.forced_orders(state, "3") is None
    assert GAME.default_orders(state, "3") == []
    assert problems(state, "MOVE 1 2", seat="3") == [OrderProblem(None, "it is not your turn: waiting for seat 1")]


# --- teams --------------------------------------------------------------------------


def test_team_rule_two_opposing_maggots_on_the_exit_square_stop_exiting() -> None:
    state = farm({"1": ["66", "20"], "2": ["68"], "4": ["68"], "3": ["50"]}, roll=(4, 1), teams=True)
    assert messages(state, "MOVE 1 4\nMOVE 1 1")[0] == (
        "MOVE 1 4: maggot 1 cannot exit: the opposing team has two maggots on your exit square 68"
    )
    assert messages(state, "MOVE 1 1\nMOVE 1 1\nMOVE 2 4")[:1] == [
        "MOVE 1 1: there is no unused 1 (you rolled 4 and 1; still unused: 4)"
    ]
    assert problems(state, "MOVE 1 1\nMOVE 2 4") == []


def test_team_rule_does_not_stop_players_whose_exit_it_is_not() -> None:
    state = farm({"1": ["20"], "2": ["68"], "4": ["68"], "3": ["66"]}, roll=(4, 1), teams=True, current="3")
    assert problems(state, "MOVE 1 4\nMOVE 1 1") == []


def test_partners_share_a_square_and_never_capture_each_other() -> None:
    state = farm({"1": ["10", "HOME", "HOME", "HOME"], "3": ["14"], "2": ["60"], "4": ["61"]}, roll=(4, 2), teams=True)
    after = resolve(state, "MOVE 1 4\nMOVE 1 2").state
    assert places(after, "3")[0] == "14"
    on_the_way = farm({"1": ["10", "HOME", "HOME", "HOME"], "3": ["14"], "2": ["60"], "4": ["61"]}, roll=(1, 4), teams=True)
    after = resolve(on_the_way, "MOVE 1 4\nMOVE 1 1").state
    assert places(after, "1")[0] == "15" and places(after, "3")[0] == "14"


def test_partners_may_share_a_safe_square_and_others_may_pass_the_pair() -> None:
    state = farm({"1": ["10", "HOME", "HOME", "HOME"], "3": ["12"], "2": ["25"], "4": ["30"]}, roll=(2, 1), teams=True)
    after = resolve(state, "MOVE 1 2\nMOVE 1 1").state
    assert places(after, "1")[0] == "13"
    pair = farm({"1": ["12"], "3": ["12"], "2": ["9"], "4": ["30"]}, roll=(6, 1), teams=True, current="2")
    assert problems(pair, "MOVE 1 6\nMOVE 1 1") == []
    assert messages(pair, "MOVE 1 1\nMOVE 1 1\nMOVE 1 1\nMOVE 1 6")[1].startswith("MOVE 1 1: there is no unused 1")
    landing = farm({"1": ["12"], "3": ["12"], "2": ["9"], "4": ["30"]}, roll=(3, 1), teams=True, current="2")
    assert messages(landing, "MOVE 1 3\nMOVE 1 1")[0] == "MOVE 1 3: maggot 1 would land on 12, which already holds two maggots"


def test_a_team_wins_when_both_partners_are_home() -> None:
    state = farm(
        {"1": ["H6", "HOME", "HOME", "HOME"], "3": ["HOME"] * 4, "2": ["25"], "4": ["30"]}, roll=(2, 1), teams=True
    )
    assert texts(GAME.forced_orders(state, "1")) == ["MOVE 1 2"]
    after = resolve(state, "MOVE 1 2").state
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == ("1", "3")


def test_a_finished_partner_no_longer_takes_turns() -> None:
    state = farm(
        {"1": ["10"], "3": ["HOME"] * 4, "2": ["25"], "4": ["30"]}, roll=(2, 1), teams=True, current="2"
    )
    after = resolve(state, "MOVE 1 2\nMOVE 1 1", rolls=(4, 2, 6, 1)).state
    assert after.current == "4"
    after = resolve(after, "MOVE 1 4\nMOVE 1 2", rolls=(6, 1)).state
    assert GAME.outcome(after) is None
    assert after.current == "1"
    after = resolve(after, "MOVE 1 6\nMOVE 1 1", rolls=(2, 3)).state
    assert after.current == "2"


def test_one_player_with_four_maggots_home_wins_alone() -> None:
    state = farm({"1": ["H6", "HOME", "HOME", "HOME"], "2": ["25"], "3": ["30"], "4": ["40"]}, roll=(2, 1))
    after = resolve(state, "MOVE 1 2").state
    assert GAME.outcome(after).winners == ("1",)  # type: ignore[union-attr]
    assert after.stage == "over"
    assert GAME.validate(after, "2", []) == [OrderProblem(None, "the game is over")]


# --- set-up -------------------------------------------------------------------------


def test_seats_and_options() -> None:
    assert GAME.seat_names(2) == ("1", "3")
    assert GAME.seat_names(3) == ("1", "2", "3")
    assert GAME.seat_names(4) == ("1", "2", "3", "4")
    for bad in (1, 5):
        with pytest.raises(GameError):
            GAME.seat_names(bad)
    with pytest.raises(GameError, match="4 players"):
        GAME.setup(("1", "3"), {"teams": "yes"}, ScriptedRng([1, 2]))
    with pytest.raises(GameError, match="unknown option"):
        GAME.setup(("1", "3"), {"colour": "red"}, ScriptedRng([1, 2]))
    with pytest.raises(GameError, match="option teams=maybe: give yes or no"):
        GAME.setup(("1", "2", "3", "4"), {"teams": "maybe"}, ScriptedRng([1, 2]))
    with pytest.raises(GameError, match="start"):
        GAME.setup(("1", "3"), {"start": "2"}, ScriptedRng([1, 2]))


def test_setup_rolls_for_the_first_seat() -> None:
    state = GAME.setup(("1", "3"), {}, ScriptedRng([3, 5]))
    assert (state.current, state.roll, state.turn) == ("1", (3, 5), 1)
    assert GAME.phase(state).prompt.startswith("You rolled 3 and 5.")
    assert places(state, "1") == ("C", "C", "C", "C")
    started = GAME.setup(("1", "2", "3", "4"), {"start": "3", "teams": "yes"}, ScriptedRng([2, 2]))
    assert (started.current, started.doublets, started.teams) == ("3", 1, True)


def test_help_documents_the_orders_and_decisions() -> None:
    text = GAME.help()
    flat = " ".join(text.split())
    for word in ("MOVE 2 5", "ENTER", "BONUS 3", "teams=yes", "your exit square", "NMR", "both partners"):
        assert word in flat


def test_a_move_order_round_trips_through_its_text() -> None:
    assert orders("move 2 5\nEnter\nbonus 4") == [Move(2, 5), Enter(), Bonus(4)]


def test_an_illegal_play_reaching_resolve_is_replaced_by_the_default() -> None:
    state = farm({"1": ["10", "30"], "3": ["60"]}, roll=(3, 4))
    result = GAME.resolve(state, {"1": orders("MOVE 1 3")}, ScriptedRng([1, 2]))
    assert places(result.state, "1")[:2] == ("10", "37")
    assert result.events[0].kind == "refused"
