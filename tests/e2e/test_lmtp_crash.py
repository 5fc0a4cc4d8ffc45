"""``pbem serve --lmtp`` as a process: killed with SIGKILL right after it answered 250 for a mail, started
again, it answers every such mail once (what it said 250 to was committed); it reads no mailbox without
--imap; --lmtp without --smtp is refused."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from databases import database_url
from databases import query as run_query
from ports import free_port
from test_crash import GM_ADDRESS, STARTUP_TIMEOUT, mail_servers, read_line, read_mailboxes

from pbem.mail.outbound.config import SmtpUrl
from pbem.mail.outbound.queue import SHARED_LEASE
from pbem.sandbox.lmtpclient import hand_over
from pbem.sandbox.mailclient import plain_mail

PBEM = [sys.executable, "-m", "pbem.cli"]
ROUNDS = 3



async def start_serving(db: str, lmtp_port: int, smtp_port: int, log: Path) -> asyncio.subprocess.Process:
    """Start ``pbem serve --lmtp`` and return once it said it serves (it listens by then)."""
    with open(log, "ab") as stderr:  # noqa: ASYNC230
        process = await asyncio.create_subprocess_exec(
            *PBEM, "serve", "--db", db, "--lmtp", f"127.0.0.1:{lmtp_port}", "--smtp",
            SmtpUrl("127.0.0.1", smtp_port).to_url(), "--address", GM_ADDRESS,
            stdout=asyncio.subprocess.PIPE, stderr=stderr)
    while "pbem serves as" not in await read_line(process, "pbem serve"):
        pass
    intake = await read_line(process, "pbem serve")
    assert intake.startswith(f"Taking LMTP deliveries at 127.0.0.1:{lmtp_port}, sending through"), intake
    return process


@pytest.mark.slow
def test_a_daemon_killed_right_after_its_250_answers_the_mail_once_when_started_again(tmp_path: Path) -> None:
    async def scenario() -> None:
        with open(tmp_path / "servers.log", "wb") as log:  # noqa: ASYNC230
            async with mail_servers(log) as (imap_port, smtp_port):
                db, lmtp_port = database_url(tmp_path), free_port()
                players = [f"p{n}@players.test" for n in range(ROUNDS)]
                for player in players:
                    daemon = await start_serving(db, lmtp_port, smtp_port, tmp_path / "daemon.log")
                    raw = plain_mail(player, GM_ADDRESS, "help", "HELP\n").as_bytes()
                    handover = await hand_over(raw, [GM_ADDRESS], port=lmtp_port)
                    daemon.send_signal(signal.SIGKILL)
                    await asyncio.wait_for(daemon.wait(), STARTUP_TIMEOUT)
                    assert handover.data == ["250 2.0.0 stored"]
                daemon = await start_serving(db, lmtp_port, smtp_port, tmp_path / "daemon.log")
                try:
                    loop = asyncio.get_running_loop()
                    # On PostgreSQL a reply the killed daemon had claimed waits for the end of its lease.
                    deadline = loop.time() + SHARED_LEASE.total_seconds() + 30
                    while not all((boxes := await read_mailboxes(imap_port, players)).values()):
                        assert loop.time() < deadline, f"unanswered: {[p for p, box in boxes.items() if not box]}"
                        await asyncio.sleep(0.2)
                    await asyncio.sleep(1.0)  # nothing more comes
                    boxes = await read_mailboxes(imap_port, players)
                    assert {player: len(box) for player, box in boxes.items()} == dict.fromkeys(players, 1)
                    assert all("pbem commands" in box[0].body for box in boxes.values())
                    assert run_query(db, "SELECT count(*) FROM inbound_message WHERE status = 'handled'") == [
                        (ROUNDS,)]
                finally:
                    daemon.terminate()
                    assert await asyncio.wait_for(daemon.wait(), STARTUP_TIMEOUT) == 0

    asyncio.run(scenario())


def test_serve_refuses_lmtp_without_smtp_saying_why(tmp_path: Path) -> None:
    done = subprocess.run([*PBEM, "serve", "--db", str(tmp_path / "pbem.db"), "--lmtp", "127.0.0.1:2424"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "give --smtp with --lmtp" in done.stderr
    bad = subprocess.run([*PBEM, "serve", "--db", str(tmp_path / "pbem.db"), "--lmtp", "localhost",
                          "--smtp", "smtp://127.0.0.1:25"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "give HOST:PORT" in bad.stderr
