"""Take-over: several ``pbem serve`` processes on one PostgreSQL database, and the one holding claims on
queued replies is SIGKILLed in the middle of a burst of mail; how long until the others sent what it held.

Shared by tests/e2e/test_serve_processes.py (which checks every mail is answered once) and
bench/bench_scale.py ``--takeover`` (which prints the delay). The daemons send through a slow link
(tests/support/slow_link.py) so that each one holds its claims for a while, as over a real server; the
players send straight to the mail server.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosmtplib
from slow_link import slow_link
from test_crash import GM_ADDRESS, Daemon, mail_servers, query, read_mailboxes

from pbem.sandbox.mailclient import ReceivedMail, plain_mail

LINK_DELAY = 0.05
"""Seconds the link holds back each piece a daemon sends its SMTP server (a mail is a few pieces)."""
POLL = 0.01
"""How often the scenario looks at the claims, in seconds."""


@dataclass(frozen=True)
class Takeover:
    """What a take-over run saw."""

    victim: int
    """The process id of the daemon that was killed."""
    orphaned: int
    """Replies the killed daemon had claimed and not sent when it died."""
    delay: float
    """Seconds from the kill until the last of those was sent by another daemon."""
    senders: list[str]
    boxes: dict[str, list[ReceivedMail]]
    """Each sender's mailbox at the end."""


def _claims(db_url: str) -> dict[int, list[int]]:
    """Queued mail under a lease, by the process id of its holder (``lease_owner`` is host/pid/random)."""
    held: dict[int, list[int]] = {}
    for mail_id, owner in query(db_url, "SELECT id, lease_owner FROM outbound_message "
                                        "WHERE status = 'queued' AND lease_owner IS NOT NULL"):
        held.setdefault(int(str(owner).split("/")[1]), []).append(int(str(mail_id)))
    return held


async def _kill_a_holder(db_url: str, daemons: Sequence[Daemon], timeout: float) -> tuple[Daemon, list[int],
                                                                                          datetime]:
    """SIGKILL the daemon holding the most claims as soon as one holds some; return it, the mails it still held
    once dead, and when it died. A daemon that sent all it held while being killed is started again and the
    look goes on."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        by_pid = {daemon.process.pid: daemon for daemon in daemons if daemon.process is not None}
        held = {pid: ids for pid, ids in _claims(db_url).items() if pid in by_pid}
        if held:
            pid = max(held, key=lambda p: len(held[p]))
            victim = by_pid[pid]
            assert victim.process is not None
            victim.process.send_signal(signal.SIGKILL)
            killed_at = datetime.now(UTC)
            assert await asyncio.wait_for(victim.process.wait(), 10) == -signal.SIGKILL
            orphaned = _claims(db_url).get(pid, [])
            if orphaned:
                return victim, orphaned, killed_at
            await victim.start()
        await asyncio.sleep(POLL)
    raise AssertionError(f"no daemon held a claim on queued mail within {timeout} s")


async def _sent_delay(db_url: str, ids: list[int], killed_at: datetime, timeout: float) -> float:
    """Wait until every mail of ``ids`` is sent; return the seconds from ``killed_at`` to the last sending."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    wanted = ",".join(str(mail_id) for mail_id in ids)
    while True:
        rows = query(db_url, f"SELECT status, sent_at FROM outbound_message WHERE id IN ({wanted})")
        if all(status == "sent" for status, _ in rows):
            last = max(sent_at for _, sent_at in rows)
            assert isinstance(last, datetime)
            return (last - killed_at).total_seconds()
        if loop.time() > deadline:
            raise AssertionError(f"the killed daemon's claimed mail was not sent within {timeout} s: {rows}")
        await asyncio.sleep(POLL)


async def _all_answered(db_url: str, mails: int, timeout: float) -> None:
    """Wait until every mail is handled and every reply sent."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    sql = """SELECT (SELECT count(*) FROM inbound_message WHERE status != 'new'),
                    (SELECT count(*) FROM outbound_message WHERE status = 'sent')"""
    while (done := tuple(int(str(v)) for v in query(db_url, sql)[0])) != (mails, mails):
        if loop.time() > deadline:
            raise AssertionError(f"handled and sent after {timeout} s: {done}, not {mails} each")
        await asyncio.sleep(0.1)


async def takeover_run(workdir: Path, db_url: str, *, daemons: int = 3, mails: int = 40,
                       timeout: float = 60.0) -> Takeover:
    """Start ``daemons`` daemons on ``db_url`` (a fresh PostgreSQL database), send ``mails`` HELP mails from as
    many senders at once, SIGKILL the daemon holding claims on replies meanwhile, and wait until every mail
    is answered; the others stop with SIGTERM."""
    senders = [f"asker{n}@players.test" for n in range(mails)]
    with contextlib.ExitStack() as files:
        server_log = files.enter_context(open(workdir / "servers.log", "wb"))  # noqa: ASYNC230
        logs = [files.enter_context(open(workdir / f"daemon{n}.log", "wb")) for n in range(daemons)]  # noqa: ASYNC230
        async with mail_servers(server_log) as (imap_port, smtp_port), slow_link(smtp_port, LINK_DELAY) as link:
            running = [Daemon(db_url, imap_port, link, log) for log in logs]
            try:
                for daemon in running:
                    await daemon.start()
                for sender in senders:
                    await aiosmtplib.send(plain_mail(sender, GM_ADDRESS, "help", "HELP\n"), hostname="127.0.0.1",
                                          port=smtp_port)
                victim, orphaned, killed_at = await _kill_a_holder(db_url, running, timeout)
                assert victim.process is not None
                victim_pid = victim.process.pid
                delay = await _sent_delay(db_url, orphaned, killed_at, timeout)
                await _all_answered(db_url, mails, timeout)
                for daemon in running:
                    if daemon is not victim:
                        assert await daemon.stop() == 0
            finally:
                for daemon in running:
                    if daemon.process is not None and daemon.process.returncode is None:
                        await daemon.kill()
            boxes = await read_mailboxes(imap_port, senders)
    return Takeover(victim_pid, len(orphaned), delay, senders, boxes)
