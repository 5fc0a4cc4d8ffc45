"""Core benchmarks: order parsing (pbem's path vs bare lark) and turns resolved per second.

Prints numbers only; no assertions. Usage:

    python bench/bench_core.py [--kind turkey-chase] [--lines 20000] [--seconds 3]
    python bench/bench_core.py --baseline /path/to/other/checkout [--rounds 3]

With ``--baseline`` only the parsing figures are measured, for the pbem of another checkout (say a git
worktree of main: the figure before a change) and for this one, side by side: each in a process of its
own, alternately, ``--rounds`` times, the medians printed (the machine's load changes less between two
neighbouring runs than over a whole run of each).

Targets (issue 2): pbem's parsing at least 70% of bare lark LALR's rate, and
at least 5,000 Turkey Chase turns resolved per second on one core; issue 26: at least 90% when
submissions are parsed one by one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
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
    """Run ``work`` (returning units done) repeatedly for about ``seconds`` of this process's CPU time; return
    units per CPU second (the work is single-threaded: time spent waiting for the CPU on a loaded machine
    does not count)."""
    done = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        done += work()
        now = time.process_time()
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


def parsing_ratios(kind: str, lines: int, seed: int, seconds: float) -> dict[str, tuple[float, float]]:
    """pbem's and bare lark's parsing rates (lines per second) of order text of ``kind``: submissions one by
    one, and all of them as one text."""
    game = find_game(kind)
    texts = sample_texts(kind, lines, seed)
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

    figures = {}
    for label, ours_work, bare_work in (
        ("submissions one by one", ours_small, bare_small),
        ("one big text", lambda: (ours.parse(big_text), line_count)[1], lambda: (bare.parse(big_text), line_count)[1]),
    ):
        figures[label] = (rate(ours_work, seconds), rate(bare_work, seconds))
    return figures


def load_average() -> str:
    """The machine's load average, for the record beside the figures."""
    return "load average " + " ".join(f"{load:.2f}" for load in os.getloadavg())


def compare_with(baseline: str, args: argparse.Namespace) -> None:
    """Print the parsing figures of the pbem at ``baseline`` and of this checkout side by side (see the
    module doc)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"baseline": os.path.abspath(baseline), "this checkout": here}
    runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            out = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--parsing-json", "--kind", args.kind, "--lines",
                 str(args.lines), "--seconds", str(args.seconds), "--seed", str(args.seed)],
                env={**os.environ, "PYTHONPATH": tree}, cwd=tree, capture_output=True, text=True, check=True)
            runs[name].append(json.loads(out.stdout))
    print(f"order parsing, {args.kind}: pbem's rate / bare lark LALR's, median of {args.rounds} rounds "
          "(each tree in a process of its own, alternately)")
    print(f"  {'':24s}" + "".join(f"{name + ' (' + tree + ')':>44s}" for name, tree in trees.items()))
    for label in runs["baseline"][0]:
        cells = []
        for name in trees:
            ratio = statistics.median(run[label][0] / run[label][1] for run in runs[name])
            ours = statistics.median(run[label][0] for run in runs[name])
            cells.append(f"{ratio:5.0%} (pbem {ours:8,.0f} lines/s)")
        print(f"  {label:24s}" + "".join(f"{cell:>44s}" for cell in cells))
    print(f"({load_average()})")


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="turkey-chase")
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--turns", type=int, default=2_000)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--baseline", help="another checkout of pbem: its parsing figures beside this one's")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each with --baseline (default 3)")
    parser.add_argument("--parsing-json", action="store_true", help=argparse.SUPPRESS)  # one round, for --baseline
    args = parser.parse_args()
    if args.parsing_json:
        figures = parsing_ratios(args.kind, args.lines, args.seed, args.seconds)
        print(json.dumps(figures))
        return
    if args.baseline:
        compare_with(args.baseline, args)
        return

    game = find_game(args.kind)
    figures = parsing_ratios(args.kind, args.lines, args.seed, args.seconds)
    texts = sample_texts(args.kind, args.lines, args.seed)
    print(f"order parsing, {args.kind}: {len(texts)} submissions, {sum(t.count(chr(10)) for t in texts)} lines")
    for label, (ours_rate, bare_rate) in figures.items():
        print(f"  {label:24s} pbem {ours_rate:10,.0f} lines/s   bare lark LALR {bare_rate:10,.0f} lines/s"
              f"   ratio {ours_rate / bare_rate:5.0%}")

    cases = resolve_cases(args.kind, args.seed, args.turns)

    def resolve_all() -> int:
        for state, orders, rng_state in cases:
            game.resolve(state, orders, GameRng.from_state(rng_state))
        return len(cases)

    turns_rate = rate(resolve_all, args.seconds)
    print(f"turn resolution, {args.kind}: {turns_rate:,.0f} turns/s over {len(cases)} recorded turns (one core)")
    print(f"({load_average()})")


if __name__ == "__main__":
    main()
