"""The turn clock reads only the games that are due, hands them out in bounded batches, and does each
game's work under the game's lock, so that clocks of several daemons (PostgreSQL) resolve each turn once."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from databases import on_postgresql
from sqlmodel import select

from pbem.service.api import GameService
from pbem.service.deadlines import CLOCK_BATCH, TurnClock
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store import Database, open_database
from pbem.store.tables import GameRow, SeatRow, TurnRecordRow

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
SEATS = {"1": "a@x.org", "2": "b@x.org"}


class Quiet:
    """A notifier that keeps nothing."""

    def remind(self, unit: Unit, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """Send nothing."""

    def tell_gm(self, unit: Unit, info: GameInfo, text: str) -> None:
        """Send nothing."""

    def tell_players(self, unit: Unit, info: GameInfo, text: str) -> None:
        """Send nothing."""


def games(runner: GameService, count: int, *, hours: str, prefix: str = "g") -> list[str]:
    names = [f"{prefix}{number}" for number in range(count)]
    for name in names:
        runner.create_game("tiny", name, seats=SEATS, seed=2, options={"turn_hours": hours, "target": "40",
                                                                        "reminder_hours": "0"})
    return names


def test_a_pass_reads_only_the_due_games_a_batch_at_a_time(tiny_game: str, db: Database) -> None:
    runner = GameService(db, clock=lambda: START)
    clock = TurnClock(runner, Quiet())
    games(runner, 5, hours="500", prefix="idle")
    due = games(runner, CLOCK_BATCH + 10, hours="1")
    later = START + timedelta(hours=2)
    batch = clock.due_games(later)
    assert len(batch) == CLOCK_BATCH  # bounded: the daemon works through them one game at a time
    assert clock.due_games(START) == []  # nothing due: the idle games are never read
    result = clock.tick(later)
    assert sorted(r.game for r in result.resolutions) == sorted(due)
    assert clock.due_games(later) == []  # each resolved game waits for its next deadline now
    assert {runner.info(name).row.turn for name in due} == {2}
    assert {runner.info(f"idle{n}").row.turn for n in range(5)} == {1}


def test_orders_that_complete_a_turn_make_the_game_due_and_nothing_else_does(tiny_game: str, db: Database) -> None:
    runner = GameService(db, clock=lambda: START)
    clock = TurnClock(runner, Quiet())
    [name] = games(runner, 1, hours="48")
    phase = runner.info(name).phase
    assert phase is not None
    runner.submit(name, phase.seats[0], "ADD 2")
    assert [row.name for row in due_rows(db)] == [name]
    [resolved] = clock.tick(START).resolutions
    assert resolved.game == name and due_rows(db) == []


def due_rows(db: Database) -> list[GameRow]:
    with db.session() as session:
        return list(session.exec(select(GameRow).where(GameRow.wake_at <= START)))  # type: ignore[operator]


def test_clocks_of_several_daemons_resolve_each_turn_once(tiny_game: str, db: Database, db_url: str) -> None:
    if not on_postgresql():
        pytest.skip("several daemons share a PostgreSQL database: run with --db-engine postgresql")
    names = games(GameService(db, clock=lambda: START), 40, hours="1")
    later = START + timedelta(hours=2)
    others = [open_database(db_url) for _ in range(3)]
    clocks = [TurnClock(GameService(other, clock=lambda: later), Quiet()) for other in others]
    resolved: list[str] = []
    errors: list[BaseException] = []

    def run(clock: TurnClock) -> None:
        try:
            resolved.extend(r.game for r in clock.tick(later).resolutions)
        except BaseException as error:  # noqa: BLE001  (raised below, in the test's thread)
            errors.append(error)

    threads = [threading.Thread(target=run, args=(clock,)) for clock in clocks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for other in others:
        other.close()
    assert errors == [] and all(not clock.failing for clock in clocks)
    assert sorted(resolved) == sorted(names)  # every game once, by one of the clocks
    with db.session() as session:
        records = session.exec(select(TurnRecordRow.game_id, TurnRecordRow.turn)).all()
    assert len(records) == len(set(records)) == len(names)
