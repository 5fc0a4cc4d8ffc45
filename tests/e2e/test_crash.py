"""Crash test: ``pbem serve`` is killed with SIGKILL at random moments while 200 order mails arrive;
once with one daemon (on the run's database engine), and once with three daemons sharing one
PostgreSQL database and one mailbox, any of which is killed and started again.

The mail servers run in a process of their own (``python -m
pbem.sandbox.mailboxes``), so they and the mailboxes outlive the game
master. Eight Turkey Chase games (4 seats each, no deadline, resolved as soon
as every seat has orders in) are set up directly in the database. Seats A-C
of every game send eight mails each with legal orders (each one replaces the
last) as plain replies to their signed reply address; seat D then sends one
mail with SIGNON and its password, which completes the game's orders and
resolves turn 1. While the mails arrive over SMTP, a daemon is killed KILLS
times and started again. The kills come at random points of the work (mails
handled plus mails sent, 432 in all), plus a random fraction of a second, and
each only after the daemons did some work since the last kill: so every kill
interrupts working daemons, early or late, while they take mail in, handle
it, resolve a turn or send. Then they run until everything is done; every
game then replays (``pbem replay``) to the stored state.

What must hold afterwards:

* every mail was taken once and handled once (inbound table);
* every accepted order was stored once: one submission per mail, and a seat's
  n-th mail is its version n (a mail handled twice would skip a version);
* every game resolved turn 1 exactly once;
* every reply and report was queued once (outbound table) and reached its
  addressee: one distinct reply per order mail (In-Reply-To = that mail)
  saying it stored the orders, and one turn-2 report per seat.

Sending is at least once, not exactly once: a kill after the SMTP server
accepted a mail and before the outbox marked it sent makes the restarted
daemon (or, once the dead one's lease ended, within seconds, another one) send it again,
with the same Message-ID (the outbox stores the whole message). The test
allows such repeated copies, at most one per kill and SMTP connection (over
each of its connections the sender sends one mail at a time), and checks
that a copy is the same message.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import IO

import aioimaplib
import aiosmtplib
import pytest
from databases import database_url, on_postgresql
from databases import query as run_query

from pbem.core import GameRng
from pbem.mail.intake.imap import parse_fetch
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.running.daemon import SECRET_KEY, DaemonOptions, setting
from pbem.passwords import hash_password, new_password
from pbem.sandbox.mailclient import ReceivedMail, plain_mail, read_mail
from pbem.service.api import GameService
from pbem.service.snapshot import GameInfo
from pbem.store import open_database

SEED = 20_251_122
GAMES = 8
MAILS_PER_SEAT = 8
"""Mails from each of seats A-C of a game; seat D sends one."""
KILLS = 5
SHARED_DAEMONS = 3
SHARED_KILLS = 8
SMTP_CONNECTIONS = DaemonOptions().smtp_connections
"""The connections ``pbem serve`` sends over by default, each with one mail under way at most."""
"""Daemons on one PostgreSQL database, and how many times one of them is killed."""
GM_ADDRESS = "gm@pbem.test"
SIGNON_SEAT = "D"
"""The seat of each game that signs on with its password, last; the others reply to their token address."""
SECRET = bytes(range(32))

STARTUP_TIMEOUT = 20.0
"""Longest a process may take to say it is ready, in seconds."""
WORK_TIMEOUT = 60.0
"""Longest the daemons may take to do the work after which one is killed, in seconds (mail a killed daemon
had claimed for sending waits for its lease to end, 3 s on PostgreSQL, when another daemon sends it)."""
FINISH_TIMEOUT = 120.0
"""Longest the daemons may take to do the rest, in seconds."""
PBEM = [sys.executable, "-m", "pbem.cli"]
"""The ``pbem`` command (its entry point, run by this interpreter)."""


@dataclass(frozen=True)
class OrderMail:
    """One order mail a seat sends, and what it is about."""

    game: str
    seat: str
    sender: str
    version: int
    """The version its orders get: this is the seat's n-th mail."""
    message: EmailMessage

    @property
    def message_id(self) -> str:
        """The mail's Message-ID, as the daemon stores it."""
        return str(self.message["Message-ID"])


@dataclass(frozen=True)
class Progress:
    """What the database shows the daemon has done."""

    stored: int
    handled: int
    queued: int
    sent: int

    @property
    def work(self) -> int:
        """Mails handled plus mails sent: what the daemon has done for good (sent again: counted once)."""
        return self.handled + self.sent


# --- setup ---------------------------------------------------------------------------


def robot_orders(info: GameInfo, seat: str, rng: GameRng) -> str:
    """A random legal set of orders for ``seat``, one per line."""
    return "\n".join(str(order) for order in info.rules.sample_orders(info.state, seat, rng)) + "\n"


def set_up_games(db_path: str, *, signons_last: bool = False) -> list[OrderMail]:
    """Create the games and the reply-token secret; return the order mails in sending order.

    The mails of seats A-C are shuffled; each game's seat D mail comes at a
    random place after the game's other mails, so that every other mail of
    the game is handled before the turn resolves (one daemon handles mail in
    arrival order), or with ``signons_last`` after all of them (several daemons
    handle one sender's mail in arrival order, and different senders' mail at
    once: :func:`deliver` sends the seat D mails once the others are handled).
    """
    db = open_database(db_path)
    try:
        setting(db, SECRET_KEY, SECRET.hex)
        tokens = ReplyTokens(SECRET)
        runner = GameService(db)
        robots = GameRng(SEED)
        shuffle = random.Random(SEED)
        today = datetime.now(UTC).date()
        replies: list[tuple[str, str, str, str]] = []  # game, seat, sender, orders
        signons: list[tuple[str, str, str, str]] = []
        for number in range(1, GAMES + 1):
            name = f"tc-{number}"
            seats = {seat: f"p{number}{seat.lower()}@players.test" for seat in "ABCD"}
            info = runner.create_game("turkey-chase", name, seats=seats, seed=number,
                                      options={"turn_hours": "0", "resolve": "early"})
            assert info.phase is not None and set(info.phase.seats) == set(seats)
            password = new_password()
            with runner.unit() as unit:
                seat_row = unit.seat(unit.game(name), SIGNON_SEAT)
                seat_row.password_hash = hash_password(password)
                unit.add(seat_row)
            for seat, sender in seats.items():
                if seat == SIGNON_SEAT:
                    body = f"SIGNON {name} {seat} {password}\n{robot_orders(info, seat, robots)}"
                    signons.append((name, seat, sender, body))
                else:
                    replies.extend((name, seat, sender, robot_orders(info, seat, robots))
                                   for _ in range(MAILS_PER_SEAT))
        shuffle.shuffle(replies)
        for signon in signons:
            last = max(i for i, reply in enumerate(replies) if reply[0] == signon[0])
            replies.insert(len(replies) if signons_last else shuffle.randint(last + 1, len(replies)), signon)
        mails = []
        versions: Counter[str] = Counter()
        for name, seat, sender, body in replies:
            versions[sender] += 1
            if seat == SIGNON_SEAT:
                message = plain_mail(sender, GM_ADDRESS, f"orders for {name}", body)
            else:
                to = tokens.address_for(GM_ADDRESS, name, seat, 1, today)
                message = plain_mail(sender, to, f"Re: [{name}] Turn 1", body)
            mails.append(OrderMail(name, seat, sender, versions[sender], message))
        return mails
    finally:
        db.close()


# --- processes -----------------------------------------------------------------------


async def read_line(process: asyncio.subprocess.Process, what: str) -> str:
    """Return the next line of the process's standard output (bounded wait)."""
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), STARTUP_TIMEOUT)
    if not line:
        raise AssertionError(f"{what} ended before it was ready (exit code {await process.wait()})")
    return line.decode()


@asynccontextmanager
async def mail_servers(log: IO[bytes]) -> AsyncIterator[tuple[int, int]]:
    """Run the mail server process; yield (IMAP port, SMTP port); SIGTERM it at the end."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pbem.sandbox.mailboxes", stdout=asyncio.subprocess.PIPE, stderr=log,
    )
    try:
        ready = json.loads(await read_line(process, "the mail servers"))
        yield ready["imap_port"], ready["smtp_port"]
    finally:
        if process.returncode is None:
            process.terminate()
            await asyncio.wait_for(process.wait(), 10)


class Daemon:
    """``pbem serve`` as a subprocess that can be killed and started again."""

    def __init__(self, db_path: str, imap_port: int, smtp_port: int, log: IO[bytes]) -> None:
        imap = ImapUrl("127.0.0.1", imap_port, GM_ADDRESS, "pbem")
        self.argv = [*PBEM, "serve", "--db", db_path, "--imap", imap.to_url(),
                     "--smtp", SmtpUrl("127.0.0.1", smtp_port).to_url(), "--address", GM_ADDRESS]
        self.log = log
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start the daemon and return once it said it serves."""
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, stdout=asyncio.subprocess.PIPE, stderr=self.log,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        while "pbem serves as" not in await read_line(self.process, "pbem serve"):
            pass

    async def kill(self) -> None:
        """SIGKILL the daemon and reap it."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert await asyncio.wait_for(self.process.wait(), 10) == -signal.SIGKILL

    async def stop(self) -> int:
        """SIGTERM the daemon; return its exit code."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.terminate()
        return await asyncio.wait_for(self.process.wait(), 15)


# --- looking at the database and the mailboxes -----------------------------------------


def query(db_path: str, sql: str) -> list[tuple[object, ...]]:
    """Run a query on the database; JSON columns come back as JSON text on every engine."""
    return [tuple(json.dumps(v) if isinstance(v, list | dict) else v for v in row) for row in run_query(db_path, sql)]


def progress(db_path: str) -> Progress:
    """Count stored and handled inbound mail, queued and sent outbound mail."""
    (row,) = query(db_path, """
        SELECT (SELECT count(*) FROM inbound_message),
               (SELECT count(*) FROM inbound_message WHERE status != 'new'),
               (SELECT count(*) FROM outbound_message WHERE status = 'queued'),
               (SELECT count(*) FROM outbound_message WHERE status = 'sent')""")
    stored, handled, queued, sent = (int(v) for v in row)  # type: ignore[call-overload]
    return Progress(stored, handled, queued, sent)


async def read_mailbox(imap_port: int, address: str) -> list[ReceivedMail]:
    """Every mail in ``address``'s INBOX, read over IMAP without marking anything."""
    client = aioimaplib.IMAP4("127.0.0.1", imap_port, timeout=10)
    await client.wait_hello_from_server()
    try:
        assert (await client.login(address, "pbem")).result == "OK"
        selected = await client.select("INBOX")
        assert selected.result == "OK"
        if any(bytes(line).strip() == b"0 EXISTS" for line in selected.lines):
            return []
        fetched = await client.uid("fetch", "1:*", "(UID BODY.PEEK[])")
        assert fetched.result == "OK"
        return [read_mail(raw) for _, raw in parse_fetch(fetched.lines)]
    finally:
        await client.logout()


async def read_mailboxes(imap_port: int, addresses: list[str]) -> dict[str, list[ReceivedMail]]:
    """Read many mailboxes, a few at a time."""
    gate = asyncio.Semaphore(8)

    async def one(address: str) -> list[ReceivedMail]:
        async with gate:
            return await read_mailbox(imap_port, address)

    boxes = await asyncio.gather(*(one(address) for address in addresses))
    return dict(zip(addresses, boxes))


# --- the scenario ----------------------------------------------------------------------


async def deliver(smtp_port: int, mails: list[OrderMail], rng: random.Random, *,
                  signons_after: str | None = None) -> None:
    """Send the mails over SMTP in small bursts with short pauses; with ``signons_after`` (a database),
    the seat D mails only once every other mail is handled there."""
    for start in range(0, len(mails), 10):
        for mail in mails[start : start + 10]:
            if signons_after is not None and mail.seat == SIGNON_SEAT:
                others = sum(1 for m in mails if m.seat != SIGNON_SEAT)
                await wait_for_work(signons_after, 0, timeout=WORK_TIMEOUT, handled=others)
            await asyncio.wait_for(aiosmtplib.send(mail.message, hostname="127.0.0.1", port=smtp_port), 10)
        await asyncio.sleep(rng.uniform(0.1, 0.7))


async def wait_for_work(db_path: str, target: int, *, timeout: float, handled: int = 0) -> Progress:
    """Wait until the daemons have handled and sent ``target`` mails in all, and handled ``handled`` (bounded)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (now := progress(db_path)).work < target or now.handled < handled:
        if loop.time() > deadline:
            raise AssertionError(f"the daemon did not get to {target} mails handled and sent in {timeout}s: {now}")
        await asyncio.sleep(0.05)
    return now


async def crash_run(tmp_path: Path, db_path: str, mails: list[OrderMail], *, daemons: int,
                    kills: int) -> tuple[dict[str, list[ReceivedMail]], list[Progress]]:
    """Deliver the mails to ``daemons`` daemons while killing one of them ``kills`` times (each then started
    again); return the senders' mailboxes and the progress at each kill."""
    rng = random.Random(SEED + daemons)
    at_kills: list[Progress] = []
    with open(tmp_path / "servers.log", "wb") as server_log, open(tmp_path / "daemon.log", "wb") as daemon_log:
        async with mail_servers(server_log) as (imap_port, smtp_port):
            running = [Daemon(db_path, imap_port, smtp_port, daemon_log) for _ in range(daemons)]
            sending = asyncio.create_task(deliver(smtp_port, mails, random.Random(SEED + 1),
                                                  signons_after=db_path if daemons > 1 else None))
            total_work = 2 * len(mails) + 4 * GAMES  # each mail handled and answered; a report per seat
            try:
                for daemon in running:
                    await daemon.start()
                for target in sorted(rng.sample(range(1, total_work), kills)):
                    # at least one thing more than before the last kill, unless all is done already
                    target = min(total_work, max(target, progress(db_path).work + 1))
                    await wait_for_work(db_path, target, timeout=WORK_TIMEOUT)
                    await asyncio.sleep(rng.uniform(0.0, 0.2))
                    victim = rng.choice(running)
                    await victim.kill()
                    at_kills.append(progress(db_path))
                    await asyncio.sleep(rng.choice([0.0, rng.uniform(0.0, 0.5)]))
                    await victim.start()
                await asyncio.wait_for(sending, 60)
                await wait_for_work(db_path, total_work, timeout=FINISH_TIMEOUT)
                for daemon in running:
                    assert await daemon.stop() == 0
            finally:
                sending.cancel()
                for daemon in running:
                    if daemon.process is not None and daemon.process.returncode is None:
                        await daemon.kill()
            boxes = await read_mailboxes(imap_port, sorted({mail.sender for mail in mails}))
    return boxes, at_kills


def test_killed_daemon_handles_each_mail_once_and_answers_every_sender(tmp_path: Path) -> None:
    check_crash_run(tmp_path, daemons=1, kills=KILLS)


def test_three_daemons_on_one_database_killed_at_random_handle_each_mail_once_and_answer_every_sender(
        tmp_path: Path) -> None:
    if not on_postgresql():
        pytest.skip("several daemons share a PostgreSQL database: run with --db-engine postgresql")
    check_crash_run(tmp_path, daemons=SHARED_DAEMONS, kills=SHARED_KILLS)


def check_crash_run(tmp_path: Path, *, daemons: int, kills: int) -> None:
    """Set the games up, run the crash scenario and check everything the module doc promises."""
    db_path = database_url(tmp_path)
    mails = set_up_games(db_path, signons_last=daemons > 1)
    assert len(mails) == 200 and len({m.message_id for m in mails}) == len(mails)
    boxes, at_kills = asyncio.run(crash_run(tmp_path, db_path, mails, daemons=daemons, kills=kills))
    print(f"\nprogress at each of the {kills} kills:", *at_kills, sep="\n  ")

    # Every mail taken and handled exactly once.
    inbound = query(db_path, "SELECT message_id, status FROM inbound_message")
    assert Counter(message_id for message_id, _ in inbound) == Counter(m.message_id for m in mails)
    assert {status for _, status in inbound} == {"handled"}

    # Every accepted order stored exactly once: one submission per mail, with the version its place gives it.
    submissions = query(db_path, """
        SELECT g.name, s.seat, s.turn, s.version, s.source FROM submission s JOIN game g ON g.id = s.game_id""")
    assert Counter(source for *_, source in submissions) == Counter(f"mail:{m.message_id}" for m in mails)
    stored = {source: (game, seat, turn, version) for game, seat, turn, version, source in submissions}
    for mail in mails:
        assert stored[f"mail:{mail.message_id}"] == (mail.game, mail.seat, 1, mail.version)

    # Every game resolved turn 1 exactly once, and nothing more.
    records = query(db_path, "SELECT g.name, t.turn, t.reason FROM turn_record t JOIN game g ON g.id = t.game_id")
    assert sorted(records) == sorted((f"tc-{n}", 1, "all-in") for n in range(1, GAMES + 1))
    assert query(db_path, "SELECT DISTINCT turn, status FROM game") == [(2, "active")]

    # Every reply and report queued exactly once, and sent.
    outbound = query(db_path, "SELECT purpose, inbound_id, recipients, status FROM outbound_message")
    replies = Counter(inbound_id for purpose, inbound_id, _, _ in outbound if purpose == "reply")
    assert len(replies) == len(mails) and set(replies.values()) == {1}
    reports = Counter(str(recipients) for purpose, _, recipients, _ in outbound if purpose == "report")
    assert reports == Counter(json.dumps([sender]) for sender in {m.sender for m in mails})
    assert {status for *_, status in outbound} == {"sent"}

    # Every order mail got exactly one reply and every seat one report, some maybe delivered twice.
    by_sender: defaultdict[str, list[OrderMail]] = defaultdict(list)
    for mail in mails:
        by_sender[mail.sender].append(mail)
    repeated = 0
    for sender, sent in by_sender.items():
        box = boxes[sender]
        distinct = {received.message_id: received for received in box}
        repeated += len(box) - len(distinct)
        for received in box:
            assert body_of(received) == body_of(distinct[received.message_id])
        for mail in sent:
            answers = [r for r in distinct.values() if r.in_reply_to == mail.message_id]
            assert len(answers) == 1, f"{sender}: {len(answers)} replies to {mail.message_id}"
            assert f"Your orders v{mail.version}," in answers[0].body and "REFUSED" not in answers[0].body
        others = [r.subject for r in distinct.values() if r.in_reply_to not in {m.message_id for m in sent}]
        assert others == [f"[{sent[0].game}] Turn 2"], f"{sender}: {others}"
    print(f"mails delivered again after a kill (same Message-ID): {repeated}")
    assert repeated <= kills * SMTP_CONNECTIONS

    # Every game replays from its seed to the stored state.
    for number in range(1, GAMES + 1):
        replay = subprocess.run([*PBEM, "replay", f"tc-{number}", "--db", db_path], capture_output=True, text=True,
                                timeout=120, check=False)
        assert replay.returncode == 0 and "every state matches" in replay.stdout, replay.stdout + replay.stderr


def body_of(mail: ReceivedMail) -> bytes:
    """The raw mail after its headers (the server stamps each copy with its own delivery headers)."""
    return mail.raw.split(b"\r\n\r\n", 1)[1]
