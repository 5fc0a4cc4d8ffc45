"""Core benchmarks: order parsing (pbem's path vs bare lark) and turns resolved per second.

Prints numbers only; no assertions. Usage:

    python bench/bench_core.py [--kind turkey-chase] [--lines 20000] [--seconds 3]

Targets (issue 2): pbem's parsing at least 70% of bare lark LALR's rate, and
at least 5,000 Turkey Chase turns resolved per second on one core.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from lark import Lark

from pbem.core import GameRng
from pbem.games import find_game
from pbem.orders import OrderParser
from pbem.resources import grammar_dir


def sample_texts(kind: str, lines: int, seed: int) -> list[str]:
    """Return submissions (order text) taken from random legal play, about ``lines`` lines in all."""
    game = find_game(kind)
    rng = GameRng(seed)
    texts: list[str] = []
    total = 0
    while total < lines:
        state = game.setup(game.seat_names(game.max_players), {}, rng)
        for _ in range(200):
            if game.outcome(state) is not None or total >= lines:
                break
            phase = game.phase(state)
            orders = {seat: game.sample_orders(state, seat, rng) for seat in phase.seats}
            for seat_orders in orders.values():
                if seat_orders:
                    texts.append("\n".join(str(o) for o in seat_orders) + "\n")
                    total += len(seat_orders)
            state = game.resolve(state, orders, rng).state
    return texts


def rate(work: Callable[[], int], seconds: float) -> float:
    """Run ``work`` (returning units done) repeatedly for about ``seconds``; return units per second."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += work()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def resolve_cases(kind: str, seed: int, turns: int) -> list[tuple[Any, dict[str, list[Any]], list[Any]]]:
    """Return (state, orders, rng state) triples from random games, to resolve again under the timer."""
    game = find_game(kind)
    rng = GameRng(seed)
    cases = []
    while len(cases) < turns:
        state = game.setup(game.seat_names(game.max_players), {}, rng)
        while game.outcome(state) is None and len(cases) < turns:
            phase = game.phase(state)
            orders = {seat: game.sample_orders(state, seat, rng) for seat in phase.seats}
            cases.append((state, orders, rng.get_state()))
            state = game.resolve(state, orders, rng).state
    return cases


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="turkey-chase")
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--turns", type=int, default=2_000)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    game = find_game(args.kind)
    texts = sample_texts(args.kind, args.lines, args.seed)
    line_count = sum(text.count("\n") for text in texts)
    big_text = "".join(texts)
    ours = OrderParser(game)
    bare = Lark.open(game.grammar, parser="lalr", cache=True, import_paths=[str(grammar_dir())])

    def ours_small() -> int:
        for text in texts:
            ours.parse(text)
        return line_count

    def bare_small() -> int:
        for text in texts:
            bare.parse(text)
        return line_count

    print(f"order parsing, {args.kind}: {len(texts)} submissions, {line_count} lines")
    for label, ours_work, bare_work in (
        ("submissions one by one", ours_small, bare_small),
        ("one big text", lambda: (ours.parse(big_text), line_count)[1], lambda: (bare.parse(big_text), line_count)[1]),
    ):
        ours_rate = rate(ours_work, args.seconds)
        bare_rate = rate(bare_work, args.seconds)
        print(f"  {label:24s} pbem {ours_rate:10,.0f} lines/s   bare lark LALR {bare_rate:10,.0f} lines/s"
              f"   ratio {ours_rate / bare_rate:5.0%}")

    cases = resolve_cases(args.kind, args.seed, args.turns)

    def resolve_all() -> int:
        for state, orders, rng_state in cases:
            game.resolve(state, orders, GameRng.from_state(rng_state))
        return len(cases)

    turns_rate = rate(resolve_all, args.seconds)
    print(f"turn resolution, {args.kind}: {turns_rate:,.0f} turns/s over {len(cases)} recorded turns (one core)")


if __name__ == "__main__":
    main()
