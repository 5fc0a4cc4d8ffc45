"""Answer windows (a phase with a deadline of its own whose silence means PASS) through the service
layer: the window's deadline, its closing at the deadline, early or by the GM, and what a silent seat
is (passed: not NMR, not absent, no reminder, no count toward the all-NMR pause), said in the reports,
STATUS and the check replies. An Honest Trade's windows on an action are the example."""

from __future__ import annotations

from datetime import timedelta

import pytest
from stopped_clock import START, RecordingNotifier, StoppedClock

from pbem.clock import format_utc
from pbem.service.api import GameService
from pbem.service.deadlines import TurnClock
from pbem.store import Database


def open_window(db: Database, **options: str) -> tuple[GameService, TurnClock, RecordingNotifier, StoppedClock]:
    """An Honest Trade for 3 (window_hours=6 unless given) whose first action was sent: its window on
    the action is open for seats 2 and 3."""
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    notifier = RecordingNotifier()
    runner.create_game("honest-trade", "g", seats={s: f"p{s}@example.org" for s in "123"}, seed=5,
                       options={"window_hours": "6", **options})
    result = runner.submit("g", "1", "ACT YELLOW CUBES")
    assert result.is_clean, result.render()
    turn_clock = TurnClock(runner, notifier)
    if runner.info("g").row.resolve_when == "early":
        turn_clock.tick(clock.now)
    else:
        runner.resolve("g")
    info = runner.info("g")
    assert info.phase is not None and info.phase.name == "window" and info.phase.is_window
    assert info.phase.seats == ("2", "3")
    return runner, turn_clock, notifier, clock


def test_a_window_closes_after_its_own_hours_when_they_are_shorter_than_the_turn(db: Database) -> None:
    runner, _, _, clock = open_window(db)
    assert runner.info("g").row.deadline == clock.now + timedelta(hours=6)


def test_the_turn_is_the_limit_when_it_is_shorter_than_the_window(db: Database) -> None:
    runner, _, _, clock = open_window(db, turn_hours="4")
    assert runner.info("g").row.deadline == clock.now + timedelta(hours=4)


def test_a_phase_that_is_no_window_gets_the_whole_turn(db: Database) -> None:
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    runner.create_game("honest-trade", "g", seats={s: f"p{s}@example.org" for s in "123"}, seed=5,
                       options={"window_hours": "6"})
    assert runner.info("g").row.deadline == START + timedelta(hours=48)


def test_silence_at_the_deadline_passes_and_counts_for_nothing(db: Database) -> None:
    runner, turn_clock, notifier, clock = open_window(db, reminder_hours="12", grace_hours="1")
    row_streak = 2
    with runner.unit() as unit:
        unit.game("g").nmr_streak = row_streak  # two all-NMR deadlines before: a third would pause the game
    assert runner.submit("g", "2", "PASS").is_clean
    assert turn_clock.tick(clock.now).reminders == 0  # 12 hours before a 6-hour window is now: no reminder
    clock.now += timedelta(hours=5, minutes=59)
    assert turn_clock.tick(clock.now).resolutions == []
    clock.now += timedelta(minutes=1)
    [resolved] = turn_clock.tick(clock.now).resolutions
    record = resolved.turns[0].record
    assert (record.reason, record.phase, record.nmr, record.passed) == ("deadline", "window", [], ["3"])
    assert record.orders["3"] == ["PASS"]  # the default all the same
    info = runner.info("g")
    assert info.row.nmr_streak == row_streak and info.row.status == "active"
    assert all(seat.absent_since is None for seat in info.seats)
    clock.now += timedelta(hours=2)
    turn_clock.tick(clock.now)
    assert notifier.reminded == [] and notifier.gm == []  # no reminder, no absence reported

    text = runner.report_text("g", "2")
    assert "No answer, passed: 3." in text and "NMR" not in text


def test_silence_in_a_phase_that_is_no_window_is_nmr(db: Database) -> None:
    """The contrast: the action after the window is an ordinary phase, and its silent seat is NMR."""
    runner, turn_clock, _, clock = open_window(db)
    runner.submit("g", "2", "PASS")
    runner.submit("g", "3", "PASS")
    turn_clock.tick(clock.now)
    info = runner.info("g")
    assert info.phase is not None and not info.phase.is_window
    clock.now = info.row.deadline
    [resolved] = turn_clock.tick(clock.now).resolutions
    record = resolved.turns[0].record
    assert record.nmr == list(info.phase.seats) and record.passed == []
    assert runner.info("g").row.nmr_streak == 1


def test_with_early_resolution_a_window_closes_once_every_seat_asked_answered(db: Database) -> None:
    runner, turn_clock, _, clock = open_window(db)
    runner.submit("g", "2", "PASS")
    assert turn_clock.tick(clock.now).resolutions == []
    runner.submit("g", "3", "PASS")
    [resolved] = turn_clock.tick(clock.now).resolutions
    assert resolved.turns[0].record.reason == "all-in" and resolved.turns[0].record.passed == []


def test_with_deadline_resolution_a_window_waits_for_its_deadline(db: Database) -> None:
    runner, turn_clock, _, clock = open_window(db, resolve="deadline")
    runner.submit("g", "2", "PASS")
    runner.submit("g", "3", "PASS")
    assert turn_clock.tick(clock.now).resolutions == []
    clock.now += timedelta(hours=6)
    [resolved] = turn_clock.tick(clock.now).resolutions
    assert resolved.turns[0].record.reason == "deadline"


def test_without_a_deadline_a_window_waits_for_the_answers_or_the_gm(db: Database) -> None:
    runner, turn_clock, _, clock = open_window(db, turn_hours="0")
    assert runner.info("g").row.deadline is None
    clock.now += timedelta(days=30)
    assert turn_clock.tick(clock.now).resolutions == []
    runner.submit("g", "2", "PASS")
    resolved = runner.resolve("g")  # the GM's PROCESS
    assert resolved.turns[0].record.passed == ["3"] and resolved.turns[0].record.nmr == []


@pytest.mark.parametrize(("options", "closing"), [
    ({}, "it closes at its deadline or as soon as every seat asked has answered."),
    ({"resolve": "deadline"}, "it closes at its deadline."),
    ({"turn_hours": "0"}, "it has no deadline: it closes as soon as every seat asked has answered, or when the GM"),
    ({"turn_hours": "0", "resolve": "deadline"}, "it has no deadline: it closes when every seat asked said READY"),
])
def test_reports_status_and_check_replies_say_when_the_window_closes(db: Database, options: dict[str, str],
                                                                     closing: str) -> None:
    runner, _, _, _ = open_window(db, **options)
    deadline = runner.info("g").row.deadline
    said = {
        "the report to a seat asked": runner.report_text("g", "2"),
        "the report to the actor": runner.report_text("g", "1"),
        "the public report": runner.report_text("g", None),
        "STATUS": runner.status("g").window or "",
        "a check reply": runner.submit("g", "2", "PASS", store=False).render(),
    }
    for where, text in said.items():
        assert "This is an answer window: " in text and closing in text, f"{where}: {text}"
        assert "A seat that sends nothing passes" in text, where
    # the deadline itself is shown beside the note, as every deadline is (in the reader's time zone by mail)
    shown = f"Deadline: {format_utc(deadline)}." if deadline else "Deadline:"
    assert (shown in said["a check reply"]) == (deadline is not None)
    if deadline is not None:
        assert f"due by {format_utc(deadline)}" in said["the report to a seat asked"]
        assert runner.status("g").deadline == deadline


def test_no_window_note_outside_windows(db: Database) -> None:
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    runner.create_game("honest-trade", "g", seats={s: f"p{s}@example.org" for s in "123"}, seed=5)
    assert runner.status("g").window is None
    assert "answer window" not in runner.report_text("g", "1")
    check = runner.submit("g", "1", "ACT YELLOW CUBES", store=False).render()
    assert "answer window" not in check and "Deadline: " in check
