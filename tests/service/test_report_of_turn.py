"""The report of a turn (REPORT n): the report that told that turn, made again from the stored records,
with the test-only sequential game ``tiny`` (a total of 4 wins; a turn with one legal play is played by
the service and told in the same report as the turn before it)."""

from __future__ import annotations

import pytest

from pbem.reports import render_report
from pbem.service import reporting
from pbem.service.api import GameService
from pbem.service.reporting import NoSuchReport


def played(runner: GameService) -> None:
    """Turns 1 and 2 on request (ADD 1, ADD 2), then turn 3 with its one legal play (ADD 1) by the service."""
    runner.create_game("tiny", "t1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3,
                       options={"target": "4"})
    for add in (1, 2):
        seat = runner.info("t1").phase.seats[0]
        assert runner.submit("t1", seat, f"ADD {add}").version == 1
        runner.resolve("t1")
    assert [record.reason for record in runner.history("t1")] == ["gm", "gm", "forced"]


def test_each_turn_has_the_report_that_told_it(tiny_game: str, runner: GameService) -> None:
    played(runner)
    with runner.unit(lock=False) as unit:
        newest = reporting.last_report(unit, "t1")
        assert (newest.turn, newest.last_turn) == (2, 3) and newest.outcome is not None
        for turn in (None, 2, 3):
            assert reporting.report_of_turn(unit, "t1", turn) == newest
        first = reporting.report_of_turn(unit, "t1", 1)
        opening = reporting.report_of_turn(unit, "t1", 0)
        with pytest.raises(NoSuchReport, match="no report of turn 4: its reports tell turns 0 .the opening. to 3"):
            reporting.report_of_turn(unit, "t1", 4)
    assert (first.turn, first.last_turn, first.deadline, first.deadline_at, first.window) == (1, 1, None, None, None)
    assert first.state.total == 1 and first.phase is not None and first.outcome is None
    assert [event.kind for event in first.events] and first.fairness is not None
    assert opening.turn == 0 and opening.state.total == 0 and opening.deadline is None
    assert "Turn 1 results" in render_report(first, "1") and "The game has started." in render_report(opening, "2")
    assert runner.report_text("t1", "2", 1) == render_report(first, "2")
