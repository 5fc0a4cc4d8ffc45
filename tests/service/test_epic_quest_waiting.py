"""The Epic Quest's waiting is safe: a step in which everyone waited (a solo player's NOORDERS too)
does not end early, which would lose the round's remaining actions; the reply says so first, and
READY from every owing seat (or the deadline) ends it."""

from __future__ import annotations

from pbem.service import due, owing
from pbem.service.api import GameService


def _due(runner: GameService, name: str) -> str | None:
    with runner.unit(lock=False) as unit:
        return due.due_reason(unit, unit.info(name), runner.clock())


def _warning(runner: GameService, name: str, seat: str) -> str | None:
    with runner.unit(lock=False) as unit:
        return owing.wait_warning(unit, unit.info(name), seat)


def test_a_solo_wait_is_told_first_and_ends_the_phase_only_on_ready(runner: GameService) -> None:
    runner.create_game("epic-quest", "eq", seats={"1": "a@x.org"}, seed=11)
    runner.withdraw("eq", "1")  # NOORDERS: the only player waits
    assert _due(runner, "eq") is None, "the step must not end early"
    warning = _warning(runner, "eq", "1")
    assert warning is not None and "the adventurers' phase of round 1 ends and the team's 8 remaining actions " \
        "are lost" in warning and "you are the only one to act and you wait" in warning
    runner.withdraw("eq", "1", ready=True)
    assert _due(runner, "eq") == due.ALL_READY
    runner.resolve("eq", reason=due.ALL_READY)
    assert runner.info("eq").state.round == 2


def test_one_wait_of_a_team_is_warned_and_an_action_lets_the_step_resolve(runner: GameService) -> None:
    runner.create_game("epic-quest", "team", seats={"1": "a@x.org", "2": "b@x.org"}, seed=12)
    runner.withdraw("team", "1")
    warning = _warning(runner, "team", "1")
    assert warning is not None and warning.startswith("If every player waits in this step") and "READY" not in warning
    assert _due(runner, "team") is None  # seat 2 still owes
    assert runner.submit("team", "2", "KNIGHT REST").is_clean
    assert _warning(runner, "team", "2") is None
    assert _due(runner, "team") == due.ALL_IN
    runner.withdraw("team", "2")  # now both wait
    assert _due(runner, "team") is None and "everyone has waited" in (_warning(runner, "team", "2") or "")


def test_waiting_costs_nothing_special_in_other_games(runner: GameService) -> None:
    runner.create_game("race-on-the-river", "r", seats={"1": "a@x.org", "2": "b@x.org"}, seed=3)
    runner.withdraw("r", "1")
    runner.withdraw("r", "2")
    assert _warning(runner, "r", "1") is None and _due(runner, "r") == due.ALL_IN
