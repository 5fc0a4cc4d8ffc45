"""Scoring: who chooses the toe-sap values, what the choices are worth, who wins.

Every "most ..." question (most cows, most shells, most points) is settled the
same way: the highest count, then the most collected toe-sap stones, then the
seat later in the turn order.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from pbem.games.toe_sap_fungus.orders import RankOrder, ValueOrder
from pbem.games.toe_sap_fungus.state import COLOURS, Player, ToeSapState

TOP_VALUE = 5
RANK_VALUES: tuple[int, ...] = (3, 2, 1)


def leader(state: ToeSapState, count: Callable[[Player], int]) -> str:
    """Return the seat with the highest ``count``; ties: most collected stones, then later turn position."""
    best = max(state.players, key=lambda p: (count(p), p.collected_total, state.turn_position(p.seat)))
    return best.seat


def cow_leader(state: ToeSapState) -> str:
    """Return the seat that chooses the colour worth 5 (most cows, ties broken as in :func:`leader`)."""
    return leader(state, lambda p: p.cows)


def shell_leader(state: ToeSapState) -> str:
    """Return the seat that orders the other colours (most shells, ties broken as in :func:`leader`)."""
    return leader(state, lambda p: p.shells)


def colour_values(top: str, rest: tuple[str, ...]) -> dict[str, int]:
    """Return colour -> points for ``top`` worth 5 and ``rest`` worth 3, 2, 1."""
    values = {top: TOP_VALUE}
    values.update(zip(rest, RANK_VALUES, strict=True))
    return values


def points(player: Player, values: dict[str, int]) -> int:
    """Return the points of the player's collected toe-sap under ``values``."""
    return sum(n * values.get(colour, 0) for colour, n in zip(COLOURS, player.collected, strict=True))


def final_values(state: ToeSapState) -> dict[str, int] | None:
    """Return the colour values once both VALUE and ORDER are chosen, else None."""
    if state.value_colour is None or state.order_colours is None:
        return None
    return colour_values(state.value_colour, state.order_colours)


def winner(state: ToeSapState) -> str:
    """Return the hero: most points, ties broken as in :func:`leader`.

    Raises ValueError when the values are not chosen yet.
    """
    values = final_values(state)
    if values is None:
        raise ValueError("the toe-sap values are not chosen yet")
    return leader(state, lambda p: points(p, values))


def other_colours(top: str) -> tuple[str, ...]:
    """Return the three colours other than ``top``, in colour order."""
    return tuple(c for c in COLOURS if c != top)


def value_choices() -> list[ValueOrder]:
    """Return every VALUE order, in colour order."""
    return [ValueOrder(c) for c in COLOURS]


def rank_choices(top: str) -> list[RankOrder]:
    """Return every ORDER order once ``top`` is worth 5, in lexicographic colour order."""
    return [RankOrder(p) for p in permutations(other_colours(top))]


def best_rank(player: Player, top: str) -> RankOrder:
    """Return the ORDER that maximises ``player``'s points; ties: first in colour order."""
    choices = rank_choices(top)
    return max(choices, key=lambda o: (points(player, colour_values(top, o.colours)), -choices.index(o)))


def best_value(player: Player) -> ValueOrder:
    """Return the VALUE that maximises ``player``'s best reachable points (the other
    colours then ordered in his favour); ties: first in colour order.

    This is the colour of which he collected the most stones.
    """
    choices = value_choices()

    def reach(order: ValueOrder) -> int:
        rank = best_rank(player, order.colour)
        return points(player, colour_values(order.colour, rank.colours))

    return max(choices, key=lambda o: (reach(o), -choices.index(o)))
