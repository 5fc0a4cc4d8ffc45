"""League benchmarks: the slowest seating of a Swiss round and of a round robin at larger tables, and the
standings with ratings, for a league of many players after several rounds.

Prints numbers only; no assertions. Usage:

    python bench/bench_leagues.py [--players 200] [--rounds 8]

What it shows: seating a round is bounded work (pbem.leagues.pairing.SEARCH_WORK), done in the unit
that ends a round's last game, so it must stay well under a second at the largest league.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from random import Random

from pbem.leagues.pairing import meetings_of, round_robin, swiss
from pbem.leagues.ratings import rate
from pbem.leagues.results import Place, Points, ResultKind
from pbem.leagues.standings import TableResult, standings


def main() -> None:
    """Print the slowest round's seating time per format and table size, and the standings' time."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    players = list(range(1, args.players + 1))
    for size in (2, 4, 9):
        for name in ("swiss", "roundrobin"):
            shuffle, met, results, worst = Random(size), Counter(), [], 0.0
            order = list(players)
            for number in range(1, args.rounds + 1):
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


if __name__ == "__main__":
    main()
