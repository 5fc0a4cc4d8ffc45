"""Raw mail rates of the embedded servers, and a bare echo pipeline to compare pbem against.

Prints numbers only; everything runs in this process on 127.0.0.1. Usage:

    python bench/mail_raw.py [-n 200] [--paced 50] [--rate 10] [--pymap-idle-race]

Rows:
  IMAP APPEND        aioimaplib APPENDs, one at a time, into one mailbox
  IMAP FETCH x50     UID FETCH BODY.PEEK[] in chunks of 50 UIDs
  IMAP FETCH all     the same in one FETCH (aioimaplib is slow on huge responses)
  SMTP send          aiosmtplib, one connection, delivered into a mailbox
  echo bare          players send by SMTP; an IDLE client (raw aioimaplib) fetches each
                     mail, parses it with the stdlib email parser, replies by SMTP
  echo intake        the same with pbem.mail.intake.imap.MailIntake taking the mail
Echo rows run at full speed (n mails) and paced (--paced mails at --rate per second);
latency is from the player's send to the reply landing in the player's mailbox.
idle CPU rows: CPU used by an idle MailIntake per idle_recheck interval.

For a later end-to-end benchmark in the same process: `measure_echo(servers, responder,
...)` takes any `Responder` (``async (servers, address, stop) -> None`` that answers each
mail sent to `address` with a mail to its sender) and `format_rows` prints side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import email.policy
import math
import statistics
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import formatdate, make_msgid, parseaddr
from typing import Any

import aioimaplib
import aiosmtplib
from mail_world import Letter, MailWorld, send_letters

from pbem.mail.intake.imap import MailIntake, parse_fetch
from pbem.mail.outbound.config import ImapUrl
from pbem.sandbox.embedded import EmbeddedMailServers

GM = "gm@bench.test"
Servers = EmbeddedMailServers | MailWorld
Responder = Callable[[Servers, str, asyncio.Event], Coroutine[Any, Any, None]]
_PARSER = BytesParser()


@dataclass
class Row:
    """One measured line: `count` items in `seconds` wall time using `cpu` seconds of CPU."""

    name: str
    count: int
    seconds: float
    cpu: float
    latencies: list[float] = field(default_factory=list)
    note: str = ""
    world_cpu: float | None = None
    """CPU the mail world's process (servers and players) used meanwhile, when it had one of its own."""

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else math.inf

    def latency_ms(self, quantile: float) -> float:
        """The latency at `quantile` (0.5 = median) in ms, nearest-rank; NaN without latencies."""
        if not self.latencies:
            return math.nan
        ordered = sorted(self.latencies)
        if quantile == 0.5:
            return statistics.median(ordered) * 1000
        return ordered[max(0, math.ceil(quantile * len(ordered)) - 1)] * 1000


def format_rows(rows: Sequence[Row]) -> str:
    """A fixed-width table: rate, CPU ms per item, latency median and p99."""
    lines = [f"{'measure':<26}{'count':>6}{'per s':>10}{'cpu ms/item':>13}{'median ms':>11}{'p99 ms':>9}  note"]
    for row in rows:
        median, p99 = row.latency_ms(0.5), row.latency_ms(0.99)
        lat = f"{median:>11.1f}{p99:>9.1f}" if row.latencies else f"{'':>11}{'':>9}"
        cpu_per = row.cpu / row.count * 1000 if row.count else math.nan
        lines.append(f"{row.name:<26}{row.count:>6}{row.per_second:>10.1f}{cpu_per:>13.2f}{lat}  {row.note}")
    return "\n".join(lines)


def order_mail(sender: str, to: str, n: int) -> bytes:
    """A realistic small order mail (about 600 bytes)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"Orders for game bench, turn {n}"
    msg["Message-ID"] = make_msgid(domain="bench.test")
    msg.set_content("GAME bench\nTURN 7\nMOVE A1-A2\nMOVE B3-C4\nBUILD farm C4\nPASS\n")
    return msg.as_bytes(policy=email.policy.SMTP)


class _Clock:
    """Wall and CPU time of a block."""

    def __enter__(self) -> _Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


async def _imap(servers: Servers, address: str) -> aioimaplib.IMAP4:
    client = aioimaplib.IMAP4(servers.host, servers.imap_port, timeout=30)
    await client.wait_hello_from_server()
    await client.login(address, servers.password)
    await client.protocol.capability()
    await client.select("INBOX")
    return client


async def measure_imap(servers: EmbeddedMailServers, n: int) -> list[Row]:
    """APPEND n mails one by one, then FETCH them in chunks of 50 and all at once."""
    address = "append@bench.test"
    await servers.add_user(address)
    client = await _imap(servers, address)
    mails = [order_mail("p@bench.test", address, i) for i in range(n)]
    with _Clock() as append:
        for raw in mails:
            await client.append(raw, mailbox="INBOX")
    search = await client.uid_search("ALL", charset=None)
    uids = [int(t) for line in search.lines[:-1] for t in bytes(line).split() if t.isdigit()]
    with _Clock() as chunked:
        got = 0
        for i in range(0, len(uids), 50):
            part = uids[i : i + 50]
            response = await client.uid("fetch", f"{part[0]}:{part[-1]}", "(UID BODY.PEEK[])")
            got += len(parse_fetch(response.lines))
    with _Clock() as whole:
        response = await client.uid("fetch", "1:*", "(UID BODY.PEEK[])")
        got_all = len(parse_fetch(response.lines))
    await client.logout()
    return [
        Row("IMAP APPEND", n, append.wall, append.cpu),
        Row("IMAP FETCH x50", got, chunked.wall, chunked.cpu),
        Row("IMAP FETCH all", got_all, whole.wall, whole.cpu, note="one FETCH"),
    ]


async def measure_smtp(servers: EmbeddedMailServers, n: int) -> Row:
    """Send n mails over one aiosmtplib connection into one mailbox."""
    address = "sink@bench.test"
    smtp = aiosmtplib.SMTP(hostname=servers.host, port=servers.smtp_port, local_hostname="bench.test")
    await smtp.connect()
    mails = [order_mail("p@bench.test", address, i) for i in range(n)]
    with _Clock() as clock:
        for raw in mails:
            await smtp.sendmail("p@bench.test", [address], raw)
    await smtp.quit()
    return Row("SMTP send", n, clock.wall, clock.cpu)


def read_incoming(raw: bytes) -> tuple[Message, str]:
    """Parse a mail with the stdlib parser (compat32, its fastest): (the message, the address to answer)."""
    incoming = _PARSER.parsebytes(raw)
    return incoming, parseaddr(str(incoming.get("Reply-To") or incoming.get("From", "")))[1]


def minimal_reply(incoming: Message, own_address: str, recipient: str, body: str) -> bytes:
    """A minimal plain-text reply to ``incoming`` from ``own_address`` with ``body`` (lines ending CRLF)."""
    return (
        f"From: {own_address}\r\nTo: {recipient}\r\n"
        f"Subject: Re: {incoming.get('Subject', '')}\r\n"
        f"In-Reply-To: {incoming.get('Message-ID', '')}\r\n"
        f"Message-ID: {make_msgid(domain='bench.test')}\r\nDate: {formatdate()}\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        f"{body}"
    ).encode()


def reply_to(raw: bytes, own_address: str) -> tuple[str, bytes]:
    """Parse a mail and build a minimal reply: (recipient, raw reply)."""
    incoming, recipient = read_incoming(raw)
    return recipient, minimal_reply(incoming, own_address, recipient, "Orders received.\r\n")


async def bare_echo(servers: Servers, address: str, stop: asyncio.Event, *,
                    respond: Callable[[bytes, str], tuple[str, bytes]] = reply_to,
                    sent: Callable[[], None] | None = None) -> None:
    """The bare responder: raw aioimaplib IDLE loop, stdlib parsing, aiosmtplib replies. ``respond``
    makes each reply (recipient, raw reply) from the raw mail and this address; ``sent``, when given,
    is called once the server took each reply (bench/mail_floor.py uses both)."""
    imap = await _imap(servers, address)
    smtp = aiosmtplib.SMTP(hostname=servers.host, port=servers.smtp_port, local_hostname="bench.test")
    await smtp.connect()
    while not stop.is_set():
        found = await imap.uid_search("UNSEEN", charset=None)
        uids = [int(t) for line in found.lines[:-1] for t in bytes(line).split() if t.isdigit()]
        for i in range(0, len(uids), 50):
            part = ",".join(map(str, uids[i : i + 50]))
            response = await imap.uid("fetch", part, "(UID BODY.PEEK[])")
            for _, raw in parse_fetch(response.lines):
                recipient, reply = respond(raw, address)
                await smtp.sendmail(address, [recipient], reply)
                if sent is not None:
                    sent()
            await imap.uid("store", part, "+FLAGS.SILENT", "(\\Seen)")
        if uids:
            continue
        idle = await imap.idle_start(timeout=60)
        with contextlib.suppress(TimeoutError):
            await imap.wait_server_push(timeout=0.5)
        imap.idle_done()
        await asyncio.wait_for(idle, 5)
    await imap.logout()
    await smtp.quit()


def intake_echo(*, idle_recheck: float = 1.0) -> Responder:
    """A responder using MailIntake (IDLE) to take the mail and aiosmtplib to reply."""

    async def run(servers: Servers, address: str, stop: asyncio.Event) -> None:
        smtp = aiosmtplib.SMTP(hostname=servers.host, port=servers.smtp_port, local_hostname="bench.test")
        await smtp.connect()

        async def handler(uid: int, raw: bytes) -> None:
            recipient, reply = reply_to(raw, address)
            await smtp.sendmail(address, [recipient], reply)

        intake = MailIntake(ImapUrl.parse(servers.imap_url(address)), handler, idle_recheck=idle_recheck)
        await intake.run(stop)
        await smtp.quit()

    return run


async def measure_echo(servers: Servers, responder: Responder, name: str, n: int, *,
                       rate: float | None = None, timeout: float = 60.0,
                       address: str = GM,
                       make_letters: Callable[[str, list[str]], list[Letter]] | None = None) -> Row:
    """Send n mails from n distinct players to `address` (at `rate` per second, or as fast as
    one SMTP connection goes) while `responder` runs; time each player's first reply.
    ``make_letters(address, players)``, when given, writes the mails (else :func:`order_mail`).
    A row with fewer than n latencies means replies were missing after `timeout` seconds.
    The row's CPU is this process's (see :func:`mail_world.send_letters`)."""
    await servers.add_user(address)
    tag = f"{name.replace(' ', '-')}-{time.monotonic_ns()}"
    players = [f"p{i}.{tag}@bench.test" for i in range(n)]
    stop = asyncio.Event()
    task = asyncio.create_task(responder(servers, address, stop))
    await asyncio.sleep(0.2)  # let the responder log in and settle
    letters = (make_letters(address, players) if make_letters is not None
               else [Letter(player, address, order_mail(player, address, i)) for i, player in enumerate(players)])
    try:
        timing = await send_letters(servers, letters, rate=rate, timeout=timeout)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
    note = "" if len(timing.latencies) == n else f"only {len(timing.latencies)}/{n} replies"
    if rate is not None:
        note = f"paced {rate:g}/s {note}".strip()
    return Row(name, len(timing.latencies), timing.seconds, timing.cpu, timing.latencies, note, timing.world_cpu)


async def measure_idle_cost(servers: EmbeddedMailServers, idle_recheck: float, seconds: float) -> Row:
    """CPU used by a MailIntake with no mail for `seconds`; count = IDLE rechecks made."""
    address = f"idle{idle_recheck:g}@bench.test"
    await servers.add_user(address)

    async def ignore(uid: int, raw: bytes) -> None:
        return None

    intake = MailIntake(ImapUrl.parse(servers.imap_url(address)), ignore, idle_recheck=idle_recheck)
    stop = asyncio.Event()
    task = asyncio.create_task(intake.run(stop))
    await asyncio.sleep(0.2)
    searches = intake.stats.searches
    with _Clock() as clock:
        await asyncio.sleep(seconds)
    rechecks = intake.stats.searches - searches
    stop.set()
    await asyncio.wait_for(task, 5)
    return Row(f"idle CPU, recheck {idle_recheck:g}s", rechecks, clock.wall, clock.cpu,
               note=f"{clock.cpu / clock.wall * 100:.2f}% of a core")


async def run_all(n: int, paced: int, rate: float, *, fix_idle_race: bool = True) -> list[Row]:
    """Every measurement of this module on fresh embedded servers."""
    rows: list[Row] = []
    async with EmbeddedMailServers(fix_idle_race=fix_idle_race) as servers:
        rows += await measure_imap(servers, n)
        rows.append(await measure_smtp(servers, n))
        for name, responder in (("echo bare", bare_echo), ("echo intake", intake_echo())):
            rows.append(await measure_echo(servers, responder, name, n, address=f"{name[5:]}-full@bench.test"))
            rows.append(await measure_echo(servers, responder, name, paced, rate=rate,
                                           address=f"{name[5:]}-paced@bench.test"))
        for recheck in (0.5, 1.0):
            rows.append(await measure_idle_cost(servers, recheck, 3.0))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=200, help="mails per full-speed measurement")
    parser.add_argument("--paced", type=int, default=50, help="mails in the paced echo runs")
    parser.add_argument("--rate", type=float, default=10.0, help="mails per second when paced")
    parser.add_argument("--pymap-idle-race", action="store_true",
                        help="run pymap without the embedded fix for its lost IDLE wake-ups")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = asyncio.run(run_all(args.n, args.paced, args.rate, fix_idle_race=not args.pymap_idle_race))
    print(format_rows(rows))
    print(f"(total {time.perf_counter() - started:.1f}s; pymap IDLE race fix "
          f"{'off' if args.pymap_idle_race else 'on'})")


if __name__ == "__main__":
    main()
