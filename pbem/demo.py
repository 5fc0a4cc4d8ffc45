"""The offline demo: robot players play a whole game through the same path as ``pbem orders``."""

from __future__ import annotations

from typing import TextIO

from pbem.core import GameRng
from pbem.games import find_game
from pbem.turns import GAME_NAME, TurnRunner

MAX_DEMO_TURNS = 2_000


def robot_orders(runner: TurnRunner, game_name: str, seat: str, rng: GameRng) -> str:
    """Return the order text a robot sends for ``seat``: a random legal submission."""
    info = runner.info(game_name)
    orders = info.game.sample_orders(info.state, seat, rng)
    return "\n".join(str(order) for order in orders) + "\n"


def _free_name(runner: TurnRunner, kind: str) -> str:
    """Return the first free ``demo-KIND-N``, or ``demo-K-N`` from the kind's initials
    where that name would be too long for a game name."""
    taken = {row.name.lower() for row in runner.games()}
    number = 1
    while True:
        name = f"demo-{kind}-{number}"
        if not GAME_NAME.fullmatch(name):
            name = f"demo-{''.join(word[:1] for word in kind.split('-'))}-{number}"
        if name.lower() not in taken:
            return name
        number += 1


def run_offline_demo(runner: TurnRunner, *, kind: str, seed: int, out: TextIO) -> int:
    """Create a game of ``kind`` with robot seats and play it to the end; return 0 when it ended.

    Each robot's orders go through :meth:`TurnRunner.submit` (what ``pbem
    orders`` calls); a line per turn and the final public report are printed.
    """
    game = find_game(kind)
    seats = game.seat_names(game.max_players)
    name = _free_name(runner, game.name)
    runner.create_game(
        game.name, name, seats={s: f"robot-{s.lower()}@demo.invalid" for s in seats}, seed=seed,
        options={"turn_hours": "0"},
    )
    robots = GameRng(seed)
    for _ in range(MAX_DEMO_TURNS):
        info = runner.info(name)
        if info.outcome is not None:
            break
        assert info.phase is not None
        for seat in info.phase.seats:
            result = runner.submit(name, seat, robot_orders(runner, name, seat, robots))
            if not result.is_clean:
                out.write(result.render())
        resolution = runner.resolve(name, reason="gm")
        scores = runner.state_json(name)["scores"]
        for turn in resolution.turns:
            out.write(f"turn {turn.record.turn:>3} resolved; scores: "
                      + ", ".join(f"{s}={v}" for s, v in scores.items()) + "\n")
    else:
        out.write(f"the demo stopped after {MAX_DEMO_TURNS} turns without an end\n")
        return 1
    last = runner.history(name)[-1].turn if runner.history(name) else 0
    out.write(f"\nThe game ended with turn {last}. The final position:\n\n" + runner.report_text(name, None))
    return 0
