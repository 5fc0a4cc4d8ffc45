"""The retention purge runs on the daemon's clock: a clock that jumps a week does not wait a wall-clock hour; with it,
finished games are compacted once finished for ``compact_after`` by that clock."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from mail_harness import TEST_MAIL_BUDGET, MovableClock, Person, running_service
from sqlalchemy import func, select

from pbem.mail.running.daemon import DaemonOptions
from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow, SubmissionRow, TurnArchiveRow


def _kept(db: Database) -> tuple[int, int]:
    """Inbound mails whose text is kept, and outbound mails still in the database."""
    with db.engine.connect() as connection:
        inbound = connection.scalar(select(func.count()).where(func.length(InboundMessageRow.raw) > 0))
        outbound = connection.scalar(select(func.count()).select_from(OutboundMessageRow))
    return int(inbound or 0), int(outbound or 0)


async def _kept_within(db: Database, seconds: float) -> tuple[int, int]:
    """What :func:`_kept` counts once the daemon purged every mail, or when ``seconds`` passed first."""
    for _ in range(int(seconds * 10)):
        if _kept(db) == (0, 0):
            break
        await asyncio.sleep(0.1)
    return _kept(db)


def test_mail_older_than_the_retention_by_the_daemons_clock_is_purged_within_a_clock_hour(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = MovableClock()
        options = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.05,
                                retention=timedelta(days=7))
        async with running_service(tmp_path, clock=clock, options=options) as service:
            person = service.person("ann@example.org")
            await person.send("HELP\n")
            await person.last()
            await service.daemon.caught_up()
            assert _kept(service.daemon.db) == (1, 1)
            clock.advance(days=6, hours=23)  # within the retention: nothing goes
            await service.settle(0.5)
            assert _kept(service.daemon.db) == (1, 1)
            clock.advance(hours=2)  # past it, and more than an hour since the last purge by the daemon's clock
            assert await _kept_within(service.daemon.db, 10.0) == (0, 0)

    asyncio.run(scenario())


def test_mail_handled_after_the_clock_moved_is_kept_for_the_retention_counted_from_then(tmp_path: Path) -> None:
    """A mail's age is counted on the clock the retention counts on: mail handled a month into the daemon's
    clock (a simulation's, bench/bench_soak.py) is kept its week from then, not purged at the next pass as
    mail stamped by the wall clock a month before would be."""
    async def scenario() -> None:
        clock = MovableClock()
        options = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.05,
                                retention=timedelta(days=7))
        async with running_service(tmp_path, clock=clock, options=options) as service:
            clock.advance(days=30)
            await service.settle(0.3)  # the purge of the jump has run: nothing to purge yet
            person = service.person("ann@example.org")
            await person.send("HELP\n")
            await person.last()
            await service.daemon.caught_up()
            clock.advance(days=6, hours=22)  # two purges by the daemon's clock, within the mail's week
            await service.settle(0.5)
            assert _kept(service.daemon.db) == (1, 1)
            clock.advance(hours=3)  # past its week
            assert await _kept_within(service.daemon.db, 10.0) == (0, 0)

    asyncio.run(scenario())


async def _report_of_turn_1(person: Person) -> tuple[str, str]:
    """What a REPORT of turn 1 of the game ``old`` by mail answers: the turn's results, and its game record
    excerpt (what the game's state and chain give; the rest follows the game's row: deadline, seed)."""
    await person.send("REPORT old 1\n")
    for _ in range(5):
        for mail in await person.receive():
            if "Turn 1 results" in mail.body:
                body = mail.body
                return body[:body.index("Your orders")], body[body.index("Game record:"):]
    raise AssertionError("no report of turn 1 came")


def _compacted(db: Database) -> int:
    with db.engine.connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(TurnArchiveRow)) or 0)


def test_a_game_finished_for_the_compaction_time_by_the_daemons_clock_is_compacted_and_still_replays(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = MovableClock()
        options = DaemonOptions(idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.05,
                                compact_after=timedelta(days=30))
        async with running_service(tmp_path, clock=clock, options=options) as service:
            games = service.daemon.service
            games.create_game("race-on-the-river", "old", seats={"1": "ann@example.org", "2": "bob@example.org"},
                              seed=3)
            for _ in range(2):
                games.resolve("old")
            games.end("old")
            replayed = games.replay("old")
            clock.advance(days=29, hours=23)  # not yet
            await service.settle(0.5)
            assert _compacted(service.daemon.db) == 0
            ann = service.person("ann@example.org")
            reported = await _report_of_turn_1(ann)
            clock.advance(hours=2)
            for _ in range(100):
                if _compacted(service.daemon.db):
                    break
                await asyncio.sleep(0.1)
            assert _compacted(service.daemon.db) == 1
            assert games.replay("old") == replayed and replayed.is_identical and replayed.turns == 2
            with service.daemon.db.engine.connect() as connection:  # read back from the archive, nowhere else
                assert connection.scalar(select(func.count()).select_from(SubmissionRow)) == 0
            assert await _report_of_turn_1(ann) == reported  # an earlier turn's report and its record excerpt
            assert "Bids revealed" in reported[0] and reported[1].startswith("Game record: turn 1")

    asyncio.run(scenario())
