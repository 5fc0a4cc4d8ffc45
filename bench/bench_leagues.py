"""League benchmarks: the slowest seating of a Swiss round and of a round robin at larger tables, the
standings with ratings, for a league of many players after several rounds; and the league's work as the
daemon's clock takes it, in steps, for the largest league.

Prints numbers only; no assertions. Usage:

    python bench/bench_leagues.py [--players 200] [--rounds 8] [--engines sqlite,postgresql]

What it shows: pairing a round is bounded work (pbem.leagues.pairing.SEARCH_WORK), done in a step of
its own, so it must stay well under a second at the largest league. Then, on each engine, a league of
``--players`` members at tables of 2 (Top of the Temple) with the mail side queuing every mail as the
daemon does: the unit of LEAGUE START, then each step of the clock (pbem.service.league_steps: pairing a
round, creating its games 4 tables a step, the standings 10 members a step, ending the tables after
LEAGUE END), the slowest and the median step and the total, per phase, in time passed and in CPU time.
Each step is a unit of work the daemon does between two mails: it must stay well under the time budget
of one mail (2 s).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from random import Random

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))

from bench_scale import Engines  # noqa: E402  (the throw-away PostgreSQL server of the scale bench)

from pbem.clock import utcnow  # noqa: E402
from pbem.leagues.pairing import meetings_of, round_robin, swiss  # noqa: E402
from pbem.leagues.ratings import rate  # noqa: E402
from pbem.leagues.results import Place, Points, ResultKind  # noqa: E402
from pbem.leagues.standings import TableResult, standings  # noqa: E402
from pbem.mail.outbound.notices import MailNotifier  # noqa: E402
from pbem.mail.outbound.tokens import ReplyTokens  # noqa: E402
from pbem.service import leagues  # noqa: E402
from pbem.service.api import GameService  # noqa: E402
from pbem.service.deadlines import TurnClock  # noqa: E402
from pbem.store import open_database  # noqa: E402


def main() -> None:
    """Print the pairing and standings times, then the league steps' times on each engine."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--engines", default="sqlite", help="sqlite, postgresql or both, comma-separated")
    args = parser.parse_args()
    pairing_times(args.players, args.rounds)
    with tempfile.TemporaryDirectory() as workdir:
        engines = Engines(Path(workdir), args.engines.split(","))
        try:
            if engines.missing:
                print(engines.missing)
            for engine in engines.wanted:
                league_steps(engines.new(engine), engine, args.players)
        finally:
            engines.close()


def pairing_times(players_count: int, rounds: int) -> None:
    """Print the slowest round's seating time per format and table size, and the standings' time."""
    players = list(range(1, players_count + 1))
    for size in (2, 4, 9):
        for name in ("swiss", "roundrobin"):
            shuffle, met, results, worst = Random(size), Counter(), [], 0.0
            order = list(players)
            for number in range(1, rounds + 1):
                started = time.perf_counter()
                if name == "swiss":
                    seated = swiss(order, size=size, min_players=2, meetings=met)
                else:
                    seated = round_robin(players, number, size=size, min_players=2, meetings=met)
                worst = max(worst, time.perf_counter() - started)
                met += meetings_of(seated.tables)
                for index, table in enumerate(seated.tables):
                    winner = shuffle.choice(table)
                    results.append(TableResult(number, index, {p: Place(ResultKind.WIN if p == winner
                                                                         else ResultKind.LOSS) for p in table}))
                shuffle.shuffle(order)
            print(f"{name:<10} tables of {size}: slowest round seated in {worst * 1000:7.1f} ms")
    started = time.perf_counter()
    ratings = rate(players, results)
    standings(players, results, Points(), {p: r.ordinal for p, r in ratings.items()})
    print(f"standings and ratings of {len(results)} games: {(time.perf_counter() - started) * 1000:.1f} ms")


def league_steps(db_url: str, engine: str, players: int) -> None:
    """Time START and every clock step of a league of ``players`` at tables of 2, through round 2 and a
    LEAGUE END, with every mail queued (and rendered) as the daemon queues it."""
    db = open_database(db_url)
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow)
    runner.on_resolved.append(notifier.on_resolved)
    runner.on_news.append(notifier.on_news)
    clock = TurnClock(runner, notifier)
    with runner.unit() as unit:
        leagues.create_for_gm(unit, "big", "top-of-the-temple", {"table": "2", "rounds": "3"},
                              gm_address="gm@example.org")
        for number in range(players):
            leagues.join(unit, "big", f"player{number}@example.org")
    print(f"\n{engine}: a league of {players} at tables of 2, every mail queued as the daemon does")
    started = time.perf_counter()
    with runner.unit() as unit:
        tables = leagues.start(unit, "big")
    print(f"  LEAGUE START (the mail's own unit: started, {tables} tables to seat): "
          f"{(time.perf_counter() - started) * 1000:.0f} ms")
    _steps(clock, "round 1 seated")
    print(f"  {players} members seated, from START to the GM told: {time.perf_counter() - started:.1f} s")
    with runner.unit(lock=False) as unit:
        games = leagues.round_games(unit, "big")
    for game in games:  # the leaders win; the last one leaves the round's end to the clock
        runner.end(game)
    _steps(clock, "round 1 over: paired, standings mailed, round 2 seated")
    started = time.perf_counter()
    with runner.unit() as unit:
        leagues.end(unit, "big")
    print(f"  LEAGUE END (the mail's own unit): {(time.perf_counter() - started) * 1000:.0f} ms")
    _steps(clock, "LEAGUE END: tables ended, final standings mailed")
    db.close()


class _StepLog(logging.Handler):
    """Keeps what the clock logged that the last step did."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.last = record.getMessage()


def _steps(clock: TurnClock, what: str) -> None:
    """Take every due league step, each in its own unit; print the median and slowest step and the total,
    in time passed and in this process's CPU time (on a busy machine the second says more), and what the
    step of the most CPU did."""
    told = _StepLog()
    log = logging.getLogger("pbem.service.deadlines")
    log.setLevel(logging.INFO)
    log.addHandler(told)
    times, cpu, done = [], [], []
    while True:
        started, used = time.perf_counter(), time.thread_time()
        if not clock.step_league(utcnow()):
            break
        times.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - used)
        done.append(told.last[:70])
    log.removeHandler(told)
    print(f"  {what}: {len(times)} steps; per step median {_ms(times)} ms, slowest {max(times) * 1000:.0f} ms "
          f"(CPU median {_ms(cpu)} ms, most {max(cpu) * 1000:.0f} ms: {done[cpu.index(max(cpu))]}); "
          f"total {sum(times):.1f} s (CPU {sum(cpu):.1f} s)")


def _ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.0f}"


if __name__ == "__main__":
    main()
