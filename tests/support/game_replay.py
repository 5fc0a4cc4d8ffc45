"""Random play of a game from its seed, and replaying a game from its seed and the order text
each turn was resolved with."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.core import Game, GameRng
from pbem.orders import OrderParser

Turns = list[dict[str, list[str]]]


def random_game(game: Game[Any, Any], seats: Sequence[str], options: Mapping[str, str], seed: int, *,
                lazy: float = 0.0, max_steps: int = 5_000,
                check: Callable[[Any, Any], None] | None = None) -> tuple[list[Any], Turns]:
    """Play one game from ``seed`` to its end (or ``max_steps`` resolutions): forced plays where
    the game has them, else each owing seat's NMR default with probability ``lazy`` and a sampled
    submission otherwise, each checked by ``validate`` first. ``check(new, old)`` runs after every
    resolution. Returns every state, the first included, and each turn's order text."""
    rng, robot = GameRng(seed), GameRng(seed + 1)
    state = game.setup(seats, options, rng)
    states, turns = [state], []
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            break
        orders = {}
        for seat in game.phase(state).seats:
            forced = game.forced_orders(state, seat)
            if forced is not None:
                orders[seat] = list(forced)
            elif robot.random() < lazy:
                orders[seat] = list(game.default_orders(state, seat))
            else:
                orders[seat] = list(game.sample_orders(state, seat, robot))
            assert game.validate(state, seat, orders[seat]) == [], (seat, [str(o) for o in orders[seat]])
        turns.append({seat: [str(o) for o in given] for seat, given in orders.items()})
        new = game.resolve(state, orders, rng).state
        if check is not None:
            check(new, state)
        states.append(new)
        state = new
    return states, turns


def replay_states(game: Game[Any, Any], parser: OrderParser, seed: int, seats: Sequence[str],
                  options: Mapping[str, str], turns: Sequence[Mapping[str, Sequence[str]]]) -> list[Any]:
    """Set the game up from ``seed`` and resolve each turn's order text again; return the starting
    state and the state after every turn."""
    rng = GameRng(seed)
    state = game.setup(seats, options, rng)
    states = [state]
    for turn in turns:
        orders = {seat: parser.parse("\n".join(lines)).orders for seat, lines in turn.items()}
        state = game.resolve(state, orders, rng).state
        states.append(state)
    return states


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
    states = replay_states(game, parser, seed, game.seat_names(players), options or {}, turns)
    return [game.dump(state) for state in states]
