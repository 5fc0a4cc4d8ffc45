"""Soak benchmark: one daemon through simulated months of service on a fast clock. Prints numbers.

    python bench/bench_soak.py [--months 12] [--mails-per-month 1800] [--engine sqlite|postgresql]
                               [--rate 40] [--max-minutes 15] [--compact-after-days 30] [--quick]

One :class:`~pbem.mail.running.daemon.MailDaemon` (what ``pbem serve`` runs) on a database of its own, with the
mail servers and players in a process of their own (bench/mail_world.py), so that this process holds the
daemon alone (and the bench's bookkeeping: a few queries a round to know whose orders are missing).
Everything runs on 127.0.0.1.

The daemon's clock is the demo's (:class:`pbem.sandbox.demo.DemoClock`): it stands still while the
players write and jumps a day between rounds. Each simulated month (30 days, ``ROUNDS`` rounds, one a
day) the players of the running Turkey Chase games (enough for ``--mails-per-month``) answer their
turn with orders (the demo's robot orders), each to the reply address of the seat, sent at ``--rate``
per second; a game's turn resolves once all orders are in. In about one game-turn in ten a seat sleeps:
its game waits for the deadline (48 h), the clock sends the reminder (12 h before) and resolves it with
the defaults. A game that ends is replaced by a new one, so games are created, played to the end and
left in the archive all year. The daemon's retention (a week, on its clock) purges mail text hourly
by its clock, and compacts the games finished for ``--compact-after-days`` (30, as ``pbem serve``).

Per month it prints the resident memory of this process (VmRSS of /proc/self/status: the daemon), the
database's size (SQLite file + WAL; PostgreSQL pg_database_size) and the part of it the mail tables
take (the rest is the games' record, kept for the archive, finished games compacted), the CPU this process used per mail
the players sent, and the reply latency (send to the player's first answer delivered) median and p99.
Targets (issue "A year of service"): at least 20,000 mails over 12 months; RSS at the end within 10%
of month 2; CPU per mail and p99 latency within 15% of month 2; the database's size levels off (the
last three months within 10% of each other). ``--quick`` is a smoke run of about two minutes
(3 months, few mails); its verdicts mean little.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))

from bench_scale import Engines  # noqa: E402  (fresh SQLite files, a throw-away PostgreSQL server)
from mail_world import Letter, MailWorld, send_letters  # noqa: E402
from sqlalchemy import text  # noqa: E402

from pbem.core import GameRng  # noqa: E402
from pbem.games import find_game  # noqa: E402
from pbem.mail.outbound.config import ImapUrl, SmtpUrl  # noqa: E402
from pbem.mail.running.daemon import DaemonOptions, MailDaemon, tune_gc_for_serving  # noqa: E402
from pbem.sandbox.demo import DemoClock, robot_orders  # noqa: E402
from pbem.sandbox.mailclient import plain_mail  # noqa: E402
from pbem.service.compaction import DEFAULT_COMPACT_AFTER  # noqa: E402
from pbem.store import Database, open_database  # noqa: E402

GM = "gm@pbem.bench"
KIND = "turkey-chase"
DAY = timedelta(days=1)
ROUNDS = 30
"""Rounds (simulated days) in a simulated month."""
SLEEPY = 0.1
"""The share of game-turns in which one seat sends nothing (its game waits for the deadline)."""
REPLY_TIMEOUT = 60.0
"""Seconds a round waits, after its last send, for the last player's answer."""
RSS_TARGET, STEADY_TARGET, LEVEL_TARGET, MAILS_TARGET = 0.10, 0.15, 0.10, 20_000


@dataclass
class Month:
    """What one simulated month measured."""

    number: int
    mails: int = 0
    unanswered: int = 0
    cpu: float = 0.0
    """CPU this process used in the month, but the bench's own (:attr:`bench_cpu`)."""
    bench_cpu: float = 0.0
    """CPU the bench's bookkeeping used (which seats owe orders, the orders, new games), done while the daemon
    is idle."""
    latencies: list[float] = field(default_factory=list)
    rss_mb: float = 0.0
    db_mb: float = 0.0
    mail_mb: float = 0.0
    tables: dict[str, float] = field(default_factory=dict)
    """MB per table (and SQLite's free pages and WAL): :func:`table_mb`."""
    games_ended: int = 0
    load: float = 0.0
    seconds: float = 0.0

    @property
    def cpu_ms(self) -> float:
        """CPU of this process per mail sent, in ms."""
        return self.cpu / max(1, self.mails) * 1000

    def latency_ms(self, quantile: float) -> float:
        """The latency at ``quantile`` (0.5 = median), in ms."""
        if not self.latencies:
            return math.nan
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] * 1000

    def line(self) -> str:
        """The month's row of the table."""
        return (f"{self.number:>5}{self.mails:>7}{self.unanswered:>6}{self.games_ended:>6}{self.rss_mb:>9.1f}"
                f"{self.db_mb:>9.2f}{self.mail_mb:>9.2f}{self.cpu_ms:>9.2f}{self.latency_ms(0.5):>9.1f}"
                f"{self.latency_ms(0.99):>9.1f}{self.load:>7.2f}{self.seconds:>7.0f}")


HEADER = (f"{'month':>5}{'mails':>7}{'lost':>6}{'ended':>6}{'RSS MB':>9}{'DB MB':>9}{'mail MB':>9}{'cpu ms':>9}"
          f"{'p50 ms':>9}{'p99 ms':>9}{'load':>7}{'wall s':>7}")


def rss_mb() -> float:
    """The resident memory of this process now (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return math.nan


def database_mb(db: Database, url: str) -> float:
    """The database's size on disk, in MB: the SQLite file and its WAL, or PostgreSQL's pg_database_size."""
    if "://" in url:
        with db.engine.connect() as connection:
            return int(connection.scalar(text("SELECT pg_database_size(current_database())")) or 0) / 2**20
    return sum(path.stat().st_size for path in (Path(url), Path(url + "-wal")) if path.exists()) / 2**20


MAIL_TABLES = ("inbound_message", "outbound_message")
"""The tables of the mail itself, with what the retention purges; the rest is the games' record (the archive)."""


def table_mb(db: Database, url: str) -> dict[str, float]:
    """The space each table takes with its indexes, in MB (SQLite's dbstat, with the pages free for reuse as
    ``(free pages)`` and the write-ahead log as ``(WAL)``; PostgreSQL's pg_total_relation_size)."""
    with db.engine.connect() as connection:
        if "://" in url:
            rows = connection.execute(text(
                "SELECT relname, pg_total_relation_size(oid) FROM pg_class "
                "WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace")).all()
        else:
            rows = connection.execute(text(
                "SELECT coalesce(schema.tbl_name, stat.name), sum(stat.pgsize) FROM dbstat AS stat "
                "LEFT JOIN sqlite_schema AS schema ON schema.name = stat.name GROUP BY 1")).all()
            page_size = int(connection.scalar(text("PRAGMA page_size")) or 0)
            free = int(connection.scalar(text("PRAGMA freelist_count")) or 0)
            rows += [("(free pages)", free * page_size)]
            wal = Path(url + "-wal")
            rows += [("(WAL)", wal.stat().st_size if wal.exists() else 0)]
    return {str(name): int(size or 0) / 2**20 for name, size in rows}


class MemoryTrace:
    """``--trace-memory``: what grows. At the end of each month from month 2 on: the kinds of objects that
    grew in number since the month before (``gc.get_objects``), who holds a sample of the lists and dicts
    made since month 2 that are still alive (the chain of referrers up to the first object that is no
    container: the cache, registry or map that keeps them), and how full pbem's ``lru_cache`` caches are.
    (tracemalloc was tried: it slows the daemon tenfold, too much for months of mail.)"""

    SAMPLE = 300

    def __init__(self, db: Database) -> None:
        self.db = db
        self.counts: Counter[str] = Counter()
        self.old: set[int] = set()

    def month_ended(self, number: int) -> list[str]:
        """What grew in the month; the baseline is taken at the end of month 2."""
        gc.collect()
        objects = gc.get_objects()
        counts = Counter(type(thing).__qualname__ for thing in objects)
        lines: list[str] = []
        if number > 2:
            grown = counts.copy()
            grown.subtract(self.counts)
            lines.append(f"  objects grown in month {number}: " + ", ".join(
                f"{name} {count:+d}" for name, count in grown.most_common(8)))
            young = [thing for thing in objects if type(thing) in (list, dict) and id(thing) not in self.old]
            sample = random.sample(young, min(self.SAMPLE, len(young)))
            mine = {id(objects), id(young), id(sample)}
            holders: Counter[str] = Counter()
            for thing in sample:  # a loop, not a generator: a generator's frame would be the first referrer
                holders[self._holder(thing, mine)] += 1
            lines.append(f"  {len(young)} lists and dicts made since month 2 alive; held by (of a sample): "
                         + "; ".join(f"{chain} {count}" for chain, count in holders.most_common(6)))
            lines.append("  some of them: " + " | ".join(repr(thing)[:120] for thing in sample[:6]))
            lines.append("  lru caches: " + ", ".join(f"{name} {size}" for name, size in _cache_sizes()))
            compiled = self.db.engine._compiled_cache  # noqa: SLF001  (SQLAlchemy's statement cache, an LRU)
            lines.append(f"  SQLAlchemy's compiled statements: {len(compiled) if compiled is not None else 0}")
        else:
            self.old = {id(thing) for thing in objects if type(thing) in (list, dict)}
        self.counts = counts
        del objects
        return lines

    @staticmethod
    def _holder(thing: object, mine: set[int], depth: int = 6) -> str:
        chain = [type(thing).__qualname__]
        for _ in range(depth):
            referrers = [ref for ref in gc.get_referrers(thing) if id(ref) not in mine and not _is_frame(ref)]
            if not referrers:
                break
            thing = referrers[0]
            chain.append(type(thing).__qualname__)
            if not isinstance(thing, (list, dict, tuple, set)):
                break
        return "<-".join(chain)


def _is_frame(thing: object) -> bool:
    return type(thing).__name__ in ("frame", "coroutine", "cell")


def _cache_sizes() -> list[tuple[str, int]]:
    """pbem's ``lru_cache`` caches holding more than 10 entries, fullest first."""
    sizes = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("pbem"):
            continue
        for attribute, value in vars(module).items():
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name and info().currsize > 10:
                sizes.append((f"{name}.{attribute}", info().currsize))
    return sorted(sizes, key=lambda item: -item[1])[:10]


class League:
    """The running games and their players: new games as old ones end, and each round's order mail."""

    def __init__(self, daemon: MailDaemon, games: int, seed: int) -> None:
        self.daemon = daemon
        self.service = daemon.service
        self.chance = random.Random(seed)
        self.created = 0
        self.running: list[str] = []
        self.sleeper: dict[str, tuple[int, str | None]] = {}
        """Per game: the turn and the seat that sleeps through it (None: nobody)."""
        for _ in range(games):
            self._new_game()

    def _new_game(self) -> None:
        self.created += 1
        name = f"soak-{self.created}"
        seats = {seat: f"{seat.lower()}{self.created}@players.bench" for seat in find_game(KIND).seat_names(4)}
        self.service.create_game(KIND, name, seats=seats, seed=self.created)
        self.running.append(name)

    def replace_ended(self) -> int:
        """Replace each game that ended by a new one; return how many ended."""
        ended = [name for name in self.running if self.service.info(name).outcome is not None]
        for name in ended:
            self.running.remove(name)
            self.sleeper.pop(name, None)
            self._new_game()
        return len(ended)

    def letters(self) -> list[Letter]:
        """The order mail of every seat whose orders are missing, to the seat's reply address (one mail per
        player: each player is in one game), but the seat that sleeps through its game's turn."""
        letters = []
        for name in self.running:
            info = self.service.info(name)
            turn = info.row.turn
            if self.sleeper.get(name, (-1, None))[0] != turn:
                missing = self.service.missing_seats(name)
                sleepy = self.chance.choice(missing) if missing and self.chance.random() < SLEEPY else None
                self.sleeper[name] = (turn, sleepy)
            sleepy = self.sleeper[name][1]
            missing = self.service.missing_seats(name)
            for seat in info.seats:
                if seat.name == sleepy or seat.name not in missing or seat.address is None:
                    continue
                to = self.daemon.handler.notifier.reply_address(info.row, seat)
                # A generator per mail: one kept all year logs every draw it makes (GameRng.draws), some
                # ten a mail, which grew this process by megabytes a month (--trace-memory found them).
                orders = robot_orders(self.service, name, seat.name, GameRng(self.chance.getrandbits(62)))
                message = plain_mail(seat.address, to, f"Re: [{name}] Turn {turn}", orders)
                letters.append(Letter(seat.address, to, message.as_bytes()))
        return letters


OUTBOX_DRAIN = 300.0
"""Seconds the month's end waits for the outbox to be sent before measuring."""


async def drain_outbox(daemon: MailDaemon, db: Database) -> None:
    """Wait (at most :data:`OUTBOX_DRAIN` seconds) until the daemon sent every mail it queued: the robots play
    on without waiting for their reports, so on a starved CPU the reports queue up faster than they go, and the
    month's size would count that backlog (as players would not: they wait for their report)."""
    deadline = time.perf_counter() + OUTBOX_DRAIN
    while time.perf_counter() < deadline:
        with db.engine.connect() as connection:
            if not connection.scalar(text("SELECT count(*) FROM outbound_message WHERE status = 'queued'")):
                return
        await daemon.caught_up()
        await asyncio.sleep(0.5)


async def after_clock_jump(daemon: MailDaemon, clock_interval: float) -> None:
    """Let the daemon's clock make a pass after the clock moved, and the daemon send what it queued."""
    await asyncio.sleep(1.5 * clock_interval)
    await daemon.caught_up()


async def soak(args: argparse.Namespace, workdir: Path) -> list[Month]:
    """Run the simulated months; return what each measured (fewer than ``--months`` when the time ran out)."""
    engines = Engines(workdir, [args.engine])
    if engines.missing:
        raise SystemExit(engines.missing)
    url = engines.new(args.engine)
    months: list[Month] = []
    started = time.perf_counter()
    clock = DemoClock()
    options = DaemonOptions(idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.2, retention=timedelta(days=7),
                            compact_after=timedelta(days=args.compact_after_days))
    try:
        async with MailWorld() as world:
            await world.add_user(GM)
            db = open_database(url)
            try:
                trace = MemoryTrace(db) if args.trace_memory else None
                daemon = MailDaemon(db, imap=ImapUrl.parse(world.imap_url(GM)), smtp=SmtpUrl.parse(world.smtp_url()),
                                    address=GM, clock=clock, options=options)
                games = max(1, math.ceil(args.mails_per_month / (args.rounds * 4 * (1 - SLEEPY))))
                league = League(daemon, games, args.seed)
                tune_gc_for_serving()  # as pbem serve does once the daemon is set up
                stop = asyncio.Event()
                task = asyncio.create_task(daemon.run(stop))
                try:
                    await asyncio.sleep(0.3)  # logged in and idle
                    for number in range(1, args.months + 1):
                        month = Month(number)
                        month_started, cpu = time.perf_counter(), time.process_time()
                        for _ in range(args.rounds):
                            bench_cpu = time.thread_time()  # the daemon is idle: this thread's CPU is the bench's
                            letters = league.letters()
                            month.bench_cpu += time.thread_time() - bench_cpu
                            if letters:  # none when every game waits for a sleeper's deadline
                                timing = await send_letters(world, letters, rate=args.rate, timeout=REPLY_TIMEOUT)
                                month.mails += len(letters)
                                month.unanswered += len(letters) - len(timing.latencies)
                                month.latencies.extend(timing.latencies)
                            await daemon.caught_up()
                            clock.advance(args.month_days * DAY / args.rounds)
                            await after_clock_jump(daemon, options.clock_interval)
                            bench_cpu = time.thread_time()
                            month.games_ended += league.replace_ended()
                            month.bench_cpu += time.thread_time() - bench_cpu
                        await drain_outbox(daemon, db)
                        month.cpu = time.process_time() - cpu - month.bench_cpu
                        month.seconds = time.perf_counter() - month_started
                        month.rss_mb, month.db_mb, month.tables = rss_mb(), database_mb(db, url), table_mb(db, url)
                        month.mail_mb = sum(month.tables.get(name, 0.0) for name in MAIL_TABLES)
                        month.load = os.getloadavg()[0]
                        months.append(month)
                        print(month.line(), flush=True)
                        for line in trace.month_ended(number) if trace is not None else ():
                            print(line, flush=True)
                        if time.perf_counter() - started > args.max_minutes * 60 and number < args.months:
                            print(f"(stopped after month {number}: --max-minutes {args.max_minutes:g} ran out)")
                            break
                finally:
                    stop.set()
                    await asyncio.wait_for(task, 15)
            finally:
                db.close()
    finally:
        engines.close()
    return months


def within(value: float, base: float, share: float) -> bool:
    """Whether ``value`` is at most ``share`` above ``base`` (a drop is no failure)."""
    return value <= base * (1 + share)


def spread(values: Sequence[float]) -> float:
    """How much the largest of ``values`` is above the smallest, as a share of it (0 when all are 0)."""
    low, high = min(values), max(values)
    return high / low - 1 if low > 0 else (0.0 if high == 0 else math.inf)


def verdicts(months: Sequence[Month]) -> list[str]:
    """One line per target: met or NOT met, with the figures."""
    def word(ok: bool) -> str:
        return "met" if ok else "NOT met"

    total = sum(month.mails for month in months)
    lines = [f"mails: {total:,} over {len(months)} months (target >= {MAILS_TARGET:,} over 12: "
             f"{word(total >= MAILS_TARGET and len(months) >= 12)})"]
    if len(months) < 3:
        return [*lines, "fewer than 3 months: no other verdict"]
    base, last = months[1], months[-1]
    lines.append(f"RSS: month 2 {base.rss_mb:.1f} MB, month {last.number} {last.rss_mb:.1f} MB "
                 f"({last.rss_mb / base.rss_mb - 1:+.1%}; target within {RSS_TARGET:.0%}: "
                 f"{word(within(last.rss_mb, base.rss_mb, RSS_TARGET))})")
    lines.append(f"CPU per mail: month 2 {base.cpu_ms:.2f} ms, month {last.number} {last.cpu_ms:.2f} ms "
                 f"({last.cpu_ms / base.cpu_ms - 1:+.1%}; target within {STEADY_TARGET:.0%}: "
                 f"{word(within(last.cpu_ms, base.cpu_ms, STEADY_TARGET))})")
    p99, last_p99 = base.latency_ms(0.99), last.latency_ms(0.99)
    lines.append(f"p99 latency: month 2 {p99:.1f} ms, month {last.number} {last_p99:.1f} ms "
                 f"({last_p99 / p99 - 1:+.1%}; target within {STEADY_TARGET:.0%}: "
                 f"{word(within(last_p99, p99, STEADY_TARGET))}); median {base.latency_ms(0.5):.1f} -> "
                 f"{last.latency_ms(0.5):.1f} ms")
    sizes = [month.db_mb for month in months[-3:]]
    lines.append(f"database size, last three months: {', '.join(f'{size:.2f}' for size in sizes)} MB "
                 f"(largest {spread(sizes):+.1%} over the smallest; target within {LEVEL_TARGET:.0%}: "
                 f"{word(spread(sizes) <= LEVEL_TARGET)})")
    grown = {name: size - base.tables.get(name, 0.0) for name, size in last.tables.items()}
    lines.append(f"largest at month {last.number} (MB): " + ", ".join(
        f"{name} {size:.2f}" for name, size in sorted(last.tables.items(), key=lambda item: -item[1])[:8]))
    lines.append(f"grown most from month 2 to month {last.number} (MB): " + ", ".join(
        f"{name} {size:+.2f}" for name, size in sorted(grown.items(), key=lambda item: -abs(item[1]))[:8]))
    mail = [month.mail_mb for month in months[-3:]]
    lines.append(f"of which the mail tables (what the retention purges), last three months: "
                 f"{', '.join(f'{size:.2f}' for size in mail)} MB (largest {spread(mail):+.1%} over the "
                 f"smallest: {word(spread(mail) <= LEVEL_TARGET)})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--months", type=int, default=12, help="simulated months (default 12)")
    parser.add_argument("--mails-per-month", type=int, default=1800,
                        help="about how many order mails the players send a month (default 1800)")
    parser.add_argument("--engine", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--rate", type=float, default=40.0, help="mails sent per second in a round (default 40)")
    parser.add_argument("--max-minutes", type=float, default=15.0,
                        help="stop after the month during which this much wall time passed (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compact-after-days", type=float, default=DEFAULT_COMPACT_AFTER.days,
                        help="compact finished games this many days after their last turn, as pbem serve does "
                             f"(default {DEFAULT_COMPACT_AFTER.days}; 3650: never, within a year)")
    parser.add_argument("--trace-memory", action="store_true",
                        help="find what grows: object counts, holders of new objects, cache sizes, each month")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of about two minutes: 3 months of 10 rounds, 120 mails a month")
    args = parser.parse_args()
    args.rounds, args.month_days = ROUNDS, 30
    if args.quick:
        args.months, args.mails_per_month, args.rounds, args.max_minutes = 3, 120, 10, min(args.max_minutes, 5)
    if not (1 <= args.months <= 36 and 1 <= args.mails_per_month <= 20_000 and 0 < args.rate <= 1000
            and 0 < args.max_minutes <= 120 and 0 <= args.compact_after_days <= 3650):
        parser.error("--months must be 1..36, --mails-per-month 1..20000, --rate 0..1000, --max-minutes 0..120, "
                     "--compact-after-days 0..3650")
    logging.basicConfig(level=logging.ERROR)
    started = time.perf_counter()
    print(f"Soak: one daemon on {args.engine}, {args.months} simulated months of {args.rounds} rounds, "
          f"about {args.mails_per_month} order mails a month at {args.rate:g}/s", flush=True)
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory(prefix="pbem-soak-") as tmp:
        months = asyncio.run(soak(args, Path(tmp)))
    for line in verdicts(months):
        print(line)
    print(f"(engine {args.engine}; load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}; "
          f"total {time.perf_counter() - started:.0f}s)")


if __name__ == "__main__":
    main()
