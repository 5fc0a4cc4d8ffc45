"""The daemon's event loop never waits for the database: while another program holds SQLite's
write lock (a backup, a long transaction), the loop goes on, and the mail that arrived meanwhile is
answered once the lock is gone. Through the real daemon, real mail servers and a real SQLite file
(on every engine: the write lock is SQLite's)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from mail_harness import running_service

from pbem.mail.daemon import DaemonOptions

QUICK = DaemonOptions(idle_recheck=0.2, send_retry_min=0.5, clock_interval=0.1, restart_first=0.2,
                      restart_longest=0.5)
HELD = 2.0
"""Seconds the other program holds the write lock."""


async def longest_stall(stop: asyncio.Event, tick: float = 0.01) -> float:
    """Sleep ``tick`` again and again until ``stop``; return the longest any sleep overran, in seconds."""
    worst = 0.0
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(tick)
        worst = max(worst, time.perf_counter() - started - tick)
    return worst


def test_the_event_loop_goes_on_while_another_program_holds_the_database_write_lock(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK, db_url=str(tmp_path / "pbem.db")) as service:
            eve = service.person("eve@outside.test")
            await eve.send("HELP\n")
            assert "pbem commands" in (await eve.last()).body  # the daemon is up and has used the database

            other = sqlite3.connect(service.db_url, timeout=0, isolation_level=None)
            stop = asyncio.Event()
            watcher = asyncio.create_task(longest_stall(stop))
            try:
                other.execute("BEGIN IMMEDIATE")  # the write lock, held as a long transaction would
                senders = [service.person(f"p{n}@outside.test") for n in range(3)]
                for person in senders:  # taken by the intake, to be stored while the lock is held
                    await person.send("HELP\n")
                await asyncio.sleep(HELD)
                other.execute("ROLLBACK")
                stop.set()
                stall = await watcher
            finally:
                stop.set()
                other.close()
            assert stall < 0.5, f"the event loop stood still for {stall:.2f} s while the database was locked"
            for person in senders:
                assert "pbem commands" in (await person.last(timeout=30)).body
            assert service.daemon.fatal is None

    asyncio.run(scenario())
