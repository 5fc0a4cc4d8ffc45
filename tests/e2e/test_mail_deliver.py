"""``pbem deliver`` as the mail server runs it (``.forward``, procmail, Postfix ``pipe``): a subprocess
reading one mail on standard input, storing it for the running daemon, with the exit codes mail servers
understand (0 stored, 75 try again later, 65 no mail)."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from databases import database_url, on_postgresql
from databases import query as run_query
from mail_harness import GM_ADDRESS, running_service

from pbem.mail.answering.policy import DEFAULT_MAX_SIZE
from pbem.sandbox.mailclient import plain_mail
from pbem.store import open_database

PBEM = [sys.executable, "-m", "pbem.cli"]
PLAYER = "player@players.test"


def deliver(db: str, raw: bytes) -> subprocess.CompletedProcess[bytes]:
    """Run ``pbem deliver --db db`` with ``raw`` on its standard input."""
    return subprocess.run([*PBEM, "deliver", "--db", db], input=raw, capture_output=True, timeout=60, check=False)


def test_pbem_deliver_stores_the_mail_and_the_running_daemon_answers_it_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            player = service.person(PLAYER)
            raw = b"From player@players.test Sat Nov 28 05:00:00 2026\n" + plain_mail(
                PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            for _ in range(2):  # delivered again (the mail server lost the exit code): stored and answered once
                done = await asyncio.to_thread(deliver, service.db_url, raw)
                assert done.returncode == 0, done.stderr
            reply = await player.last()
            assert "pbem commands" in reply.body
            assert service.daemon.wake.nudges == 1  # the mail stored the first time woke it; the second not
            await service.settle(1.5)
            assert await player.inbox.all_mail() == [reply]
            assert run_query(service.db_url, "SELECT uid, status, sender FROM inbound_message") == [
                (None, "handled", PLAYER)]

    asyncio.run(scenario())


def test_pbem_deliver_stores_a_mail_over_the_size_limit_as_its_beginning_and_the_player_is_told(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            player = service.person(PLAYER)
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", ("HELP " * 20 + "\n") * (DEFAULT_MAX_SIZE // 50)).as_bytes()
            done = await asyncio.to_thread(deliver, service.db_url, raw)
            assert done.returncode == 0, done.stderr
            reply = await player.last()
            assert "over the limit" in reply.body
            [(size, kept)] = run_query(service.db_url, "SELECT size, length(raw) FROM inbound_message")
            assert size == len(raw) and kept < len(raw) // 10

    asyncio.run(scenario())


def test_pbem_deliver_exits_65_for_empty_input(tmp_path: Path) -> None:
    db = database_url(tmp_path)
    done = deliver(db, b"\n")
    assert done.returncode == 65 and b"no mail" in done.stderr


def test_pbem_deliver_exits_75_when_there_is_no_database_to_store_in(tmp_path: Path) -> None:
    raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
    missing = deliver(str(tmp_path / "nowhere.db"), raw)
    assert missing.returncode == 75 and b"no database at" in missing.stderr
    assert not (tmp_path / "nowhere.db").exists(), "it never creates a database"
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens there once the socket is closed
    unreachable = deliver(f"postgresql+psycopg://pbem@127.0.0.1:{port}/pbem", raw)
    assert unreachable.returncode == 75 and b"Traceback" not in unreachable.stderr


@pytest.mark.slow
def test_pbem_deliver_exits_75_while_the_database_is_locked_and_0_once_it_is_free(tmp_path: Path) -> None:
    if on_postgresql():
        pytest.skip("SQLite's write lock: PostgreSQL has no busy timeout, an INSERT waits for a table lock")
    db = database_url(tmp_path)
    open_database(db).close()
    raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
    blocker = sqlite3.connect(db, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # holds the write lock past deliver's busy timeout (10 s)
        locked = deliver(db, raw)
    finally:
        blocker.close()
    assert locked.returncode == 75 and b"locked" in locked.stderr
    assert run_query(db, "SELECT count(*) FROM inbound_message") == [(0,)]
    assert deliver(db, raw).returncode == 0
    assert run_query(db, "SELECT count(*) FROM inbound_message") == [(1,)]
