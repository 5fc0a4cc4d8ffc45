"""The daemon's event loop never waits for the database: while another program holds SQLite's
write lock (a backup, a long transaction), the loop goes on, and the mail that arrived meanwhile is
answered once the lock is gone; a mail whose handling meets such an error is handled again, before
the mails stored after it. Through the real daemon, real mail servers and a real SQLite file (on every
engine: the write lock is SQLite's)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from mail_games import OPENING_ORDERS, open_game
from mail_harness import TEST_MAIL_BUDGET, running_service
from sqlalchemy.exc import OperationalError

from pbem.mail.answering.conversation import HandledMail
from pbem.mail.running.daemon import DaemonOptions
from pbem.service.unit import Unit

QUICK = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.2, send_retry_min=0.5, clock_interval=0.1, restart_first=0.2,
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


def test_a_mail_met_by_a_passing_database_error_is_handled_again_before_the_mails_after_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            alice = game.players["A"]
            handle = service.daemon.handler._handle_stored
            failing: dict[str, float] = {}

            def locked_for_a_while(unit: Unit, inbound_id: int, stored: tuple[bytes, int] | None = None) -> HandledMail:
                """The first mail's handling fails for 3 seconds (a fault no other program can time so)."""
                failing.setdefault("id", inbound_id)
                failing.setdefault("until", time.monotonic() + 3.0)
                if inbound_id == failing["id"] and time.monotonic() < failing["until"]:
                    raise OperationalError("UPDATE inbound_message ...", {}, sqlite3.OperationalError("database is locked"))
                return handle(unit, inbound_id, stored)

            service.daemon.handler._handle_stored = locked_for_a_while  # type: ignore[method-assign]
            await alice.reply(game.reports["A"], "FEED F1\n")
            while "until" not in failing:
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.2)  # the intake's wait for the first mail to be answered is over
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])  # taken while the first still fails
            first, second = await alice.receive(2, timeout=30)
            assert "Your orders v1" in first.body and "1 line(s) accepted" in first.body, first.body
            assert "Your orders v2" in second.body and "2 line(s) accepted" in second.body, second.body
            current = service.runner.current_orders(game.name, "A")
            assert current is not None and current.orders == OPENING_ORDERS["A"].split("\n")[:2]
            assert service.daemon.fatal is None

    asyncio.run(scenario())
