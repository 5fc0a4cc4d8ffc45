"""End-to-end benchmark of the game master by mail, next to the raw rates of the same servers.

Prints numbers only; everything runs in this process on 127.0.0.1. Usage:

    python bench/bench_mail.py [-n 200] [--rounds 3] [--paced 100] [--rate 10]
                               [--auth token|signon] [--resolve deadline|early] [--profile FILE]

In one run, on two sets of fresh embedded servers (pymap IMAP + aiosmtpd SMTP)
in this process, one for the raw measurements and one for pbem:

* the raw rates of bench/mail_raw.py: IMAP APPEND, IMAP FETCH, SMTP send, and
  the bare echo pipeline (IDLE, fetch, parse, reply by SMTP; nothing else)
  and the same with pbem's intake, at full speed and (echo bare) paced;
* pbem: the real daemon (:class:`pbem.mail.daemon.MailDaemon`, default
  options) on a fresh SQLite file, with Turkey Chase games set up directly
  through the game service (passwords too). Players send order
  mails by SMTP, like the echo players: each mail comes from a distinct seat
  and holds legal orders, so each is a real submission whose reply is the
  line-by-line check. ``--auth token`` (default) replies to the seat's reply
  address, as players do; ``--auth signon`` uses SIGNON with the password
  (one scrypt check per mail).

pbem full: ``-n`` mails sent as fast as one SMTP connection goes; the rate is
mails over the time from the first send to the last reply, latency per mail
from its send to its reply landing in the player's mailbox. The full-speed
runs go in ``--rounds`` rounds of echo bare, echo intake and pbem, one after
the other, after 20 unmeasured mails each side (the first mails build the
order parser and the statement caches), and the verdict takes the median of
the rounds' pbem/echo ratios:
this machine's speed drifts by a third from minute to minute, and one pair
of runs a minute apart can land on either side of the target. pbem paced:
``--paced`` more mails at ``--rate`` per second. With ``--resolve deadline``
(default) no turn resolves during the run, so each mail causes exactly one
mail, as in the echo pipeline; ``--resolve early`` resolves each game once its
four seats sent orders, adding four turn reports per game to the load. pbem
idle: the CPU the daemon and servers use afterwards with no mail (count = the
intake's IDLE rechecks). The whole run uses the garbage-collector settings of
``pbem serve`` (:func:`pbem.mail.daemon.tune_gc_for_serving`).

Targets (issue "The game master by mail"): pbem full at least half of echo
bare's rate (median of the rounds); paced at 10/s a median reply latency of at most 100 ms and a
99th percentile of at most 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import math
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosmtplib

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mail_raw import Row, bare_echo, format_rows, intake_echo, measure_echo, measure_imap, measure_smtp  # noqa: E402

from pbem.core import GameRng  # noqa: E402
from pbem.games import find_game  # noqa: E402
from pbem.mail.config import ImapUrl, SmtpUrl  # noqa: E402
from pbem.mail.daemon import MailDaemon, tune_gc_for_serving  # noqa: E402
from pbem.sandbox.embedded import EmbeddedMailServers  # noqa: E402
from pbem.sandbox.mailclient import plain_mail  # noqa: E402
from pbem.store import open_database  # noqa: E402

GM = "gm@pbem.bench"
KIND = "turkey-chase"
ACCEPTED = b"Your orders v"
IDLE_SECONDS = 3.0
WARMUP = 20  # mails each side handles before the measured rounds


def split_at(index: int, items: list[OrderMail]) -> tuple[list[OrderMail], list[OrderMail]]:
    """``items[:index]`` and ``items[index:]``."""
    return items[:index], items[index:]


@dataclass(frozen=True)
class OrderMail:
    """One prepared order mail of one seat."""

    player: str
    to: str
    raw: bytes


def prepare_games(daemon: MailDaemon, count: int, *, auth: str, resolve: str, seed: int = 1) -> list[OrderMail]:
    """Create enough four-seat Turkey Chase games for ``count`` seats (started, one player
    address per seat) and return one order mail per seat, in seat order game by game."""
    game = find_game(KIND)
    rng = GameRng(seed)
    mails: list[OrderMail] = []
    for number in range(math.ceil(count / 4)):
        name = f"bench-{number}"
        seats = {seat: f"{seat.lower()}{number}@players.bench" for seat in game.seat_names(4)}
        info = daemon.service.create_game(KIND, name, seats=seats, options={"resolve": resolve}, seed=number)
        passwords = daemon.service.issue_passwords(name) if auth == "signon" else {}
        for seat in info.seats:
            assert seat.address is not None
            orders = "\n".join(str(order) for order in game.sample_orders(info.state, seat.name, rng)) + "\n"
            if auth == "signon":
                to, body = GM, f"SIGNON {name} {seat.name} {passwords[seat.name]}\n{orders}SIGNOFF\n"
            else:
                to, body = daemon.handler.notifier.reply_address(info.row, seat), orders
            message = plain_mail(seat.address, to, f"Re: [{name}] Turn 1", body)
            mails.append(OrderMail(seat.address, to, message.as_bytes()))
    return mails[:count]


async def send_orders(servers: EmbeddedMailServers, name: str, mails: Sequence[OrderMail], *,
                      rate: float | None, timeout: float) -> Row:
    """Send ``mails`` over one SMTP connection (at ``rate`` per second, or at full speed) and
    wait (at most ``timeout`` s after the last send) for each player's reply; the row's note
    says how many replies accepted the orders."""
    sent_at: dict[str, float] = {}
    replied_at: dict[str, float] = {}
    accepted = 0
    all_replied = asyncio.Event()

    def on_deliver(to: str, raw: bytes) -> None:
        nonlocal accepted
        if to in sent_at and to not in replied_at:
            replied_at[to] = time.perf_counter()
            accepted += ACCEPTED in raw
            if len(replied_at) == len(mails):
                all_replied.set()

    servers.on_deliver.append(on_deliver)
    smtp = aiosmtplib.SMTP(hostname=servers.host, port=servers.smtp_port, local_hostname="players.bench")
    await smtp.connect()
    try:
        cpu = time.process_time()
        start = time.perf_counter()
        for i, mail in enumerate(mails):
            if rate is not None:
                await asyncio.sleep(max(0.0, start + i / rate - time.perf_counter()))
            sent_at[mail.player] = time.perf_counter()
            await smtp.sendmail(mail.player, [mail.to], mail.raw)
        try:
            await asyncio.wait_for(all_replied.wait(), timeout)
        except TimeoutError:
            pass
        end = max(replied_at.values(), default=time.perf_counter())
        cpu = time.process_time() - cpu
    finally:
        servers.on_deliver.remove(on_deliver)
        await smtp.quit()
    latencies = [replied_at[m.player] - sent_at[m.player] for m in mails if m.player in replied_at]
    note = f"{accepted}/{len(mails)} accepted"
    if len(latencies) < len(mails):
        note += f", only {len(latencies)} replies in {timeout:g}s"
    if rate is not None:
        note = f"paced {rate:g}/s, {note}"
    return Row(name, len(latencies), end - start, cpu, latencies, note)


async def measure_idle(daemon: MailDaemon, seconds: float) -> Row:
    """CPU the running daemon (and the servers) use without mail for ``seconds``; count = IMAP
    searches the intake made meanwhile (one per idle recheck)."""
    await asyncio.sleep(1.0)  # let the last replies' bookkeeping finish
    searches, cpu, start = daemon.intake.stats.searches, time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - start
    return Row("pbem idle", daemon.intake.stats.searches - searches, wall, cpu,
               note=f"{cpu / wall * 100:.2f}% of a core")


@dataclass
class Rounds:
    """The full-speed rows of each round, in the order they ran."""

    echo: list[Row]
    pbem: list[Row]

    def ratios(self) -> list[float]:
        """pbem's rate over the bare echo rate of the same round."""
        return [p.per_second / e.per_second for e, p in zip(self.echo, self.pbem, strict=True)]


async def measure(workdir: Path, args: argparse.Namespace) -> tuple[list[Row], Rounds]:
    """Every measurement, on two sets of fresh embedded servers in this process: the raw
    rates, then ``--rounds`` rounds of (echo bare, echo intake, pbem) at full speed, so that
    a slow spell of the machine weighs on both sides alike, then the paced runs and pbem idle."""
    async with EmbeddedMailServers() as raw, EmbeddedMailServers() as served:
        rows = [row for row in await measure_imap(raw, args.n) if row.name != "IMAP FETCH all"]
        rows.append(await measure_smtp(raw, args.n))
        await served.add_user(GM)
        db = open_database(str(workdir / "pbem.db"))
        try:
            daemon = MailDaemon(db, imap=ImapUrl.parse(served.imap_url(GM)),
                                smtp=SmtpUrl.parse(served.smtp_url()), address=GM)
            warmup, mails = split_at(WARMUP, prepare_games(daemon, WARMUP + args.n * args.rounds + args.paced,
                                                           auth=args.auth, resolve=args.resolve))
            tune_gc_for_serving()  # as pbem serve does once the daemon is set up
            stop = asyncio.Event()
            task = asyncio.create_task(daemon.run(stop))
            try:
                await asyncio.sleep(0.3)  # logged in and idle
                # Not measured: the first mails build the order grammar's parser, statement caches, ...
                await measure_echo(raw, bare_echo, "warm-up", WARMUP, address="warm-up@bench.test")
                await send_orders(served, "warm-up", warmup, rate=None, timeout=args.timeout)
                rounds = Rounds([], [])
                for number in range(args.rounds):
                    tag = f"r{number}"
                    rounds.echo.append(await measure_echo(raw, bare_echo, "echo bare", args.n, timeout=args.timeout,
                                                          address=f"bare-{tag}@bench.test"))
                    intake = await measure_echo(raw, intake_echo(), "echo intake", args.n, timeout=args.timeout,
                                                address=f"intake-{tag}@bench.test")
                    batch = mails[number * args.n : (number + 1) * args.n]
                    rounds.pbem.append(await send_orders(served, "pbem", batch, rate=None, timeout=args.timeout))
                    for row in (rounds.echo[-1], intake, rounds.pbem[-1]):
                        row.note = f"round {number + 1}{', ' if row.note else ''}{row.note}"
                        rows.append(row)
                    await asyncio.sleep(0.3)
                rows.append(await measure_echo(raw, bare_echo, "echo bare", args.paced, rate=args.rate,
                                               timeout=args.timeout, address="bare-paced@bench.test"))
                rows.append(await send_orders(served, "pbem", mails[args.n * args.rounds :], rate=args.rate,
                                              timeout=args.timeout))
                rows.append(await measure_idle(daemon, IDLE_SECONDS))
            finally:
                stop.set()
                await asyncio.wait_for(task, 15)
        finally:
            db.close()
    return rows, rounds


def verdict(rows: Sequence[Row], rounds: Rounds) -> str:
    """The comparison with the bare echo pipeline and the targets, as text."""
    paced = {row.name: row for row in rows if "paced" in row.note}
    bare_paced, pbem_paced = paced["echo bare"], paced["pbem"]
    ratios = rounds.ratios()
    ratio = statistics.median(ratios)
    median, p99 = pbem_paced.latency_ms(0.5), pbem_paced.latency_ms(0.99)
    best_echo = max(row.per_second for row in rounds.echo)
    best_pbem = max(row.per_second for row in rounds.pbem)

    def cpu(rows: Sequence[Row]) -> float:
        return statistics.median(row.cpu / max(1, row.count) * 1000 for row in rows)

    return "\n".join([
        f"pbem full rate / echo bare rate, round by round: {', '.join(f'{r:.2f}' for r in ratios)}; "
        f"median {ratio:.2f} (target >= 0.5: {'met' if ratio >= 0.5 else 'NOT met'}); "
        f"best of each {best_pbem:.1f} / {best_echo:.1f} = {best_pbem / best_echo:.2f}",
        f"pbem paced median {median:.1f} ms (echo bare {bare_paced.latency_ms(0.5):.1f} ms; target <= 100: "
        f"{'met' if median <= 100 else 'NOT met'}), p99 {p99:.1f} ms (echo bare "
        f"{bare_paced.latency_ms(0.99):.1f} ms; target <= 1000: {'met' if p99 <= 1000 else 'NOT met'})",
        f"CPU per mail at full speed, median of the rounds: pbem {cpu(rounds.pbem):.2f} ms, "
        f"echo bare {cpu(rounds.echo):.2f} ms",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=200, help="mails at full speed (default 200)")
    parser.add_argument("--paced", type=int, default=100, help="mails in the paced runs (default 100)")
    parser.add_argument("--rate", type=float, default=10.0, help="mails per second when paced (default 10)")
    parser.add_argument("--auth", choices=("token", "signon"), default="token",
                        help="reply to the seat's reply address (default) or SIGNON with the password")
    parser.add_argument("--resolve", choices=("deadline", "early"), default="deadline",
                        help="deadline (default): no turn resolves during the run; early: each game "
                             "resolves once its four seats sent orders")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the last replies")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of echo and pbem at full speed, alternating (default 3)")
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the whole run to FILE")
    args = parser.parse_args()
    if not (0 < args.n <= 5000 and 0 < args.paced <= 5000 and 0 < args.rate <= 1000 and 0 < args.rounds <= 10):
        parser.error("-n and --paced must be 1..5000, --rate 0..1000, --rounds 1..10")
    logging.basicConfig(level=logging.ERROR)
    started = time.perf_counter()
    profiler = cProfile.Profile() if args.profile else None
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        if profiler is not None:
            profiler.enable()
        tune_gc_for_serving()
        rows, rounds = asyncio.run(measure(Path(tmp), args))
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
    print(format_rows(rows))
    print(verdict(rows, rounds))
    print(f"(auth {args.auth}, resolve {args.resolve}; total {time.perf_counter() - started:.1f}s)")


if __name__ == "__main__":
    main()
