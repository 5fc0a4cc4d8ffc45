"""Picture benchmarks: pictures drawn per second (SVG, and PNG made from it) per game, and the CPU the
pictures add to the turn reports of a resolution.

Prints numbers only; no assertions. Usage:

    python bench/bench_pictures.py [--seconds 0.5] [--states 8] [--rounds 5] [--games KIND,...]

Target (issue 14): a turn report with its picture costs at most twice the
CPU of one without.

Per picture (one row per game, at its most players): the board drawn from
the public view (SVG/s) and made PNG (PNG/s) per CPU second and the largest
board PNG; for a game with secrets, the seats' own pictures made per CPU
second (own/s: the seat's view, its SVG and its PNG) and the largest of them.

Per report (one row per game and player count, its fewest and its most):
what a real resolution costs per mailed report. The reports of sampled
states of random play are queued by the service's own
:class:`pbem.mail.outbound.notices.MailNotifier` (``send_report``: every seat's
report and the GM's, text and HTML rendered, the board drawn and made PNG
once and every seat's own picture, as a resolution does,
mails composed and inserted in the outbox of a real SQLite database, in one
unit of work that is rolled back afterwards), and the CPU of a whole
resolution is divided by its readers (every seat and the GM). "without" is
the same notifier with pictures left out. The two are timed in alternating
rounds and the median round is printed, so a neighbour's load on a shared
machine tilts neither side. Everything runs in a warm process with the
garbage-collector settings of ``pbem serve``, as in the daemon.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import median
from typing import Any

from pbem.clock import utcnow
from pbem.core import Game, GameRng
from pbem.games import GAMES, find_game
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.running.daemon import tune_gc_for_serving
from pbem.pictures import ReportPictures, board_svg, drawing_for, own_svg
from pbem.raster import svg_to_png
from pbem.reports import ReportInput
from pbem.service.api import GameService
from pbem.store import Database, open_database


def sample_states(game: Game[Any, Any], players: int, count: int, seed: int = 7) -> list[Any]:
    """Return ``count`` states spread over one random game of ``players`` players."""
    seats = game.seat_names(players)
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
    return states[::step][:count]


def rate(work: Callable[[int], object], items: int, seconds: float) -> float:
    """Calls per CPU second of ``work(i)`` for i in 0..items-1 repeated, for about ``seconds``."""
    work(0)  # warm up
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for i in range(items):
            work(i)
        done += items
    return done / (time.process_time() - start)


class _WithoutPictures(MailNotifier):
    """The service's notifier with the pictures left out: the reports as they were before pictures."""

    def _report_pictures(self, report: Any, row: Any) -> None:
        return None


def picture_row(kind: str, states: int, seconds: float) -> str:
    """The per-picture figures of ``kind`` at its most players."""
    game = find_game(kind)
    sampled = sample_states(game, game.max_players, states)
    views, draw = [game.view(state, None) for state in sampled], drawing_for(game).board
    svgs = [board_svg(game, state) for state in sampled]
    svg_rate = rate(lambda i: draw(views[i]), len(views), seconds)
    png_rate = rate(lambda i: svg_to_png(svgs[i]), len(svgs), seconds)
    png_kb = max(len(svg_to_png(svg)) for svg in svgs) / 1000
    row = f"{kind:22} {svg_rate:8.0f} {png_rate:8.0f} {png_kb:7.1f}"
    seats = game.seat_names(game.max_players)
    owns = [(state, seat) for state in sampled for seat in seats if own_svg(game, state, seat) is not None]
    if not owns:
        return row
    own_rate = rate(lambda i: ReportPictures(game, owns[i][0]).own(owns[i][1]), len(owns), seconds)
    own_kb = max(len(svg_to_png(own_svg(game, state, seat) or "")) for state, seat in owns) / 1000
    return f"{row} {own_rate:8.0f} {own_kb:7.1f}"


def report_row(db: Database, kind: str, players: int, states: int, seconds: float, rounds: int) -> str:
    """The per-report figures of ``kind`` at ``players`` players: ms per mailed report without and with pictures."""
    game = find_game(kind)
    service = GameService(db)
    name = f"g{len(service.snapshots())}"
    seats = {seat: f"player{seat.lower()}@example.org" for seat in game.seat_names(players)}
    service.create_game(kind, name, seats=seats, seed=7, gm_address="gm@example.org")
    reports = [ReportInput(name, game, state, 3, [], [], None if game.outcome(state) else game.phase(state),
                           game.outcome(state), deadline="2030-01-01 12:00 UTC") for state in
               sample_states(game, players, states)]
    readers = players + 1
    tokens = ReplyTokens(b"k" * 16)
    notifiers = [kind_of(address="gm@pbem.test", tokens=tokens, clock=utcnow, web_url="http://127.0.0.1:8080")
                 for kind_of in (_WithoutPictures, MailNotifier)]

    def per_report(notifier: MailNotifier) -> float:
        with service.unit() as unit:
            info = unit.info(name)
            ms = 1000 / rate(lambda i: notifier.send_report(unit, info, reports[i]), len(reports), seconds / rounds)
            unit.session.rollback()
        return ms / readers

    measured = [(per_report(notifiers[0]), per_report(notifiers[1])) for _ in range(rounds)]
    without = median(plain for plain, _ in measured)
    pictured = median(with_pictures for _, with_pictures in measured)
    return f"{kind:22} {players:7} {without:10.2f} {pictured:10.2f} {pictured - without:10.2f} {pictured / without:6.2f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--states", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", default=",".join(sorted(GAMES)), help="comma-separated game kinds")
    args = parser.parse_args(argv)
    kinds = [kind for kind in args.games.split(",") if kind]
    tune_gc_for_serving()
    print("Per picture (most players): the board; a seat's own picture (SVG and PNG)")
    print(f"{'game':22} {'SVG/s':>8} {'PNG/s':>8} {'PNG KB':>7} {'own/s':>8} {'own KB':>7}")
    for kind in kinds:
        print(picture_row(kind, args.states, args.seconds), flush=True)
    print("\nPer mailed report (a resolution's CPU over its readers: every seat and the GM)")
    print(f"{'game':22} {'players':>7} {'without ms':>10} {'with ms':>10} {'added ms':>10} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        db = open_database(str(Path(folder) / "bench.db"))
        for kind in kinds:
            game = find_game(kind)
            for players in sorted({game.min_players, game.max_players}):
                print(report_row(db, kind, players, args.states, args.seconds, args.rounds), flush=True)
        db.close()


if __name__ == "__main__":
    main()
