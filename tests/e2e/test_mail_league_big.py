"""The largest league by real mail, with ``pbem serve`` as a process at its default time budget: the GM's
LEAGUE START of 200 members (tables of 2) is answered at once, the clock seats the 100 tables in steps,
a SIGKILL half-way loses nothing (the next daemon carries on: no table created twice, none missing), and
the GM is told once when every table is seated. On PostgreSQL two daemons carry on together on the one
database and still create each table once.

The mail servers run in a process of their own, so the mailboxes outlive the killed daemon."""

from __future__ import annotations

import asyncio
import json
import signal
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from databases import database_url, on_postgresql
from databases import query as run_query
from test_crash import PBEM, mail_servers, read_mailbox
from test_mail_lifecycle_processes import daemon, mail_of, send, serve_args

from pbem.service import leagues
from pbem.service.api import GameService
from pbem.store import open_database

pytestmark = pytest.mark.slow

GM = "gm@league.test"
MEMBERS = [f"player{i}@league.test" for i in range(1, 201)]
TABLES = 100
SEATED = f"[big] Round 1 started: {TABLES} tables"
WAIT = 120.0
"""Seconds the whole seating may take on a slow machine (a bound for the waits, not a measure)."""


def _league_of_200(db: str) -> None:
    """The league, created by its GM, with its 200 members joined (as LEAGUE JOIN by mail does)."""
    database = open_database(db)
    try:
        with GameService(database).unit() as unit:
            leagues.create_for_gm(unit, "big", "top-of-the-temple", {"table": "2", "rounds": "1"}, gm_address=GM)
            for address in MEMBERS:
                leagues.join(unit, "big", address)
    finally:
        database.close()


def _created(db: str) -> int:
    return run_query(db, "SELECT count(*) FROM league_table WHERE game_id IS NOT NULL")[0][0]


async def _until(check: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not check():  # type: ignore[operator]
        assert loop.time() < deadline, f"{what}: not within {WAIT} s"
        await asyncio.sleep(0.02)


def _queued_to(db: str, address: str, subject: str) -> int:
    """How many mails to ``address`` with ``subject`` are in the outbox (sent or not)."""
    rows = run_query(db, "SELECT recipients, raw FROM outbound_message WHERE purpose = 'notice'")
    return sum(address in (json.loads(r) if isinstance(r, str) else r) and f"Subject: {subject}".encode() in bytes(raw)
               for r, raw in rows)


def _unsent(db: str) -> int:
    return run_query(db, "SELECT count(*) FROM outbound_message WHERE status = 'queued'")[0][0]


def _seat_mails(db: str) -> Counter[str]:
    """How many seat mails (passwords of the league's new tables) each address got."""
    counted: Counter[str] = Counter()
    for (recipients,) in run_query(db, "SELECT recipients FROM outbound_message WHERE purpose = 'league'"):
        counted.update(json.loads(recipients) if isinstance(recipients, str) else recipients)
    return counted


def test_a_league_of_200_is_seated_in_steps_across_a_sigkill(tmp_path: Path) -> None:
    db = database_url(tmp_path)
    _league_of_200(db)

    async def scenario() -> None:
        with open(tmp_path / "servers.log", "wb") as servers_log:  # noqa: ASYNC230
            async with mail_servers(servers_log) as (imap_port, smtp_port):
                argv = [*PBEM, *serve_args(db, imap_port, smtp_port)]
                async with daemon(argv, tmp_path / "first.log") as first:
                    await send(smtp_port, GM, "LEAGUE START big\n", subject="start")
                    (answer,) = await mail_of(imap_port, GM, 1)
                    assert answer.subject == "Re: start"
                    assert (f"League big starting: {TABLES} tables are being seated; you will be told when every "
                            "table is seated") in answer.body, answer.body
                    await _until(lambda: _created(db) >= 8, "the first steps")
                    first.send_signal(signal.SIGKILL)
                    await first.wait()
                assert 0 < _created(db) < TABLES, "killed half-way"
                assert run_query(db, "SELECT status FROM inbound_message") == [("handled",)]  # within its budget
                logs = [tmp_path / "second.log", *([tmp_path / "third.log"] if on_postgresql() else [])]
                async with AsyncExitStack() as daemons:
                    for log in logs:  # on PostgreSQL two daemons share the work; SQLite serves one
                        await daemons.enter_async_context(daemon(argv, log))
                    await _until(lambda: _created(db) == TABLES, "every table")
                    await _until(lambda: _queued_to(db, GM, SEATED) > 0, "the GM's mail")
                    await _until(lambda: not _unsent(db), "every mail sent")
                    await asyncio.sleep(1.0)  # anything more would come now
                    told = [m for m in await read_mailbox(imap_port, GM) if m.subject == SEATED]
                    assert len(told) == 1, [m.subject for m in told]  # the GM is told once
                    seated = told[0]
                    assert "big-1-1: " in seated.body and f"big-1-{TABLES}: " in seated.body
                    await _until(lambda: sum(_seat_mails(db).values()) == len(MEMBERS), "every seat mail")
                    boxes = {address: await read_mailbox(imap_port, address) for address in (MEMBERS[0], MEMBERS[-1])}
                for address, box in boxes.items():
                    assert [m.subject for m in box].count("[big-1-1] Your seat" if address == MEMBERS[0]
                                                          else f"[big-1-{TABLES}] Your seat") == 1

    asyncio.run(scenario())
    games = run_query(db, "SELECT name FROM game ORDER BY id")
    assert sorted(name for (name,) in games) == sorted(f"big-1-{n}" for n in range(1, TABLES + 1))  # none twice
    seats = [address for (address,) in run_query(db, "SELECT address FROM seat")]
    assert sorted(seats) == sorted(MEMBERS)  # every member seated exactly once
    assert _seat_mails(db) == Counter(MEMBERS)
    assert run_query(db, "SELECT step_at, tell_round FROM league") == [(None, None)]
    assert run_query(db, "SELECT count(*) FROM audit_entry WHERE action = 'SEAT'") == [(1,)]
