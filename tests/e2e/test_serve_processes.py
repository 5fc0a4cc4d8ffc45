"""``pbem serve`` as processes: one daemon on a SQLite file (a second one is refused at start, saying
why), several on one PostgreSQL database (one of them fetches, every one answers), and each stops
at once on SIGTERM; when one of several is killed, the replies it had claimed go out from the others
within seconds; and the mailboxes of its embedded mail servers keep their mail when it is started again."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import aioimaplib
import aiosmtplib
import pytest
from databases import database_url, on_postgresql
from ports import free_port
from test_crash import GM_ADDRESS, mail_servers, query

from pbem.mail.intake.imap import parse_fetch
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.running.serve import DEFAULT_ADDRESS, mailboxes_dir
from pbem.sandbox.mailclient import plain_mail, read_mail

PBEM = [sys.executable, "-m", "pbem.cli"]
STOPPED_WITHIN = 5.0
"""Seconds a daemon may take to end after SIGTERM (each loop gets 2 s, then is cancelled)."""
TAKEOVER_WITHIN = 15.0
"""Seconds the others may take to send a killed daemon's claimed replies: its lease is 3 s, and bench/bench_scale.py
--takeover measures the delay (generous here, for loaded machines)."""


def serve(db: str, imap_port: int, smtp_port: int, log: Path) -> subprocess.Popen[bytes]:
    imap = ImapUrl("127.0.0.1", imap_port, GM_ADDRESS, "pbem").to_url()
    argv = [*PBEM, "serve", "--db", db, "--imap", imap, "--smtp", SmtpUrl("127.0.0.1", smtp_port).to_url(),
            "--address", GM_ADDRESS]
    with open(log, "ab") as stderr:
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr)


def wait_serving(process: subprocess.Popen[bytes]) -> None:
    assert process.stdout is not None
    while b"pbem serves as" not in (line := process.stdout.readline()):
        assert line, f"pbem serve ended at start with {process.wait()}"


def stop(process: subprocess.Popen[bytes]) -> float:
    """SIGTERM the daemon; return how long it took to end (it must end with 0)."""
    started = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    return time.perf_counter() - started


def test_a_second_daemon_on_a_sqlite_file_is_refused_and_the_first_stops_at_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        with open(tmp_path / "servers.log", "wb") as log:  # noqa: ASYNC230
            async with mail_servers(log) as (imap_port, smtp_port):
                db = str(tmp_path / "pbem.db")
                first = serve(db, imap_port, smtp_port, tmp_path / "first.log")
                try:
                    wait_serving(first)
                    second = subprocess.run([*PBEM, "serve", "--db", db, "--imap",
                                             ImapUrl("127.0.0.1", imap_port, GM_ADDRESS, "pbem").to_url(), "--smtp",
                                             SmtpUrl("127.0.0.1", smtp_port).to_url(), "--address", GM_ADDRESS],
                                            capture_output=True, text=True, timeout=60, check=False)
                    assert second.returncode == 2
                    assert "another pbem serve is running on" in second.stderr and "PostgreSQL" in second.stderr
                    assert "Traceback" not in second.stderr and "pbem serves as" not in second.stdout
                    assert first.poll() is None, "the first daemon goes on"
                    assert stop(first) < STOPPED_WITHIN
                finally:
                    if first.poll() is None:
                        first.kill()
                        first.wait()
                # Once it stopped, a daemon may start on the file again.
                again = serve(db, imap_port, smtp_port, tmp_path / "again.log")
                try:
                    wait_serving(again)
                    assert stop(again) < STOPPED_WITHIN
                finally:
                    if again.poll() is None:
                        again.kill()
                        again.wait()

    asyncio.run(scenario())


def test_daemons_sharing_a_postgresql_database_answer_every_mail_once(tmp_path: Path) -> None:
    if not on_postgresql():
        pytest.skip("several daemons share a PostgreSQL database: run with --db-engine postgresql")

    async def scenario() -> None:
        import aiosmtplib
        from test_crash import read_mailboxes

        with open(tmp_path / "servers.log", "wb") as log:  # noqa: ASYNC230
            async with mail_servers(log) as (imap_port, smtp_port):
                db = database_url(tmp_path)
                daemons = [serve(db, imap_port, smtp_port, tmp_path / f"daemon{n}.log") for n in range(3)]
                try:
                    for daemon in daemons:
                        wait_serving(daemon)
                    senders = [f"p{n}@players.test" for n in range(30)]
                    for sender in senders:
                        await aiosmtplib.send(plain_mail(sender, GM_ADDRESS, "help", "HELP\n"), hostname="127.0.0.1",
                                              port=smtp_port)
                    loop = asyncio.get_running_loop()
                    deadline = loop.time() + 60
                    while True:
                        boxes = await read_mailboxes(imap_port, senders)
                        if all(boxes.values()) or loop.time() > deadline:
                            break
                        await asyncio.sleep(0.5)
                    await asyncio.sleep(1.0)  # nothing more comes
                    boxes = await read_mailboxes(imap_port, senders)
                    assert {sender: len(box) for sender, box in boxes.items()} == dict.fromkeys(senders, 1)
                    assert all("pbem commands" in box[0].body for box in boxes.values())
                    # Read before stopping: once the fetching daemon stops, another one takes over.
                    fetchers = [n for n in range(3) if b"this daemon fetches the mail now" in
                                (tmp_path / f"daemon{n}.log").read_bytes()]
                    assert len(fetchers) == 1, "one daemon fetches at a time"
                    for daemon in daemons:
                        assert stop(daemon) < STOPPED_WITHIN
                finally:
                    for daemon in daemons:
                        if daemon.poll() is None:
                            daemon.kill()
                            daemon.wait()

    asyncio.run(scenario())


def test_a_killed_daemons_claimed_replies_go_out_from_the_others_within_seconds_and_once(tmp_path: Path) -> None:
    if not on_postgresql():
        pytest.skip("several daemons share a PostgreSQL database: run with --db-engine postgresql")
    from takeover import takeover_run
    from test_crash import SMTP_CONNECTIONS

    db = database_url(tmp_path)
    run = asyncio.run(takeover_run(tmp_path, db, daemons=3, mails=40))
    print(f"\nthe killed daemon held {run.orphaned} replies; the others sent the last of them "
          f"{run.delay:.2f} s after the kill")
    assert run.orphaned > 0
    assert run.delay < TAKEOVER_WITHIN, f"take-over took {run.delay:.1f} s"
    # Every mail handled once and answered once (the kill may repeat a mail that was under way: same copy).
    assert sorted(status for (status,) in query(db, "SELECT status FROM inbound_message")) == ["handled"] * 40
    replies = query(db, "SELECT inbound_id FROM outbound_message WHERE purpose = 'reply' AND status = 'sent'")
    assert len(replies) == 40 and len(set(replies)) == 40
    repeated = 0
    for sender in run.senders:
        box = run.boxes[sender]
        assert len({mail.message_id for mail in box}) == 1, f"{sender}: {[mail.subject for mail in box]}"
        assert "pbem commands" in box[0].body
        repeated += len(box) - 1
    print(f"replies delivered again (same Message-ID, under way at the kill): {repeated}")
    assert repeated <= SMTP_CONNECTIONS


PLAYER = "player@example.org"
INBOX_TIMEOUT = 60.0
"""Longest the daemon may take to answer a mail, in seconds (generous, for loaded machines)."""


def serve_embedded(db: str, cwd: Path, imap_port: int, smtp_port: int, log: Path) -> subprocess.Popen[bytes]:
    """``pbem serve`` with its own (embedded) mail servers on the given ports, run in ``cwd``."""
    argv = [*PBEM, "serve", "--db", db, "--imap-port", str(imap_port), "--smtp-port", str(smtp_port)]
    with open(log, "ab") as stderr:
        return subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=stderr)


async def inbox(imap_port: int, address: str) -> list[bytes]:
    """Every mail in ``address``'s INBOX on the embedded IMAP server, read by IMAP."""
    client = aioimaplib.IMAP4("127.0.0.1", imap_port, timeout=10)
    await client.wait_hello_from_server()
    assert (await client.login(address, "pbem")).result == "OK"
    await client.select("INBOX")
    fetched = await client.uid("fetch", "1:*", "(UID BODY.PEEK[])")
    await client.logout()
    return [raw for _, raw in parse_fetch(fetched.lines)]


async def first_mail(imap_port: int, address: str) -> bytes:
    """The first mail to come into ``address``'s INBOX (bounded wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + INBOX_TIMEOUT
    while not (mails := await inbox(imap_port, address)):
        assert loop.time() < deadline, f"no mail came to {address}"
        await asyncio.sleep(0.2)
    return mails[0]


@pytest.mark.slow
def test_the_embedded_mailboxes_keep_their_mail_when_pbem_serve_starts_again(tmp_path: Path) -> None:
    db, imap_port, smtp_port = database_url(tmp_path), free_port(), free_port()
    first = serve_embedded(db, tmp_path, imap_port, smtp_port, tmp_path / "first.log")
    try:
        wait_serving(first)
        asyncio.run(aiosmtplib.send(plain_mail(PLAYER, DEFAULT_ADDRESS, "help", "HELP\n"), hostname="127.0.0.1",
                                    port=smtp_port))
        answer = asyncio.run(first_mail(imap_port, PLAYER))
        assert read_mail(answer).subject == "Re: help"
        stop(first)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert (tmp_path / mailboxes_dir(db)).is_dir()  # beside the database (in the working directory for a URL)
    again = serve_embedded(db, tmp_path, imap_port, smtp_port, tmp_path / "again.log")
    try:
        wait_serving(again)
        assert asyncio.run(inbox(imap_port, PLAYER)) == [answer]  # readable by IMAP after the restart
        stop(again)
    finally:
        if again.poll() is None:
            again.kill()
            again.wait()
