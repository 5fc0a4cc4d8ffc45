"""A mail's time from the mail server's hand-off to pbem's reply leaving: over LMTP, over IMAP, and through
``pbem deliver``, side by side.

Prints numbers only; everything runs on 127.0.0.1. Usage:

    python bench/bench_delivery.py [-n 40] [--pipe 10] [--timeout 120]

The same mails (HELP from a distinct player each, so each gets one reply, the
command list) go to a fresh daemon (:class:`pbem.mail.running.daemon.MailDaemon`,
default options, a fresh SQLite file) per way, one mail at a time (the next
once the reply left), over embedded servers in this process:

* lmtp: the daemon takes mail only over LMTP; the hand-off is the mail
  server opening its LMTP connection (LHLO, MAIL, RCPT, DATA);
* imap: the daemon reads its mailbox on the embedded IMAP server (IDLE, with
  the default recheck of 1 s); the hand-off is the mail server putting the
  mail into the mailbox;
* pipe: ``pbem deliver`` started as a mail server starts it (``pipe``,
  ``.forward``) with the mail on its standard input, next to a running daemon
  that takes mail only over LMTP; ``deliver`` nudges the daemon once the
  mail is stored (pbem/mail/intake/wake.py).

A reply leaves when the embedded SMTP server has it. Each way prints the
median, 90th and 99th percentile and the longest time, in milliseconds, and
the load average of the machine. The run is bounded: ``-n`` mails per way
(``--pipe`` through ``pbem deliver``), each waiting at most ``--timeout``
seconds in all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from pbem.mail.intake.lmtp import LmtpAddress
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.running.daemon import MailDaemon
from pbem.sandbox.embedded import EmbeddedMailServers
from pbem.sandbox.lmtpclient import hand_over
from pbem.sandbox.mailclient import plain_mail
from pbem.store import open_database

GM_ADDRESS = "gm@pbem.bench"
WARM_UP = 3
"""Unmeasured mails first on each way (the first mails build caches and statements)."""

HandOff = Callable[[bytes], Awaitable[None]]


class ReplyWatch:
    """Learns from the embedded SMTP server when the reply to each player left pbem."""

    def __init__(self, servers: EmbeddedMailServers) -> None:
        self._waiting: dict[str, asyncio.Future[float]] = {}
        servers.on_deliver.append(self._delivered)

    def expect(self, player: str) -> asyncio.Future[float]:
        """A future that gets the ``time.perf_counter()`` at which a mail for ``player`` arrived."""
        future = asyncio.get_running_loop().create_future()
        self._waiting[player] = future
        return future

    def _delivered(self, address: str, _raw: bytes) -> None:
        future = self._waiting.pop(address, None)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())


@contextlib.asynccontextmanager
async def daemon_on(servers: EmbeddedMailServers, db_path: Path, *, imap: bool) -> AsyncIterator[MailDaemon]:
    """A daemon with default options on a fresh SQLite file: reading the mailbox (``imap``), or taking mail
    only over LMTP."""
    db = open_database(str(db_path))
    daemon = MailDaemon(db, imap=ImapUrl.parse(servers.imap_url(GM_ADDRESS)) if imap else None,
                        smtp=SmtpUrl.parse(servers.smtp_url()), address=GM_ADDRESS,
                        lmtp=None if imap else LmtpAddress("127.0.0.1", 0))
    if daemon.lmtp is not None:
        await daemon.lmtp.start()
    stop = asyncio.Event()
    task = asyncio.create_task(daemon.run(stop))
    try:
        yield daemon
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
        db.close()


async def measure(way: str, hand_off: HandOff, watch: ReplyWatch, count: int, timeout: float) -> list[float]:
    """Milliseconds from each hand-off to its reply leaving, one mail at a time."""
    times = []
    for n in range(WARM_UP + count):
        player = f"{way}{n}@players.bench"
        raw = plain_mail(player, GM_ADDRESS, "help", "HELP\n").as_bytes()
        replied = watch.expect(player)
        started = time.perf_counter()
        await hand_off(raw)
        left = await asyncio.wait_for(replied, timeout)
        if n >= WARM_UP:
            times.append((left - started) * 1000)
    return times


def row(way: str, times: list[float]) -> str:
    """One line of the table."""
    ordered = sorted(times)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]

    return (f"{way:<6}{len(times):>6}{statistics.median(ordered):>10.1f}{at(0.9):>10.1f}{at(0.99):>10.1f}"
            f"{ordered[-1]:>10.1f}")


async def run(args: argparse.Namespace, workdir: Path) -> list[str]:
    rows = [f"{'way':<6}{'mails':>6}{'median':>10}{'p90':>10}{'p99':>10}{'max':>10}   (ms, hand-off to reply leaving)"]
    async with EmbeddedMailServers() as servers:
        await servers.add_user(GM_ADDRESS)
        watch = ReplyWatch(servers)

        async with daemon_on(servers, workdir / "lmtp.db", imap=False) as daemon:
            assert daemon.lmtp is not None
            port = daemon.lmtp.address.port

            async def by_lmtp(raw: bytes) -> None:
                assert (await hand_over(raw, [GM_ADDRESS], port=port)).data[0].startswith("250")

            rows.append(row("lmtp", await measure("lmtp", by_lmtp, watch, args.n, args.timeout)))

        async with daemon_on(servers, workdir / "imap.db", imap=True):

            async def into_mailbox(raw: bytes) -> None:
                await servers.deliver(GM_ADDRESS, raw)

            rows.append(row("imap", await measure("imap", into_mailbox, watch, args.n, args.timeout)))

        if args.pipe:
            async with daemon_on(servers, workdir / "pipe.db", imap=False):

                async def by_pipe(raw: bytes) -> None:
                    process = await asyncio.create_subprocess_exec(
                        sys.executable, "-m", "pbem.cli", "deliver", "--db", str(workdir / "pipe.db"),
                        stdin=asyncio.subprocess.PIPE)
                    await process.communicate(raw)
                    assert process.returncode == 0

                rows.append(row("pipe", await measure("pipe", by_pipe, watch, args.pipe, args.timeout)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=40, help="mails per way (default 40)")
    parser.add_argument("--pipe", type=int, default=10, help="mails through pbem deliver (default 10; 0: none)")
    parser.add_argument("--timeout", type=float, default=120.0, help="longest wait for one reply, in seconds")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-delivery-") as workdir:
        rows = asyncio.run(run(args, Path(workdir)))
    print("\n".join(rows))
    print(f"(load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}; "
          f"total {time.perf_counter() - started:.1f}s)")


if __name__ == "__main__":
    main()
