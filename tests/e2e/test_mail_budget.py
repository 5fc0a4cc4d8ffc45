"""A mail that runs over its time budget never harms the next one, through real mail, on the run's engine:
whenever its handling is ended (parsing, in a query, at the commit, while rendering), its transaction rolls
back, nothing stays locked, it is set aside with its sender told once, and the next mail is answered at once.

The budgets are made small on purpose; the work of each mail is real (games created, seats invited, help
and status rendered). The one injected fault is a statement that runs for ever, which no mail can provoke
on purpose today and a bug could tomorrow."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import statistics
import time
from collections.abc import Callable
from typing import Any
from pathlib import Path

import pytest
from mail_games import answers_to, eventually, inbound_row, open_game, send_raw
from mail_harness import MailHarness, running_service
from sqlalchemy import text
from sqlmodel import select

from pbem import budget
from pbem.mail.handling import handler as handler_module
from pbem.mail.handling.handler import MailHandler
from pbem.mail.reading.parse import IncomingMail
from pbem.mail.running.daemon import DaemonOptions
from pbem.store.tables import GameRow

QUICK = {"idle_recheck": 0.5, "send_retry_min": 0.5, "clock_interval": 0.1}
ROUNDS = 24
CALIBRATION = 3


def status_of(service: MailHarness, message_id: str) -> str | None:
    try:
        return inbound_row(service, message_id).status
    except AssertionError:
        return None


def game_exists(service: MailHarness, name: str) -> bool:
    with service.daemon.db.session() as session:
        return session.exec(select(GameRow).where(GameRow.name_key == name)).first() is not None


def assert_nothing_locked(service: MailHarness) -> None:
    """No transaction is left open: a write from another connection gets the lock at once (SQLite), and no
    session of the database sits inside a transaction (PostgreSQL)."""
    url = service.db_url
    if "://" not in url or url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        connection = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            connection.execute("BEGIN IMMEDIATE")  # raises "database is locked" while another holds the lock
            connection.execute("ROLLBACK")
        finally:
            connection.close()
        return
    with service.daemon.db.engine.connect() as connection:
        open_ = connection.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND state LIKE 'idle in transaction%'")).scalar()
    assert open_ == 0


def creation_mail(sender: str, game: str, message_id: str) -> bytes:
    """Real work of every kind: parsing, a game created with seats invited (queries, writes), its status and
    help rendered; the reply is written and committed with it."""
    seats = "".join(f"SEAT {seat} {seat.lower()}-{game}@players.test\n" for seat in "ABCD")
    body = (f"CREATE turkey-chase {game} seed=3\n{seats}SET turn_hours=48\nSTATUS {game}\nHELP turkey-chase\n"
            f"STATUS\nHELP\n")
    return (f"From: {sender}\r\nTo: gm@pbem.test\r\nSubject: a game\r\nMessage-ID: {message_id}\r\n\r\n"
            f"{body}").encode()


def handled_seconds(service: MailHarness) -> tuple[float, float]:
    """How many mails the daemon handled, and the seconds it took them (its own histogram)."""
    samples = {sample.name: sample.value for metric in service.daemon.metrics.handling.collect()
               for sample in metric.samples}
    return samples["pbem_mail_handling_seconds_count"], samples["pbem_mail_handling_seconds_sum"]


async def handling_time(service: MailHarness, mails: int) -> float:
    """The median time this machine takes to handle one creation mail in full (no budget in its way), so
    that the random budgets end about half of the mails whatever the machine's speed."""
    times = []
    for number in range(mails):
        sender, message_id = f"calibrate{number}@players.test", f"<calibrate-{number}@p.test>"
        count, seconds = handled_seconds(service)
        await send_raw(service, creation_mail(sender, f"cal-{number}", message_id), mail_from=sender)
        await eventually(lambda: status_of(service, message_id) == "handled")
        await eventually(lambda: handled_seconds(service)[0] > count)
        times.append(handled_seconds(service)[1] - seconds)
        await service.person(sender).last()
    return statistics.median(times)


@pytest.mark.slow
def test_mails_ended_at_random_points_are_set_aside_and_the_next_mail_is_answered_at_once(tmp_path: Path) -> None:
    chance = random.Random(31)

    async def scenario() -> None:
        async with running_service(tmp_path, options=DaemonOptions(**QUICK)) as service:
            dog = service.daemon.watchdog
            whole = await handling_time(service, CALIBRATION)
            ended = done = 0
            for number in range(ROUNDS):
                sender, game, message_id = f"gm{number}@players.test", f"bg-{number}", f"<big-{number}@p.test>"
                person = service.person(sender)
                dog.budget = chance.uniform(0.002, 2 * whole)  # ends the mail anywhere in its handling, or not at all
                await send_raw(service, creation_mail(sender, game, message_id), mail_from=sender)
                await eventually(lambda: status_of(service, message_id) in ("handled", "set_aside"))
                dog.budget = 2.0
                row = inbound_row(service, message_id)
                answer = await person.last()
                if row.status == "set_aside":
                    ended += 1
                    assert "could not be read: reading it took longer than the game master allows" in answer.body
                    assert not game_exists(service, game)  # rolled back: no game, no invitation
                else:
                    done += 1
                    assert f"Created Turkey Chase game {game}" in answer.body
                    assert game_exists(service, game)
                assert len(answers_to(service, row)) == 1
                assert_nothing_locked(service)
                other = service.person(f"next{number}@players.test")
                await other.send("HELP\n", subject="help")
                assert "pbem commands" in (await other.last(timeout=5)).body  # the next mail: answered at once
            assert ended >= ROUNDS // 4 and done >= 1, (ended, done)

    asyncio.run(scenario())


async def set_aside_and_the_next_answered(service: MailHarness, sender: str, game: str) -> Any:
    """Send the mail creating ``game`` from ``sender`` (which runs past its budget): it is set aside, its sender
    told, nothing of it stays and nothing stays locked, and the next mail is answered at once; return its row."""
    await send_raw(service, creation_mail(sender, game, f"<{game}@p.test>"), mail_from=sender)
    told = await service.person(sender).last()
    assert "reading it took longer than the game master allows" in told.body
    row = inbound_row(service, f"<{game}@p.test>")
    assert row.status == "set_aside"
    assert not game_exists(service, game)
    assert_nothing_locked(service)
    other = service.person("other@players.test")
    await other.send("HELP\n", subject="help")
    assert "pbem commands" in (await other.last(timeout=5)).body
    return row


@pytest.fixture
def endless_statement_for(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make handling a mail from one sender run a statement that never ends, once its orders are written."""

    def inject(sender: str) -> None:
        handle = MailHandler._handle

        def slow(self: MailHandler, unit: object, mail: IncomingMail, inbound_id: int) -> object:
            done = handle(self, unit, mail, inbound_id)  # type: ignore[arg-type]
            if mail.sender == sender:
                session = unit.session  # type: ignore[attr-defined]
                if session.get_bind().dialect.name == "postgresql":
                    session.execute(text("SELECT pg_sleep(60)"))
                else:
                    session.execute(text("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
                                         "SELECT count(*) FROM n WHERE x < 0"))
            return done

        monkeypatch.setattr(MailHandler, "_handle", slow)

    return inject


def test_a_statement_running_past_the_budget_is_ended_by_the_database_and_rolled_back(
        tmp_path: Path, endless_statement_for: Callable[[str], None], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="pbem.mail.running.daemon")
    endless_statement_for("slow@players.test")

    async def scenario() -> None:
        async with running_service(tmp_path, options=DaemonOptions(**QUICK, mail_budget=0.5)) as service:
            row = await set_aside_and_the_next_answered(service, "slow@players.test", "sq-1")
            assert row.attempts == 1

    asyncio.run(scenario())
    assert "stuck outside Python code" not in caplog.text  # the database ended it; nothing had to be abandoned
    assert "interrupted" in caplog.text or "canceling statement" in caplog.text


def test_a_gm_mail_of_99_status_lines_is_worked_once_and_answered_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            await game.gm.send(f"GM {game.name} {game.gm_password}\n" + "STATUS\n" * 99)
            answer = await game.gm.last()
            assert answer.body.count("Waiting for orders from: A, B, C, D.") == 1, answer.body
            assert "98 more identical answer(s) left out" in answer.body
            # Something changed between two STATUS lines: the second is worked out again.
            await game.gm.send(f"GM {game.name} {game.gm_password}\nSTATUS\nEXTEND 24h\nSTATUS\n")
            again = await game.gm.last()
            assert "identical answer" not in again.body

    asyncio.run(scenario())


def test_a_mail_whose_parse_runs_past_the_budget_is_set_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = handler_module.read_incoming

    def hostile_parse(raw: bytes, **options: Any) -> IncomingMail:
        """Read as a mail built to make the reader slow would be: for a minute, with its safe points."""
        if b"hostile@players.test" in raw:
            until = time.monotonic() + 60
            while time.monotonic() < until:
                budget.check()
        return read(raw, **options)

    monkeypatch.setattr(handler_module, "read_incoming", hostile_parse)

    async def scenario() -> None:
        async with running_service(tmp_path, options=DaemonOptions(**QUICK, mail_budget=0.5)) as service:
            await set_aside_and_the_next_answered(service, "hostile@players.test", "hp-1")

    asyncio.run(scenario())
