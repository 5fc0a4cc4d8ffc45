"""Picture benchmarks: pictures drawn per second (SVG, and PNG made from it) per game, and the CPU a
picture adds to one turn report.

Prints numbers only; no assertions. Usage:

    python bench/bench_pictures.py [--seconds 1.0] [--states 12] [--rounds 5]

Target (issue 14): a turn report with its picture (text and HTML rendered,
SVG drawn, PNG rendered, mail composed) costs at most twice the CPU of one
without (text and HTML rendered, mail composed). CPU is process time; the
reports with and without pictures are timed in alternating rounds and the
median round is printed, so a neighbour's load on a shared machine tilts
neither side. Pictures are timed in a warm process, as in the daemon: the
masks of a board's pieces and its labels are made once per process.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from datetime import UTC, datetime
from statistics import median
from typing import Any

from pbem.core import Game, GameRng
from pbem.games import GAMES, find_game
from pbem.mail.compose import BinaryPart, compose_report
from pbem.pictures import draw_svg, picture
from pbem.raster import svg_to_png
from pbem.reports import PictureRef, ReportInput, render_report


def sample_states(game: Game[Any, Any], count: int, seed: int = 7) -> tuple[tuple[str, ...], list[Any]]:
    """Return the seats and ``count`` states spread over one random game at the most players."""
    seats = game.seat_names(game.max_players)
    rng, robots = GameRng(seed), GameRng(seed + 1)
    state = game.setup(seats, {}, rng)
    states = [state]
    for _ in range(5_000):
        if game.outcome(state) is not None:
            break
        phase = game.phase(state)
        orders = {s: (game.forced_orders(state, s) or game.sample_orders(state, s, robots)) for s in phase.seats}
        state = game.resolve(state, orders, rng).state
        states.append(state)
    step = max(1, len(states) // count)
    return seats, states[::step][:count]


def rate(work: Callable[[int], object], items: int, seconds: float) -> float:
    """Calls per CPU second of ``work(i)`` for i in 0..items-1 repeated, for about ``seconds``."""
    work(0)  # warm up
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for i in range(items):
            work(i)
        done += items
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--states", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    now = datetime.now(UTC)
    print(f"{'game':18} {'SVG/s':>8} {'PNG/s':>8} {'PNG KB':>7} {'report ms':>10} {'+picture ms':>12} {'ratio':>6}")
    for kind in sorted(GAMES):
        game = find_game(kind)
        seats, states = sample_states(game, args.states)
        cases = [(state, seats[i % len(seats)]) for i, state in enumerate(states)]
        views = [game.view(state, seat) for state, seat in cases]
        svgs = [draw_svg(game, view, seat) for view, (_, seat) in zip(views, cases, strict=True)]
        svg_rate = rate(lambda i: draw_svg(game, views[i], cases[i][1]), len(cases), args.seconds)
        png_rate = rate(lambda i: svg_to_png(svgs[i]), len(cases), args.seconds)
        png_kb = max(len(svg_to_png(svg)) for svg in svgs) / 1000
        reports = [ReportInput("g-1", game, state, 3, [], [], None if game.outcome(state) else game.phase(state),
                               game.outcome(state)) for state, _ in cases]

        def plain(i: int) -> object:
            seat = cases[i][1]
            return compose_report(game="g-1", turn=3, to="a@example.org", from_address="gm@example.org",
                                  body=render_report(reports[i], seat), html=render_report(reports[i], seat, html=True),
                                  now=now)

        def pictured(i: int) -> object:
            seat = cases[i][1]
            drawn = picture(game, game.view(cases[i][0], seat), seat)
            ref = PictureRef("cid:board@example.org", drawn.alt, drawn.width, drawn.height)
            return compose_report(game="g-1", turn=3, to="a@example.org", from_address="gm@example.org",
                                  body=render_report(reports[i], seat),
                                  html=render_report(reports[i], seat, html=True, picture=ref), now=now,
                                  inline=(BinaryPart("board.png", "image/png", drawn.png, "board@example.org"),))

        rounds = [(1000 / rate(plain, len(cases), args.seconds / args.rounds),
                   1000 / rate(pictured, len(cases), args.seconds / args.rounds)) for _ in range(args.rounds)]
        without = median(plain_ms for plain_ms, _ in rounds)
        with_picture = median(pictured_ms for _, pictured_ms in rounds)
        print(f"{kind:18} {svg_rate:8.0f} {png_rate:8.0f} {png_kb:7.1f} {without:10.2f} "
              f"{with_picture - without:12.2f} {with_picture / without:6.2f}")


if __name__ == "__main__":
    main()
