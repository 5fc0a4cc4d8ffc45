"""Every mail ends answered, with ``pbem serve`` as a process: a failing mail's tries survive a SIGKILL
between a failure and its retry, and a daemon whose installed package files are removed under it still
answers correctly (it loaded every grammar, template and font when it started).

The mail servers run in a process of their own (as in the crash test), so they and the mailboxes outlive
the game master; the daemon runs on the run's database engine."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosmtplib
import pbem
from databases import database_url
from databases import query as run_query
from test_crash import GM_ADDRESS, mail_servers, read_line, read_mailbox

from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.running.retries import MAX_TRIES
from pbem.sandbox.mailclient import ReceivedMail, plain_mail

BROKEN = "broken@players.test"
LAUNCHER = """\
import datetime, functools, sys
from pbem.mail.handling import handler
from pbem.mail.running import serve

handle = handler.MailHandler._handle

def faulty(self, unit, mail, inbound_id):  # the one fault injected: mail from BROKEN fails, after its work
    done = handle(self, unit, mail, inbound_id)
    if mail.sender == "{broken}":
        raise RuntimeError("injected fault")
    return done

handler.MailHandler._handle = faulty
serve.DaemonOptions = functools.partial(serve.DaemonOptions, retry_first=datetime.timedelta(seconds={pause}))
from pbem.cli import main
sys.exit(main(sys.argv[1:]))
"""
PAUSE = 0.5
"""Seconds after the first failed try before the second (then doubled)."""


@asynccontextmanager
async def daemon(argv: list[str], log: Path, *, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> AsyncIterator[asyncio.subprocess.Process]:
    """``pbem serve`` (``argv``) as a process, logging to ``log``; yielded once it serves; killed at the end
    when it still runs."""
    with open(log, "ab") as stderr:  # noqa: ASYNC230
        process = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.PIPE, stderr=stderr, cwd=cwd,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    try:
        while "pbem serves as" not in await read_line(process, "pbem serve"):
            pass
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def serve_args(db: str, imap_port: int, smtp_port: int) -> list[str]:
    return ["serve", "--db", db, "--imap", ImapUrl("127.0.0.1", imap_port, GM_ADDRESS, "pbem").to_url(),
            "--smtp", SmtpUrl("127.0.0.1", smtp_port).to_url(), "--address", GM_ADDRESS]


async def until_logged(log: Path, text: str, *, timeout: float = 30.0) -> None:
    """Wait until ``text`` is in the log file."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in log.read_text(errors="replace"):
        assert loop.time() < deadline, f"{text!r} not logged within {timeout} s:\n{log.read_text()}"
        await asyncio.sleep(0.02)


async def mail_of(imap_port: int, address: str, count: int, *, timeout: float = 30.0) -> list[ReceivedMail]:
    """Wait until ``address`` has ``count`` mails; return them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(box := await read_mailbox(imap_port, address)) < count:
        assert loop.time() < deadline, f"{address}: {len(box)} of {count} mails within {timeout} s"
        await asyncio.sleep(0.1)
    return box


async def send(smtp_port: int, sender: str, body: str, subject: str = "hello") -> None:
    await asyncio.wait_for(aiosmtplib.send(plain_mail(sender, GM_ADDRESS, subject, body), hostname="127.0.0.1",
                                           port=smtp_port), 10)


def test_a_failing_mail_keeps_its_tries_across_a_sigkill_then_is_given_up_and_answered_once(tmp_path: Path) -> None:
    db = database_url(tmp_path)
    launcher = tmp_path / "launch.py"
    launcher.write_text(LAUNCHER.format(broken=BROKEN, pause=PAUSE))
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"

    async def scenario() -> None:
        with open(tmp_path / "servers.log", "wb") as servers_log:  # noqa: ASYNC230
            async with mail_servers(servers_log) as (imap_port, smtp_port):
                argv = [sys.executable, str(launcher), *serve_args(db, imap_port, smtp_port)]
                async with daemon(argv, first_log) as first:
                    await send(smtp_port, BROKEN, "SET ZONE Europe/Berlin")
                    await until_logged(first_log, f"(try 1 of {MAX_TRIES}: RuntimeError: injected fault)")
                    first.send_signal(signal.SIGKILL)
                    await first.wait()
                ((attempts, status, next_try),) = run_query(
                    db, "SELECT attempts, status, next_attempt_at FROM inbound_message")
                assert status == "new" and next_try is not None and 1 <= attempts < MAX_TRIES
                async with daemon(argv, second_log):
                    (told,) = await mail_of(imap_port, BROKEN, 1)
                    assert told.subject == "Your mail could not be handled: hello"
                    assert "Nothing was stored" in told.body
                    await asyncio.sleep(1.0)
                    assert len(await read_mailbox(imap_port, BROKEN)) == 1
                assert run_query(db, "SELECT attempts, status FROM inbound_message") == [(MAX_TRIES, "failed")]
                assert run_query(db, "SELECT count(*) FROM address_preference") == [(0,)]

    asyncio.run(scenario())
    first, second = first_log.read_text(), second_log.read_text()
    tries = [f"try {n} of {MAX_TRIES}" for n in range(1, MAX_TRIES)]
    assert sum(second.count(t) for t in tries) + sum(first.count(t) for t in tries) == MAX_TRIES - 1
    assert tries[0] not in second  # the count went on from the row
    assert f"could not be handled after {MAX_TRIES} tries; given up (told)" in second
    assert second.count("Traceback") == 1


def test_a_daemon_answers_correctly_after_its_package_files_were_removed_under_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    package = site / "pbem"
    shutil.copytree(Path(pbem.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    db = database_url(tmp_path)
    log = tmp_path / "daemon.log"

    async def scenario() -> None:
        with open(tmp_path / "servers.log", "wb") as servers_log:  # noqa: ASYNC230
            async with mail_servers(servers_log) as (imap_port, smtp_port):
                argv = [sys.executable, "-m", "pbem.cli", *serve_args(db, imap_port, smtp_port)]
                async with daemon(argv, log, env={"PYTHONPATH": str(site)}, cwd=tmp_path):
                    await until_logged(log, "templates and the fonts")
                    removed = [*package.glob("grammars"), *package.glob("templates"), *package.glob("fonts"),
                               *package.glob("games/*/grammar.lark"), *package.glob("games/*/HELP.txt"),
                               *package.glob("games/*/templates")]
                    assert len(removed) > 40
                    for path in removed:
                        path.rename(path.with_name(path.name + ".gone"))
                    await send(smtp_port, "ann@players.test", "HELP")
                    await send(smtp_port, "bob@players.test", "HELP turkey-chase")
                    for seat in "abcd":  # the players write first: pbem then seats them without an invitation
                        await send(smtp_port, f"{seat}@players.test", "HELP")
                    for seat in "abcd":
                        await mail_of(imap_port, f"{seat}@players.test", 1)
                    seats = "".join(f"SEAT {seat} {seat.lower()}@players.test\n" for seat in "ABCD")
                    await send(smtp_port, "gm@players.test", f"CREATE turkey-chase tc-1 seed=7\n{seats}START\n")
                    (help_mail,) = await mail_of(imap_port, "ann@players.test", 1)
                    assert "pbem commands" in help_mail.body and "turkey-chase" in help_mail.body
                    (game_help,) = await mail_of(imap_port, "bob@players.test", 1)
                    assert game_help.body.startswith("TURKEY CHASE - orders")
                    report = next(mail for mail in await mail_of(imap_port, "a@players.test", 3)
                                  if mail.subject == "[tc-1] Turn 1")
                    assert "report for seat A" in report.body and "The cornfield at the start" in report.body
                    assert report.html is not None and b"image/png" in report.raw  # templates, drawing, fonts

    asyncio.run(scenario())
    text = log.read_text()
    assert "Traceback" not in text and "could not be handled" not in text
    # The files are gone for this copy: a process started now could not answer.
    fresh = subprocess.run([sys.executable, "-c", "from pbem.mail.commands.script import parse_script; parse_script('HELP')"],
                           env={**os.environ, "PYTHONPATH": str(site)}, cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, check=False)
    assert fresh.returncode != 0 and "commands.lark" in fresh.stderr
