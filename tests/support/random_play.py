"""Random play of a game as the runner would drive it, for property tests.

Every owing seat gets its forced play, else (with probability ``nmr``) its NMR
default, else a random legal submission from ``sample_orders``; each chosen
submission and each NMR default must validate, and every state must survive
dump, JSON and load unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.core import Game, GameRng


@dataclass
class PlayedGame:
    """A game played to its end: every state (the first is the setup) and each step's order text."""

    seed: int
    players: int
    states: list[Any] = field(default_factory=list)
    texts: list[dict[str, list[str]]] = field(default_factory=list)

    @property
    def final(self) -> Any:
        """The last state."""
        return self.states[-1]


def play_randomly(
    game: Game[Any, Any],
    players: int,
    seed: int,
    robot_seed: int,
    *,
    nmr: float = 0.0,
    options: Mapping[str, str] | None = None,
    check: Callable[[Any, Any | None], None] | None = None,
    max_steps: int = 2_000,
) -> PlayedGame:
    """Play one game from ``seed`` to its end with robots seeded by ``robot_seed``.

    ``check(state, before)`` runs on every state (``before`` None for the setup).
    Fails the test when the game does not end within ``max_steps`` resolutions.
    """
    rng = GameRng(seed)
    robot = GameRng(robot_seed)
    state = game.setup(game.seat_names(players), options or {}, rng)
    played = PlayedGame(seed, players, [state])
    if check is not None:
        check(state, None)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return played
        orders: dict[str, list[Any]] = {}
        for seat in game.phase(state).seats:
            default = list(game.default_orders(state, seat))
            assert game.validate(state, seat, default) == [], (seat, [str(o) for o in default])
            forced = game.forced_orders(state, seat)
            if forced is not None:
                orders[seat] = list(forced)
            elif robot.random() < nmr:
                orders[seat] = default
            else:
                orders[seat] = list(game.sample_orders(state, seat, robot))
                assert game.validate(state, seat, orders[seat]) == [], (seat, [str(o) for o in orders[seat]])
        played.texts.append({seat: [str(o) for o in seat_orders] for seat, seat_orders in orders.items()})
        before, state = state, game.resolve(state, orders, rng).state
        assert game.load(json.loads(json.dumps(game.dump(state)))) == state
        if check is not None:
            check(state, before)
        played.states.append(state)
    raise AssertionError(f"{game.name} with {players} players did not end in {max_steps} steps")
