"""End-to-end benchmark of the game master by mail, next to the raw rates of the same servers.

Prints numbers only; everything runs on 127.0.0.1. Usage:

    python bench/bench_mail.py [-n 200] [--rounds 3] [--paced 100] [--rate 10]
                               [--auth token|signon] [--resolve deadline|early]
                               [--servers process|inline] [--profile FILE]

In one run, on two sets of fresh embedded servers (pymap IMAP + aiosmtpd SMTP),
one for the echo pipelines and one for pbem. With ``--servers process``
(default) each set runs with its players in a process of its own
(bench/mail_world.py), as a deployment's mail servers and players do, so the
measured process holds only the responder (echo or pbem) and the CPU per
mail is the responder's alone; ``--servers inline`` runs them in this
process, as this benchmark did before (the responder is then charged with
the servers' and players' work, and shares the interpreter lock with them).
The raw IMAP and SMTP rows always use servers in this process.

* the raw rates of bench/mail_raw.py: IMAP APPEND, IMAP FETCH, SMTP send, and
  the bare echo pipeline (IDLE, fetch, parse, reply by SMTP; nothing else)
  and the same with pbem's intake, at full speed and (echo bare) paced;
* floor: the bare echo pipeline plus the least work any game master must add for an order mail
  (bench/mail_floor.py: store it, check the reply address, parse and check the orders, store them
  and the reply in one commit, mark the reply sent; raw sqlite3, no ORM, no thread): its CPU per
  mail over the echo's bounds from below what any such responder can reach;
* pbem: the real daemon (:class:`pbem.mail.running.daemon.MailDaemon`, default
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
runs go in ``--rounds`` rounds of echo bare, echo intake, floor and pbem, one after
the other, after 20 unmeasured mails each side (the first mails build the
order parser and the statement caches), and the verdict takes the median of
the rounds' pbem/echo ratios:
this machine's speed drifts by a third from minute to minute, and one pair
of runs a minute apart can land on either side of the target. pbem paced:
``--paced`` more mails at ``--rate`` per second. With ``--resolve deadline``
(default) no turn resolves during the run, so each mail causes exactly one
mail, as in the echo pipeline; ``--resolve early`` resolves each game once its
four seats sent orders, adding four turn reports per game to the load. pbem
idle: the CPU this process (the daemon, and the servers with ``--servers
inline``) uses afterwards with no mail (count = the intake's IDLE rechecks).
The whole run uses the garbage-collector settings of ``pbem serve``
(:func:`pbem.mail.running.daemon.tune_gc_for_serving`). ``--profile FILE`` writes a
cProfile of the event loop's thread to FILE and one of the daemon's worker
thread, where all its database work runs (storing and handling each mail,
queueing and marking its reply), to FILE.worker: a profile of one thread sees
nothing of the other.

The mail world's line (``--servers process``): the CPU the servers and players' process used for each
mail, and how busy it was over the round (its CPU over the round's wall time). At full speed the echo
keeps that process busy all the time (95 to 100% on a 2-core machine): the world, not the echo, sets the
echo's rate. It costs the world about as much per mail to serve pbem as the echo (though pbem's reply is longer),
so pbem's rate over the echo's follows how busy pbem keeps the world next to the echo: the world waits
while pbem handles mail and none of pbem's replies is on its way to it.

Targets: pbem full at least 0.8 of echo bare's rate (median of the rounds)
and at most 2.0 times the floor's CPU per mail (issue "The mail floor as one
pipeline": the floor, not the echo, is the yardstick since the floor showed
that 1.3 times the echo cannot be had with what pbem promises); paced at
10/s a median reply latency of at most 100 ms and a 99th percentile of at
most 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import logging
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mail_raw import Row, bare_echo, format_rows, intake_echo, measure_echo, measure_imap, measure_smtp  # noqa: E402
from mail_floor import FloorResponder  # noqa: E402
from mail_world import Letter, MailWorld, send_letters  # noqa: E402

from pbem.core import GameRng  # noqa: E402
from pbem.games import find_game  # noqa: E402
from pbem.mail.outbound.config import ImapUrl, SmtpUrl  # noqa: E402
from pbem.mail.running.daemon import MailDaemon, tune_gc_for_serving  # noqa: E402
from pbem.sandbox.embedded import EmbeddedMailServers  # noqa: E402
from pbem.sandbox.mailclient import plain_mail  # noqa: E402
from pbem.store import open_database  # noqa: E402

GM = "gm@pbem.bench"
KIND = "turkey-chase"
ACCEPTED = b"Your orders v"
IDLE_SECONDS = 3.0
WARMUP = 20  # mails each side handles before the measured rounds


def split_at(index: int, items: list[Letter]) -> tuple[list[Letter], list[Letter]]:
    """``items[:index]`` and ``items[index:]``."""
    return items[:index], items[index:]


def prepare_games(daemon: MailDaemon, count: int, *, auth: str, resolve: str, seed: int = 1) -> list[Letter]:
    """Create enough four-seat Turkey Chase games for ``count`` seats (started, one player
    address per seat) and return one order mail per seat, in seat order game by game."""
    game = find_game(KIND)
    rng = GameRng(seed)
    mails: list[Letter] = []
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
            mails.append(Letter(seat.address, to, message.as_bytes()))
    return mails[:count]


async def send_orders(servers: EmbeddedMailServers | MailWorld, name: str, mails: Sequence[Letter], *,
                      rate: float | None, timeout: float) -> Row:
    """Send ``mails`` over one SMTP connection (at ``rate`` per second, or at full speed) and
    wait (at most ``timeout`` s after the last send) for each player's reply; the row's note
    says how many replies accepted the orders."""
    timing = await send_letters(servers, mails, rate=rate, timeout=timeout, accepted=ACCEPTED)
    note = f"{timing.accepted}/{len(mails)} accepted"
    if len(timing.latencies) < len(mails):
        note += f", only {len(timing.latencies)} replies in {timeout:g}s"
    if rate is not None:
        note = f"paced {rate:g}/s, {note}"
    return Row(name, len(timing.latencies), timing.seconds, timing.cpu, timing.latencies, note, timing.world_cpu)


async def measure_idle(daemon: MailDaemon, seconds: float) -> Row:
    """CPU this process (the running daemon, and the servers when they run here) uses without mail for
    ``seconds``; count = IMAP searches the intake made meanwhile (one per idle recheck)."""
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
    floor: list[Row]
    """The floor's rows (bench/mail_floor.py): the echo plus the least work a game master must add."""

    def ratios(self) -> list[float]:
        """pbem's rate over the bare echo rate of the same round."""
        return [p.per_second / e.per_second for e, p in zip(self.echo, self.pbem, strict=True)]


async def measure(workdir: Path, args: argparse.Namespace) -> tuple[list[Row], Rounds]:
    """Every measurement: the raw rates (servers in this process), then, on two sets of fresh
    embedded servers (in this process or each in a process of its own, see ``--servers``),
    ``--rounds`` rounds of (echo bare, echo intake, pbem) at full speed, so that a slow spell
    of the machine weighs on both sides alike, then the paced runs and pbem idle."""
    async with EmbeddedMailServers() as local:
        rows = [row for row in await measure_imap(local, args.n) if row.name != "IMAP FETCH all"]
        rows.append(await measure_smtp(local, args.n))
    inline = args.servers == "inline"
    async with (EmbeddedMailServers() if inline else MailWorld()) as raw, \
            (EmbeddedMailServers() if inline else MailWorld()) as served:
        await served.add_user(GM)
        db = open_database(str(workdir / "pbem.db"))
        try:
            daemon = MailDaemon(db, imap=ImapUrl.parse(served.imap_url(GM)),
                                smtp=SmtpUrl.parse(served.smtp_url()), address=GM)
            warmup, mails = split_at(WARMUP, prepare_games(daemon, WARMUP + args.n * args.rounds + args.paced,
                                                           auth=args.auth, resolve=args.resolve))
            tune_gc_for_serving()  # as pbem serve does once the daemon is set up
            worker_profiler = cProfile.Profile() if args.profile else None
            if worker_profiler is not None:  # the database work runs in the daemon's worker thread
                await daemon.in_worker(worker_profiler.enable)
            stop = asyncio.Event()
            task = asyncio.create_task(daemon.run(stop))
            try:
                await asyncio.sleep(0.3)  # logged in and idle
                # Not measured: the first mails build the order grammar's parser, statement caches, ...
                await measure_echo(raw, bare_echo, "warm-up", WARMUP, address="warm-up@bench.test")
                await send_orders(served, "warm-up", warmup, rate=None, timeout=args.timeout)
                floor = FloorResponder(workdir / "floor.db")
                rounds = Rounds([], [], [])
                for number in range(args.rounds):
                    tag = f"r{number}"
                    rounds.echo.append(await measure_echo(raw, bare_echo, "echo bare", args.n, timeout=args.timeout,
                                                          address=f"bare-{tag}@bench.test"))
                    intake = await measure_echo(raw, intake_echo(), "echo intake", args.n, timeout=args.timeout,
                                                address=f"intake-{tag}@bench.test")
                    rounds.floor.append(await measure_echo(
                        raw, functools.partial(bare_echo, respond=floor.respond, sent=floor.sent), "floor", args.n,
                        timeout=args.timeout, address=f"floor-{tag}@bench.test", make_letters=floor.letters))
                    batch = mails[number * args.n : (number + 1) * args.n]
                    rounds.pbem.append(await send_orders(served, "pbem", batch, rate=None, timeout=args.timeout))
                    for row in (rounds.echo[-1], intake, rounds.floor[-1], rounds.pbem[-1]):
                        row.note = f"round {number + 1}{', ' if row.note else ''}{row.note}"
                        rows.append(row)
                    await asyncio.sleep(0.3)
                floor.close()
                rows.append(await measure_echo(raw, bare_echo, "echo bare", args.paced, rate=args.rate,
                                               timeout=args.timeout, address="bare-paced@bench.test"))
                rows.append(await send_orders(served, "pbem", mails[args.n * args.rounds :], rate=args.rate,
                                              timeout=args.timeout))
                rows.append(await measure_idle(daemon, IDLE_SECONDS))
                if worker_profiler is not None:
                    await daemon.in_worker(worker_profiler.disable)
                    worker_profiler.dump_stats(f"{args.profile}.worker")
            finally:
                stop.set()
                await asyncio.wait_for(task, 15)
        finally:
            db.close()
    return rows, rounds


RATE_TARGET = 0.8
"""pbem's full-speed rate over the bare echo pipeline's, at least (issue "The mail floor as one pipeline")."""
FLOOR_TARGET = 2.0
"""pbem's CPU per mail over the floor's (bench/mail_floor.py), at most."""


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

    def world(rows: Sequence[Row]) -> str:
        measured = [(row.world_cpu, row) for row in rows if row.world_cpu is not None and row.count and row.seconds]
        if not measured:
            return "not measured (servers inline)"
        per_mail = statistics.median(used / row.count * 1000 for used, row in measured)
        busy = statistics.median(used / row.seconds * 100 for used, row in measured)
        return f"{per_mail:.2f} ms a mail, busy {busy:.0f}% of the run"

    cpu_ratio = cpu(rounds.pbem) / max(cpu(rounds.echo), 1e-9)
    floor_ratio = cpu(rounds.floor) / max(cpu(rounds.echo), 1e-9)
    over_floor = cpu(rounds.pbem) / max(cpu(rounds.floor), 1e-9)
    return "\n".join([
        f"pbem full rate / echo bare rate, round by round: {', '.join(f'{r:.2f}' for r in ratios)}; "
        f"median {ratio:.2f} (target >= {RATE_TARGET}: {'met' if ratio >= RATE_TARGET else 'NOT met'}); "
        f"best of each {best_pbem:.1f} / {best_echo:.1f} = {best_pbem / best_echo:.2f}",
        f"pbem paced median {median:.1f} ms (echo bare {bare_paced.latency_ms(0.5):.1f} ms; target <= 100: "
        f"{'met' if median <= 100 else 'NOT met'}), p99 {p99:.1f} ms (echo bare "
        f"{bare_paced.latency_ms(0.99):.1f} ms; target <= 1000: {'met' if p99 <= 1000 else 'NOT met'})",
        f"CPU per mail at full speed, median of the rounds: pbem {cpu(rounds.pbem):.2f} ms, "
        f"echo bare {cpu(rounds.echo):.2f} ms: {cpu_ratio:.2f}x",
        f"the floor (bench/mail_floor.py: the least work a game master adds to the echo for an order mail), "
        f"median of the rounds: {cpu(rounds.floor):.2f} ms, {floor_ratio:.2f}x the echo's CPU; pbem "
        f"{over_floor:.2f}x the floor's (target <= {FLOOR_TARGET}x: "
        f"{'met' if over_floor <= FLOOR_TARGET else 'NOT met'})",
        f"the mail world (servers and players), median of the rounds: with echo bare {world(rounds.echo)}; "
        f"with pbem {world(rounds.pbem)}",
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
    parser.add_argument("--servers", choices=("process", "inline"), default="process",
                        help="the mail servers and players in a process of their own (default) or in this one")
    parser.add_argument("--profile", metavar="FILE",
                        help="write a cProfile of the whole run to FILE (the event loop's thread) and one of "
                             "the daemon's worker thread (the database work: storing and handling the mail, "
                             "queueing and marking the replies) to FILE.worker")
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
    print(f"(auth {args.auth}, resolve {args.resolve}, servers {args.servers}; load average "
          f"{' '.join(f'{load:.2f}' for load in os.getloadavg())}; total {time.perf_counter() - started:.1f}s)")


if __name__ == "__main__":
    main()
