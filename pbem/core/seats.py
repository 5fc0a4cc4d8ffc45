"""Seats and the first player: the conventions every game shares.

Seats are numbered ``"1".."N"`` in turn order (:func:`numbered_seats`). The
first player is the first seat unless the game creator sets the option
``start``: a seat name (that seat plays first) or ``random`` (the first player
is drawn from the game's seeded RNG). :func:`first_player` reads that option;
a game that offers it lists ``{START: START_DESCRIPTION}`` in its ``options()``.

Rules that differ in later rounds (e.g. the lowest score starts the next round)
stay in the game: this module only decides who begins the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pbem.core.errors import GameError
from pbem.core.rng import GameRng

START: Final = "start"
"""The name of the creator option that chooses the first player."""

RANDOM: Final = "random"
"""The value of :data:`START` that draws the first player."""

START_DESCRIPTION: Final = "who plays first: a seat such as 2 (default: seat 1), or random (drawn at setup)"
"""The description of :data:`START` for a game's ``options()``."""


def numbered_seats(title: str, players: int, minimum: int, maximum: int) -> tuple[str, ...]:
    """Return the seats ``("1", ..., str(players))``.

    Raises GameError naming the game (``title``) and the allowed range unless
    ``minimum <= players <= maximum``.
    """
    if not minimum <= players <= maximum:
        raise GameError(f"{title} is for {minimum} to {maximum} players, not {players}")
    return tuple(str(n) for n in range(1, players + 1))


def first_player(seats: Sequence[str], start: str | None, rng: GameRng) -> int:
    """Return the index in ``seats`` of the player who plays first.

    ``start`` is the value of the creator option :data:`START`: None (not
    given) picks the first seat, a seat name (any letter case, blanks around
    ignored) picks that seat, and ``random`` draws one seat from ``rng``
    (one draw, the same as ``rng.choice(seats)``, so stored games replay).
    Raises GameError quoting the value for anything else.
    """
    if start is None:
        return 0
    value = start.strip().lower()
    if value == RANDOM:
        return rng.randint(0, len(seats) - 1)
    by_name = {seat.lower(): index for index, seat in enumerate(seats)}
    if value not in by_name:
        raise GameError(f"option {START}={start}: give a seat ({', '.join(seats)}) or {RANDOM}")
    return by_name[value]
