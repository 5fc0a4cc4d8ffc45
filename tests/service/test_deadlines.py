"""The turn clock with a controlled clock on a real database."""

from __future__ import annotations

from datetime import timedelta

import pytest

from stopped_clock import RecordingNotifier, StoppedClock

from pbem.service.api import GameService
from pbem.service.deadlines import TurnClock
from pbem.store import Database
from pbem.store.tables import reminder_time


def setup(db: Database, **options: str) -> tuple[GameService, TurnClock, RecordingNotifier, StoppedClock]:
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    notifier = RecordingNotifier()
    runner.create_game("tiny", "g", seats={"1": "a@x.org", "2": "b@x.org"}, seed=2,
                       options={"turn_hours": "24", "target": "40", **options})
    return runner, TurnClock(runner, notifier), notifier, clock


def on_move(runner: GameService) -> str:
    phase = runner.info("g").phase
    assert phase is not None
    return phase.seats[0]


def test_resolves_early_once_every_owing_seat_has_orders(tiny_game: str, db: Database) -> None:
    runner, turn_clock, _, clock = setup(db)
    assert turn_clock.tick(clock.now).resolutions == []
    runner.submit("g", on_move(runner), "ADD 2")
    [resolution] = turn_clock.tick(clock.now).resolutions
    assert resolution.turns[0].record.reason == "all-in" and runner.info("g").row.turn == 2


def test_deadline_only_games_and_delay_wait(tiny_game: str, db: Database) -> None:
    runner, turn_clock, _, clock = setup(db, resolve="deadline")
    runner.submit("g", on_move(runner), "ADD 2")
    assert turn_clock.tick(clock.now).resolutions == []
    clock.now += timedelta(hours=24)
    [resolution] = turn_clock.tick(clock.now).resolutions
    assert resolution.turns[0].record.reason == "deadline" and resolution.turns[0].record.nmr == []


def test_early_delay_holds_resolution(tiny_game: str, db: Database) -> None:
    runner, turn_clock, _, clock = setup(db, delay_minutes="30")
    runner.submit("g", on_move(runner), "ADD 2")
    clock.now += timedelta(minutes=29)
    assert turn_clock.tick(clock.now).resolutions == []
    clock.now += timedelta(minutes=1)
    assert len(turn_clock.tick(clock.now).resolutions) == 1


def test_reminder_goes_once_to_seats_without_orders(tiny_game: str, db: Database) -> None:
    runner, turn_clock, notifier, clock = setup(db)
    seat = on_move(runner)
    clock.now += timedelta(hours=11, minutes=59)
    turn_clock.tick(clock.now)
    assert notifier.reminded == []
    clock.now += timedelta(minutes=1)
    assert turn_clock.tick(clock.now).reminders == 1
    turn_clock.tick(clock.now)
    assert notifier.reminded == [("g", [seat])]


@pytest.mark.parametrize(("turn_hours", "reminder_hours", "after"), [
    ("24", "12", timedelta(hours=12)),  # 12 hours before the deadline: the second half of the turn
    ("8", "12", timedelta(hours=4)),  # longer than the turn: halfway, never with the opening report
    ("1.5", "12", timedelta(hours=1)),  # halfway is within the first hour: an hour after the opening
    ("1", "12", None),  # no time left for a reminder before the deadline
])
def test_a_reminder_never_comes_in_the_first_half_nor_the_first_hour_of_a_turn(
        tiny_game: str, db: Database, turn_hours: str, reminder_hours: str, after: timedelta | None) -> None:
    runner, turn_clock, notifier, clock = setup(db, turn_hours=turn_hours, reminder_hours=reminder_hours)
    opened = clock.now
    row = runner.info("g").row
    assert row.opened_at == opened
    assert reminder_time(row) == (opened + after if after is not None else None)
    clock.now = opened + (after or timedelta(hours=1)) - timedelta(seconds=1)
    turn_clock.tick(clock.now)
    assert notifier.reminded == []
    if after is not None:
        clock.now += timedelta(seconds=1)
        assert turn_clock.tick(clock.now).reminders == 1


def test_three_all_nmr_deadlines_pause_the_game_and_tell_the_gm(tiny_game: str, db: Database) -> None:
    runner, turn_clock, notifier, clock = setup(db)
    for _ in range(3):
        clock.now += timedelta(hours=24, seconds=1)
        turn_clock.tick(clock.now)
    assert runner.info("g").row.status == "paused"
    assert any("paused" in text for text in notifier.gm)
    runner.resume("g")
    assert runner.info("g").row.status == "active"


def test_absent_seat_is_reported_after_the_grace_period(tiny_game: str, db: Database) -> None:
    runner, turn_clock, notifier, clock = setup(db, grace_hours="6")
    absent = on_move(runner)
    clock.now += timedelta(hours=24, seconds=1)
    turn_clock.tick(clock.now)  # the deadline passes: NMR
    runner.submit("g", on_move(runner), "ADD 1")  # the other seat plays on
    turn_clock.tick(clock.now)
    clock.now += timedelta(hours=6)
    turn_clock.tick(clock.now)
    assert len(notifier.gm) == 1 and f"seat(s) {absent} (" in notifier.gm[0]
    turn_clock.tick(clock.now)
    assert len(notifier.gm) == 1


def test_outage_extends_passed_deadlines_instead_of_nmr_for_everyone(tiny_game: str, db: Database) -> None:
    runner, turn_clock, notifier, clock = setup(db)
    deadline = runner.info("g").row.deadline
    assert deadline is not None
    last_seen = clock.now + timedelta(hours=20)
    clock.now += timedelta(hours=30)  # down from hour 20 to hour 30: the deadline at 24 passed
    assert turn_clock.recover_outage(last_seen, clock.now) == ["g"]
    assert runner.info("g").row.deadline == deadline + timedelta(hours=10)
    assert "extended" in notifier.players[0]
    assert turn_clock.tick(clock.now).resolutions == []
