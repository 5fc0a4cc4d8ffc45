"""Replaying a game from its seed and the order text each turn was resolved with."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import Game, GameRng
from pbem.orders import OrderParser


def replay_dumps(
    game: Game[Any, Any],
    parser: OrderParser,
    seed: int,
    players: int,
    turns: Sequence[Mapping[str, Sequence[str]]],
    options: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Set the game up from ``seed`` (with creator ``options``) and resolve each turn's order text
    again; return the dump of the starting state and of the state after every turn."""
    rng = GameRng(seed)
    state = game.setup(game.seat_names(players), options or {}, rng)
    dumps = [game.dump(state)]
    for turn in turns:
        orders = {seat: parser.parse("\n".join(lines)).orders for seat, lines in turn.items()}
        state = game.resolve(state, orders, rng).state
        dumps.append(game.dump(state))
    return dumps
