"""Scale benchmark: several daemons on one database, thousands of games, a deadline storm. Prints numbers.

    python bench/bench_scale.py [-n 300] [--games 10000] [--storm 10000] [--engines sqlite,postgresql]
                                [--takeover 3] [--takeover-only]

In one run:

* mail rate: ``pbem serve`` (real processes) answering ``-n`` order mails sent at full speed, with the mail
  servers and players in a process of their own (bench/mail_world.py): 1 daemon on SQLite, 1 on
  PostgreSQL, 2 and 3 on PostgreSQL; mails per second (first send to last reply), the daemons' CPU per
  mail, the reply latency (median, p99: at full speed mostly the wait behind the mails sent before),
  then the reply latency of ``--paced`` mails sent at ``--rate`` per second, and how long the daemons
  took to stop on SIGTERM;
* games: in this process, the CPU of handling one order mail (its whole unit of work: reading, checking,
  storing, the reply queued) and the time of one clock pass, with 10 active games in the database and
  then with ``--games`` (the same 10 played, the rest idle), on each engine;
* the deadline storm: ``--storm`` Turkey Chase games whose deadlines all pass in the same minute, one
  daemon on each engine sending to an SMTP server that only counts (bench/smtp_sink.py); how long until
  every turn report is queued and until every one is sent, the reports sent per second, the reply
  latency of HELP mails sent meanwhile, and the daemon's peak memory;
* take-over: 2 and 3 daemons on PostgreSQL answering a burst of HELP mails (sending through a slow link,
  so that claims are held a while), the one holding claims on replies SIGKILLed; the seconds until the
  others sent the last reply it held (tests/e2e/takeover.py), ``--takeover`` runs of each
  (``--takeover-only``: this section alone).

PostgreSQL is a throw-away server started here in a temporary directory the way the tests start it
(tests/support/databases.py: Debian's postgresql package); without its binaries the PostgreSQL rows
are left out, saying so.

Targets (issue "Outgrow one machine"): per-mail CPU with 10,000 games within 10% of that with 10; a
clock pass over 10,000 idle games under 50 ms; the storm's reports sent at no less than half of the
full-speed reply rate (1 daemon, same engine). Issue "take-over in seconds": a killed daemon's claimed
replies sent by the others within 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))
sys.path.insert(0, str(_HERE.parent / "tests" / "support"))
sys.path.insert(0, str(_HERE.parent / "tests" / "e2e"))

import databases  # noqa: E402  (tests/support: the throw-away PostgreSQL server)
from mail_world import Letter, MailWorld, send_letters  # noqa: E402
from sqlalchemy import func, insert, select, update  # noqa: E402
from takeover import takeover_run  # noqa: E402  (tests/e2e: the take-over scenario)

from pbem.clock import utcnow  # noqa: E402
from pbem.core import GameRng  # noqa: E402
from pbem.games import find_game  # noqa: E402
from pbem.mail.outbound.config import ImapUrl, SmtpUrl  # noqa: E402
from pbem.mail.running.daemon import MailDaemon, tune_gc_for_serving  # noqa: E402
from pbem.sandbox.mailclient import plain_mail  # noqa: E402
from pbem.store import Database, open_database  # noqa: E402
from pbem.store.tables import GameRngRow, GameRow, OutboundMessageRow, SeatRow  # noqa: E402

GM = "gm@pbem.bench"
KIND = "turkey-chase"
SEATS = ("A", "B", "C", "D")
ACCEPTED = b"Your orders v"
WARMUP = 20
PLAYED = 10
"""Games that get mail in the games section; the others only sit in the database."""
PBEM = [sys.executable, "-m", "pbem.cli"]
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


# --- databases ------------------------------------------------------------------------------------


class Engines:
    """Fresh databases on SQLite files and on one throw-away PostgreSQL server."""

    def __init__(self, workdir: Path, wanted: Sequence[str]) -> None:
        self.workdir = workdir
        self.wanted = list(wanted)
        self.server: databases.PostgresServer | None = None
        self.count = 0
        self.missing = ""
        if databases.POSTGRESQL in self.wanted:
            binaries = databases.postgres_bin()
            if binaries is None:
                self.missing = "PostgreSQL is not installed (apt-get install postgresql): its rows are left out"
                self.wanted.remove(databases.POSTGRESQL)
            else:
                self.server = databases.PostgresServer(binaries)
                self.server.start()

    def new(self, engine: str, *, empty: bool = False) -> str:
        """The path or URL of a new database: migrated on PostgreSQL, without a table with ``empty`` (a SQLite
        file is made when it is first opened)."""
        self.count += 1
        if engine == databases.SQLITE:
            return str(self.workdir / f"bench-{self.count}.db")
        assert self.server is not None
        name = f"bench_{self.count}"
        self.server.execute(f"CREATE DATABASE {name} TEMPLATE {'template0' if empty else databases.TEMPLATE}")
        return self.server.url(name)

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()


def make_games(db: Database, count: int, *, first: int = 0, options: dict[str, str] | None = None,
               prefix: str = "g") -> None:
    """Put ``count`` started Turkey Chase games in the database, fast: the first one through the game
    service, the others as copies of its rows (each with its own name and player addresses)."""
    from pbem.service.api import GameService

    service = GameService(db)
    template = f"{prefix}{first}"
    service.create_game(KIND, template, seats={s: f"{s.lower()}{first}@{prefix}.bench" for s in SEATS}, seed=first,
                        options=options or {})
    game_table, seat_table, rng_table = (GameRow.__table__, SeatRow.__table__,  # type: ignore[attr-defined]
                                         GameRngRow.__table__)  # type: ignore[attr-defined]
    with db.engine.begin() as connection:
        game = dict(connection.execute(select(game_table).where(game_table.c.name == template)).mappings().one())
        seats = [dict(row) for row in connection.execute(select(seat_table).where(seat_table.c.game_id == game["id"]))
                 .mappings()]
        rng = dict(connection.execute(select(rng_table).where(rng_table.c.game_id == game["id"])).mappings().one())
        next_game = int(connection.execute(select(func.max(game_table.c.id))).scalar_one()) + 1
        next_seat = int(connection.execute(select(func.max(seat_table.c.id))).scalar_one()) + 1
        for start in range(1, count, 1000):
            numbers = range(first + start, first + min(count, start + 1000))
            games, seat_rows, rngs = [], [], []
            for number in numbers:
                game_id = next_game + number - first - 1
                games.append({**game, "id": game_id, "name": f"{prefix}{number}", "name_key": f"{prefix}{number}"})
                rngs.append({**rng, "game_id": game_id})
                for seat in seats:
                    seat_rows.append({**seat, "id": next_seat, "game_id": game_id,
                                      "address": f"{seat['name'].lower()}{number}@{prefix}.bench"})
                    next_seat += 1
            connection.execute(insert(game_table), games)
            connection.execute(insert(seat_table), seat_rows)
            connection.execute(insert(rng_table), rngs)
        if connection.dialect.name == "postgresql":
            for table in ("game", "seat"):
                connection.exec_driver_sql(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))")


def order_letters(daemon: MailDaemon, names: Sequence[str], count: int, *, seed: int = 1) -> list[Letter]:
    """``count`` order mails, each a reply to a seat's reply address with legal orders, going round the
    seats of the games ``names``."""
    game = find_game(KIND)
    rng = GameRng(seed)
    infos = [daemon.service.info(name) for name in names]
    letters: list[Letter] = []
    while len(letters) < count:
        for info in infos:
            for seat in info.seats:
                assert seat.address is not None
                orders = "\n".join(str(order) for order in game.sample_orders(info.state, seat.name, rng)) + "\n"
                to = daemon.handler.notifier.reply_address(info.row, seat)
                message = plain_mail(seat.address, to, f"Re: [{info.name}] Turn 1", orders)
                letters.append(Letter(seat.address, to, message.as_bytes()))
    return letters[:count]


def offline_daemon(db: Database) -> MailDaemon:
    """A daemon that is never run: its handler, clock and reply addresses, for work done in this process."""
    return MailDaemon(db, imap=ImapUrl("127.0.0.1", 1, GM, "x"), smtp=SmtpUrl("127.0.0.1", 1), address=GM)


# --- pbem serve processes -----------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def peak_memory_mb(pid: int) -> float:
    """The most resident memory a process had so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return math.nan


class Serving:
    """``pbem serve`` processes on one database, one mailbox and one SMTP server."""

    def __init__(self, db_url: str, imap: str, smtp: str, count: int, log: Path) -> None:
        self.argv = [*PBEM, "serve", "--db", db_url, "--imap", imap, "--smtp", smtp, "--address", GM,
                     "--log-level", "WARNING"]
        self.count = count
        self.log = log
        self.processes: list[asyncio.subprocess.Process] = []

    async def start(self) -> None:
        with open(self.log, "ab") as log:  # noqa: ASYNC230  (a log file, opened once per start)
            for _ in range(self.count):
                process = await asyncio.create_subprocess_exec(
                    *self.argv, stdout=asyncio.subprocess.PIPE, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"})
                assert process.stdout is not None
                while b"pbem serves as" not in (line := await asyncio.wait_for(process.stdout.readline(), 60)):
                    if not line:
                        raise RuntimeError(f"pbem serve ended at start; see {self.log}")
                self.processes.append(process)
        await asyncio.sleep(1.5)  # logged in to the mailbox, the fetcher elected

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes)

    def peak_memory_mb(self) -> float:
        return max(peak_memory_mb(p.pid) for p in self.processes)

    async def stop(self) -> float:
        """SIGTERM every daemon; return the longest any took to end, in seconds."""
        started = time.perf_counter()
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        longest = 0.0
        for process in self.processes:
            await asyncio.wait_for(process.wait(), 60)
            longest = max(longest, time.perf_counter() - started)
        return longest


# --- the sections --------------------------------------------------------------------------------


@dataclass
class Rate:
    """One mail-rate row."""

    name: str
    mails: int
    seconds: float
    cpu: float
    latencies: list[float]
    stop_seconds: float
    paced: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.mails / self.seconds if self.seconds else math.nan

    def latency_ms(self, quantile: float, *, paced: bool = False) -> float:
        ordered = sorted(self.paced if paced else self.latencies)
        if not ordered:
            return math.nan
        return ordered[max(0, math.ceil(quantile * len(ordered)) - 1)] * 1000

    def line(self) -> str:
        return (f"{self.name:<26}{self.mails:>6}{self.per_second:>9.1f}{self.cpu / max(1, self.mails) * 1000:>11.2f}"
                f"{self.latency_ms(0.5):>10.1f}{self.latency_ms(0.99):>9.1f}{self.latency_ms(0.5, paced=True):>10.1f}"
                f"{self.latency_ms(0.99, paced=True):>9.1f}{self.stop_seconds:>9.2f}")


async def mail_rate(engines: Engines, engine: str, daemons: int, n: int, workdir: Path, *, paced: int,
                    rate: float) -> Rate:
    """``n`` order mails at full speed to ``daemons`` daemons on a new database of ``engine``, then ``paced``
    more at ``rate`` per second."""
    db_url = engines.new(engine)
    db = open_database(db_url)
    try:
        daemon = offline_daemon(db)  # stores the reply-token key the served daemons use
        games = math.ceil((WARMUP + n + paced) / 4)
        make_games(db, games, options={"resolve": "deadline"})
        letters = order_letters(daemon, [f"g{i}" for i in range(games)], WARMUP + n + paced)
    finally:
        db.close()
    async with MailWorld() as world:
        await world.add_user(GM)
        serving = Serving(db_url, world.imap_url(GM), world.smtp_url(), daemons, workdir / "serve.log")
        await serving.start()
        try:
            await send_letters(world, letters[:WARMUP], rate=None, timeout=60)
            cpu = serving.cpu()
            timing = await send_letters(world, letters[WARMUP : WARMUP + n], rate=None, timeout=120,
                                        accepted=ACCEPTED)
            cpu = serving.cpu() - cpu
            steady = await send_letters(world, letters[WARMUP + n :], rate=rate, timeout=60) if paced else None
        finally:
            stop = await serving.stop()
    if timing.accepted < n:
        print(f"  ({engine}, {daemons} daemon(s): only {timing.accepted}/{n} orders accepted)")
    return Rate(f"{daemons} daemon(s) on {engine}", len(timing.latencies), timing.seconds, cpu, timing.latencies,
                stop, steady.latencies if steady is not None else [])


@dataclass
class GamesRow:
    """Per-mail CPU and clock pass time with some number of active games."""

    engine: str
    games: int
    mail_cpu_ms: float
    clock_pass_ms: float


def handle_mails(daemon: MailDaemon, letters: Sequence[Letter]) -> float:
    """Store the letters, then handle them in this process; return the CPU per mail in ms."""
    for uid, letter in enumerate(letters, start=1):
        daemon.inbound.store(uid, letter.raw)
    started = time.process_time()
    handled = 0
    while daemon.handler.handle_next() is not None:
        handled += 1
    assert handled == len(letters), f"{handled} of {len(letters)} handled"
    return (time.process_time() - started) / handled * 1000


def clock_pass_ms(daemon: MailDaemon, passes: int = 50) -> float:
    """The median wall time of one pass of the turn clock, in ms (nothing is due: the games are idle)."""
    times = []
    for _ in range(passes):
        started = time.perf_counter()
        result = daemon.turn_clock.tick(utcnow())
        times.append(time.perf_counter() - started)
        assert not result.did_something
    return statistics.median(times) * 1000


def games_scale(engines: Engines, engine: str, total: int, mails: int) -> list[GamesRow]:
    """Per-mail CPU and the clock pass with :data:`PLAYED` games, then with ``total``."""
    db = open_database(engines.new(engine))
    try:
        daemon = offline_daemon(db)
        make_games(db, PLAYED, options={"resolve": "deadline"})
        names = [f"g{i}" for i in range(PLAYED)]
        rows = []
        for games in (PLAYED, total):
            if games > PLAYED:
                make_games(db, games - PLAYED, first=PLAYED, options={"resolve": "deadline"}, prefix="idle")
            letters = order_letters(daemon, names, WARMUP + mails, seed=games)
            handle_mails(daemon, letters[:WARMUP])
            cpu = statistics.median(handle_mails(daemon, letters[WARMUP + i::3]) for i in range(3))
            rows.append(GamesRow(engine, games, cpu, clock_pass_ms(daemon)))
        return rows
    finally:
        db.close()


@dataclass
class Storm:
    """The deadline storm on one engine."""

    engine: str
    games: int
    reports: int
    queued_seconds: float
    sent_seconds: float
    help_latencies: list[float] = field(default_factory=list)
    peak_mb: float = math.nan
    stop_seconds: float = math.nan

    @property
    def send_rate(self) -> float:
        return self.reports / self.sent_seconds if self.sent_seconds else math.nan


async def storm(engines: Engines, engine: str, games: int, workdir: Path) -> Storm:
    """``games`` games whose deadlines pass at the same moment, one daemon: until every report is sent."""
    db_url = engines.new(engine)
    db = open_database(db_url)
    try:
        offline_daemon(db)
        make_games(db, games, options={"turn_hours": "48"}, prefix="s")
        game_table = GameRow.__table__  # type: ignore[attr-defined]
        with db.engine.begin() as connection:
            setup_done = utcnow()
            due = setup_done + timedelta(seconds=12)  # every deadline in the same minute: at the same second
            connection.execute(update(game_table).values(deadline=due, reminded_turn=1, wake_at=due))
    finally:
        db.close()
    expected = games * len(SEATS)
    sink = await asyncio.create_subprocess_exec(sys.executable, str(_HERE / "smtp_sink.py"),
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert sink.stdout is not None and sink.stdin is not None
    port = json.loads(await sink.stdout.readline())["port"]
    helped: dict[str, float] = {}
    counts: asyncio.Queue[int] = asyncio.Queue()

    async def read_sink() -> None:
        assert sink.stdout is not None
        while line := await sink.stdout.readline():
            fields = json.loads(line)
            if "to" in fields:
                helped[fields["to"]] = fields["at"]
            else:
                counts.put_nowait(fields["count"])

    async def sent_count() -> int:
        assert sink.stdin is not None
        sink.stdin.write(b"count\n")
        await sink.stdin.drain()
        return await counts.get()

    reader = asyncio.create_task(read_sink())
    result = Storm(engine, games, expected, math.nan, math.nan)
    try:
        async with MailWorld() as world:
            await world.add_user(GM)
            serving = Serving(db_url, world.imap_url(GM), SmtpUrl("127.0.0.1", port).to_url(), 1, workdir / "storm.log")
            await serving.start()
            try:
                await asyncio.sleep(max(0.0, (due - utcnow()).total_seconds()))
                started = time.time()
                asked: dict[str, float] = {}
                db = open_database(db_url)
                outbound = OutboundMessageRow.__table__  # type: ignore[attr-defined]
                next_help = 2.0
                try:
                    while True:
                        now = time.time() - started
                        if now >= next_help and len(asked) < 10:
                            address = f"watch{len(asked)}@help.bench"
                            await world.time_letters([Letter(address, GM, plain_mail(address, GM, "help", "HELP\n")
                                                             .as_bytes())], rate=None, timeout=0.01)
                            asked[address] = time.time()
                            next_help += 10.0
                        if math.isnan(result.queued_seconds):
                            with db.engine.connect() as connection:
                                queued = connection.execute(select(func.count()).select_from(outbound).where(
                                    outbound.c.purpose == "report")).scalar_one()
                            if queued >= expected:
                                result.queued_seconds = time.time() - started
                        if await sent_count() >= expected + len(asked) and len(helped) == len(asked):
                            result.sent_seconds = time.time() - started
                            if math.isnan(result.queued_seconds):  # the last reports were queued and sent
                                result.queued_seconds = result.sent_seconds  # between two looks
                            break
                        if now > 3600:
                            raise RuntimeError("the storm did not drain within an hour")
                        await asyncio.sleep(0.5)
                finally:
                    db.close()
                result.help_latencies = [helped[a] - asked[a] for a in asked if a in helped]
                result.peak_mb = serving.peak_memory_mb()
            finally:
                result.stop_seconds = await serving.stop()
    finally:
        sink.stdin.close()
        await sink.wait()
        reader.cancel()
    return result


# --- main ------------------------------------------------------------------------------------------


TAKEOVER_TARGET = 5.0
"""Seconds within which a killed daemon's claimed replies must be sent by the others."""


async def takeovers(engines: Engines, rounds: int, workdir: Path) -> None:
    """Print the take-over delay of ``rounds`` runs with 2 and with 3 daemons on PostgreSQL."""
    print(f"Take-over: the daemon holding claims on replies SIGKILLed mid-burst (40 HELP mails), {rounds} runs each")
    if databases.POSTGRESQL not in engines.wanted:
        print("  (needs PostgreSQL: left out)")
        return
    delays: list[float] = []
    for daemons in (2, 3):
        for number in range(rounds):
            rundir = workdir / f"takeover-{daemons}-{number}"
            rundir.mkdir()
            result = await takeover_run(rundir, engines.new(databases.POSTGRESQL), daemons=daemons, mails=40)
            delays.append(result.delay)
            copies = sum(len(box) for box in result.boxes.values())
            print(f"  {daemons} daemons, run {number + 1}: the killed one held {result.orphaned} replies, the "
                  f"last sent by another {result.delay:.2f} s after the kill; {copies} replies for "
                  f"{len(result.senders)} mails", flush=True)
    worst = max(delays)
    print(f"  take-over: median {statistics.median(delays):.2f} s, worst {worst:.2f} s (target <= "
          f"{TAKEOVER_TARGET:g}: {'met' if worst <= TAKEOVER_TARGET else 'NOT met'})")


async def run(args: argparse.Namespace, workdir: Path) -> None:
    engines = Engines(workdir, args.engines.split(","))
    try:
        if engines.missing:
            print(engines.missing)
        if args.takeover_only:
            await takeovers(engines, args.takeover, workdir)
            return
        print("Mail rate: order mails at full speed, pbem serve processes, mail world in a process of its own")
        print(f"{'':<56}{f'paced {args.rate:g}/s':>19}")
        print(f"{'daemons':<26}{'mails':>6}{'per s':>9}{'cpu ms/m':>11}{'median ms':>10}{'p99 ms':>9}"
              f"{'median ms':>10}{'p99 ms':>9}{'stop s':>9}")
        rates: dict[tuple[str, int], Rate] = {}
        setups = [(databases.SQLITE, 1)] + [(databases.POSTGRESQL, n) for n in (1, 2, 3)]
        for engine, daemons in setups:
            if engine in engines.wanted:
                rates[engine, daemons] = rate = await mail_rate(engines, engine, daemons, args.n, workdir,
                                                                paced=args.paced, rate=args.rate)
                print(rate.line(), flush=True)
        print()
        print(f"Games: CPU of handling one order mail, and one clock pass (idle games), with {PLAYED} and "
              f"{args.games:,} active games")
        print(f"{'engine':<12}{'games':>8}{'cpu ms/mail':>13}{'clock pass ms':>15}")
        scale: list[GamesRow] = []
        for engine in engines.wanted:
            for row in games_scale(engines, engine, args.games, args.mails):
                scale.append(row)
                print(f"{row.engine:<12}{row.games:>8,}{row.mail_cpu_ms:>13.2f}{row.clock_pass_ms:>15.2f}", flush=True)
        for engine in engines.wanted:
            few, many = [row for row in scale if row.engine == engine]
            ratio = many.mail_cpu_ms / few.mail_cpu_ms
            print(f"  {engine}: per-mail CPU {many.games:,} / {few.games} games = {ratio:.2f} (target <= 1.10: "
                  f"{'met' if ratio <= 1.10 else 'NOT met'}); clock pass over {many.games:,} idle games "
                  f"{many.clock_pass_ms:.2f} ms (target < 50: {'met' if many.clock_pass_ms < 50 else 'NOT met'})")
        print()
        if args.storm:
            print(f"Deadline storm: {args.storm:,} games due at the same second, one daemon, {len(SEATS)} reports "
                  "a game, to an SMTP server that only counts")
            for engine in engines.wanted:
                result = await storm(engines, engine, args.storm, workdir)
                reply_rate = rates.get((engine, 1))
                help_ms = sorted(latency * 1000 for latency in result.help_latencies)
                help_median = statistics.median(help_ms) if help_ms else math.nan
                print(f"  {engine}: {result.reports:,} reports all queued after {result.queued_seconds:.1f} s, all "
                      f"sent after {result.sent_seconds:.1f} s ({result.send_rate:.1f} reports/s); HELP replies "
                      f"meanwhile: {len(help_ms)} answered, median {help_median:.0f} ms, "
                      f"worst {max(help_ms) if help_ms else math.nan:.0f} ms; peak memory {result.peak_mb:.0f} MB; "
                      f"stopped in {result.stop_seconds:.2f} s", flush=True)
                if reply_rate is not None:
                    ratio = result.send_rate / reply_rate.per_second
                    print(f"    storm send rate / full-speed reply rate = {ratio:.2f} (target >= 0.5: "
                          f"{'met' if ratio >= 0.5 else 'NOT met'})")
        if args.takeover:
            print()
            await takeovers(engines, args.takeover, workdir)
    finally:
        engines.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=300, help="order mails in each mail-rate run (default 300)")
    parser.add_argument("--paced", type=int, default=100, help="mails sent paced after each full-speed run")
    parser.add_argument("--rate", type=float, default=10.0, help="mails per second when paced (default 10)")
    parser.add_argument("--games", type=int, default=10_000, help="active games in the games section (default 10000)")
    parser.add_argument("--mails", type=int, default=150, help="mails handled per measurement there (default 150)")
    parser.add_argument("--storm", type=int, default=10_000, help="games in the deadline storm; 0 skips it")
    parser.add_argument("--engines", default="sqlite,postgresql", help="sqlite, postgresql or both (default)")
    parser.add_argument("--takeover", type=int, default=3,
                        help="take-over runs with 2 and with 3 daemons on PostgreSQL (default 3; 0 skips them)")
    parser.add_argument("--takeover-only", action="store_true", help="run the take-over section alone")
    args = parser.parse_args()
    if not (0 < args.n <= 5000 and PLAYED < args.games <= 100_000 and 0 <= args.storm <= 100_000
            and 0 <= args.takeover <= 20 and (args.takeover or not args.takeover_only)):
        parser.error(f"-n must be 1..5000, --games {PLAYED + 1}..100000, --storm 0..100000, --takeover 0..20 "
                     "(1 or more with --takeover-only)")
    logging.basicConfig(level=logging.ERROR)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stopped: the PostgreSQL server goes too
    tune_gc_for_serving()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbem-scale-") as tmp:
        asyncio.run(run(args, Path(tmp)))
    print(f"(load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}; total "
          f"{time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
