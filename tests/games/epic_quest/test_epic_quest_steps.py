"""Action steps (plan 4.21 [D]): who owes orders, slots, DONE, waiting, the NMR default, the end of
phase 1, rounds, escapes, victory, defeat and the round cap."""

from __future__ import annotations

import pytest
from epic_quest_builders import GAME, orders, quest, resolve, texts
from scripted_rng import ScriptedRng

from pbem.core import GameError, OutcomeKind
from pbem.games.epic_quest.orders import Done
from pbem.games.epic_quest.state import Meanie
from pbem.games.epic_quest.steps import running_order

SEALED = {"G": 4, "B": 4, "Y": 4}


def test_a_step_is_a_team_phase_of_every_seat_with_actions_left() -> None:
    """Plan [D]: each step, every controller whose adventurers still have actions owes orders at once;
    X5: teammates' stored orders are shared (shared_orders)."""
    phase = GAME.phase(quest(4))
    assert (phase.name, phase.seats, phase.shared_orders) == ("step", ("1", "2", "3", "4"), True)
    assert "Round 1, step 1; actions left: the Warrior 2 (seat 1)" in phase.prompt
    state = quest(2, actions={"W": 0, "A": 0})
    assert GAME.phase(state).seats == ("2",)


def test_the_running_order_is_slot_then_adventurer_then_line() -> None:
    """Plan [D]: actions run sorted by slot, then W, K, A, C; an unslotted action is its adventurer's
    first (slot 1) or second (slot 2) listed action."""
    step = {"1": orders("CLERIC MOVE d1\n@1 WARRIOR MOVE b1\nCLERIC RITUAL\nKNIGHT REST")}
    assert [str(s.order) for s in running_order(step, ["1"])] == [
        "@1 WARRIOR MOVE b1", "KNIGHT REST", "CLERIC MOVE d1", "CLERIC RITUAL"]
    two = {"1": orders("@3 WARRIOR REST\nARCHER REST"), "2": orders("@2 KNIGHT REST\nCLERIC REST")}
    assert [(s.seat, str(s.order)) for s in running_order(two, ["1", "2"])] == [
        ("1", "ARCHER REST"), ("2", "CLERIC REST"), ("2", "@2 KNIGHT REST"), ("1", "@3 WARRIOR REST")]


def test_a_seat_that_sends_no_action_waits_and_keeps_its_actions_for_a_later_step() -> None:
    """Plan [D]: after a step is resolved and reported, a further step opens while actions remain."""
    state, _ = resolve(quest(2), {"1": "", "2": "KNIGHT MOVE b1\nKNIGHT MOVE a1"})
    assert (state.round, state.step) == (1, 2)
    assert GAME.phase(state).seats == ("1", "2")
    assert [a.actions for a in state.adventurers] == [2, 0, 2, 2]


def test_done_forfeits_the_senders_remaining_actions() -> None:
    """Plan [D]: a controller may send DONE, forfeiting his remaining actions."""
    state, events = resolve(quest(2), {"1": "WARRIOR MOVE b1\nDONE", "2": ""})
    assert [a.actions for a in state.adventurers] == [0, 2, 0, 2]
    assert "Seat 1 is done for this round: forfeited the Warrior 1 action, the Archer 2 actions." in texts(events)
    assert GAME.phase(state).seats == ("2",)


def test_the_nmr_default_is_done_the_adventurers_take_no_more_actions() -> None:
    """[C] NMR: an adventurer without orders takes no actions; its step's actions are forfeited."""
    state = quest(2)
    assert GAME.default_orders(state, "1") == [Done()]
    after = GAME.resolve(state, {"1": GAME.default_orders(state, "1"), "2": orders("KNIGHT MOVE b1")},
                         ScriptedRng([])).state
    assert [a.actions for a in after.adventurers] == [0, 1, 0, 2]


def test_a_step_in_which_nobody_acts_ends_the_adventurers_phase() -> None:
    """Implementation decision: everyone waited, so the team has stopped; the enemies play."""
    state, events = resolve(quest(), {"1": "POLICY GUARD KNIGHT"}, rolls=[6] * 10)
    assert "Nobody acted in this step: the adventurers' phase ends" in texts(events)
    assert (state.round, state.step) == (2, 1) and state.guard == ("K",)
    assert all(a.actions == 2 for a in state.adventurers)


def test_when_no_action_is_left_the_enemies_play_and_the_next_round_starts() -> None:
    state, events = resolve(quest(), {"1": "DONE"}, rolls=[6] * 10)
    assert (state.round, state.step) == (2, 1)
    phases = [e.phase for e in events]
    assert "Round 1, the enemies" in phases
    assert state.meanie.space_name == "2" and state.invaders_on_map == 3


def test_policies_are_kept_in_the_state_and_shown() -> None:
    """Plan [D]: standing policies are kept in the state and any submission may change them."""
    state, events = resolve(quest(2), {"1": "POLICY LOSE WARRIOR RED GREEN BLUE\nPOLICY GUARD ARCHER WARRIOR\n"
                                            "WARRIOR MOVE b1", "2": "POLICY GUARD KNIGHT"})
    assert state.adventurer("W").lose == ("red", "green", "blue")
    assert state.guard == ("K",)  # seat 2's policy came last
    assert "Policy: the Warrior loses life cubes red, then green, then blue." in texts(events)
    view = GAME.view(state, "1")
    assert view["guard"] == ["Knight"] and view["adventurers"][0]["lose"] == ["red", "green", "blue"]


def test_a_lose_policy_must_name_the_adventurers_three_colours() -> None:
    problems = GAME.validate(quest(), "1", orders("POLICY LOSE WARRIOR RED RED BLUE\nPOLICY GUARD W W"))
    assert [p.message for p in problems] == [
        "POLICY LOSE WARRIOR RED RED BLUE: name the Warrior's three life colours once each (RED, BLUE, GREEN)",
        "POLICY GUARD WARRIOR WARRIOR: name each adventurer at most once"]


def test_adventurers_on_the_entrance_escape_by_themselves_once_all_portals_are_sealed() -> None:
    """Plan [D]: after all portals are sealed, an adventurer still on the entrance at the end of phase 1
    escapes automatically; victory when all four escaped."""
    state = quest(3, portals=SEALED)
    after, events = resolve(state, {"1": "DONE", "2": "DONE", "3": "DONE"})
    assert after.result == "victory" and all(a.escaped for a in after.adventurers)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.kind is OutcomeKind.SHARED and outcome.winners == ("1", "2", "3")
    assert "Gateway Island is saved" in texts(events)


def test_a_solo_victory_is_the_players_win() -> None:
    after, _ = resolve(quest(1, portals=SEALED), {"1": "WARRIOR ESCAPE\nKNIGHT ESCAPE\nARCHER ESCAPE\nCLERIC ESCAPE"})
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.kind is OutcomeKind.WIN and outcome.winners == ("1",)


def test_with_an_adventurer_still_in_the_forest_the_enemies_play_on() -> None:
    state = quest(1, portals=SEALED, at={"W": "a1"})
    after, events = resolve(state, {"1": "DONE"}, rolls=[6] * 10)
    assert [a.escaped for a in after.adventurers] == [False, True, True, True]
    assert after.result == "" and after.round == 2 and after.adventurer("W").actions == 2
    assert GAME.phase(after).seats == ("1",)
    assert "Every portal is sealed: no invaders come." in texts(events)
    after, _ = resolve(after, {"1": "WARRIOR MOVE b1\nWARRIOR MOVE c1"})
    assert after.result == "victory"


def test_the_round_cap_ends_the_quest_in_defeat() -> None:
    """Plan [D] X7: option max_rounds (default 30), then defeat."""
    state = quest(options={"max_rounds": "1"})
    after, events = resolve(state, {"1": "DONE"}, rolls=[6] * 10)
    assert after.result == "defeat"
    assert "Round 1 of 1 is over and the quest is not done (0 of 3 portals sealed): the quest has failed." in texts(events)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.kind is OutcomeKind.LOSS and outcome.winners == ()


def test_when_an_adventurer_dies_the_quest_is_lost_and_takes_no_more_orders() -> None:
    """End: DEFEAT if at least one adventurer loses all of his life cubes."""
    state = quest(at={"W": "b1"}, life={"W": {"red": 1}}, invaders={"b1": 1}, meanie=Meanie(space=2))
    after, events = resolve(state, {"1": "DONE"}, rolls=[1, 6, 6, 6, 6])
    assert after.result == "defeat" and after.adventurer("W").is_dead
    assert "The Warrior lost the last life cube in round 1: the quest has failed." in texts(events)
    assert GAME.outcome(after).kind is OutcomeKind.LOSS  # type: ignore[union-attr]
    assert [p.message for p in GAME.validate(after, "1", [Done()])] == ["the game is over"]
    with pytest.raises(GameError, match="the quest is over"):
        GAME.resolve(after, {"1": [Done()]}, ScriptedRng([]))


def test_the_teams_score_is_the_number_of_sealed_portals() -> None:
    assert GAME.scores(quest(2, portals={"G": 4, "B": 2})) == {"1": 1, "2": 1}


def test_the_summary_says_what_the_step_spends_and_in_which_order() -> None:
    summary = GAME.submission_summary(quest(2), "1", orders("ARCHER MOVE b1\nWARRIOR MOVE d1\nWARRIOR MOVE e1"))
    assert summary == ("This step: the Warrior uses 2 of 2 actions, the Archer uses 1 of 2 actions. Your actions "
                       "run in this order: WARRIOR MOVE d1, then ARCHER MOVE b1, then WARRIOR MOVE e1.")
    assert GAME.submission_summary(quest(2), "1", []) == "This step: the Warrior waits (2 left), the Archer waits (2 left)."
    alone = quest(1, actions={"W": 1, "K": 0, "A": 0, "C": 0})
    assert GAME.is_wait(alone, "1", orders("POLICY GUARD KNIGHT")) and GAME.is_wait(alone, "1", [])
    assert not GAME.is_wait(alone, "1", orders("WARRIOR REST")) and not GAME.is_wait(alone, "1", orders("DONE"))
    assert GAME.all_waited_warning(alone) == ("If every player waits in this step, the adventurers' phase of round 1 "
                                              "ends and the team's 1 remaining action are lost.")


def test_a_huge_submission_is_refused_as_a_whole() -> None:
    problems = GAME.validate(quest(), "1", orders("WARRIOR REST\n" * 41))
    assert [(p.index, p.message) for p in problems] == [(None, "a step takes at most 40 order lines, not 41")]
