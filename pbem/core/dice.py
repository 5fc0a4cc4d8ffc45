"""Dice: rolling n dice of k sides through a :class:`~pbem.core.rng.GameRng`,
doublets, and the opposite face of a die (``7 - v`` on a six-sided die).

Pure helpers shared by every game that rolls; the only randomness is the
injected generator, so a stored seed replays every roll.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.rng import GameRng


class BadDie(ValueError):
    """A die value or dice count that makes no sense (a 7 on a six-sided die, zero dice)."""


def roll_dice(rng: GameRng, count: int = 2, sides: int = 6) -> tuple[int, ...]:
    """Roll ``count`` dice of ``sides`` sides and return the faces in rolling order.

    Raises :class:`BadDie` when ``count`` < 1 or ``sides`` < 2.
    """
    if count < 1:
        raise BadDie(f"cannot roll {count} dice")
    if sides < 2:
        raise BadDie(f"a die needs at least 2 sides, not {sides}")
    return tuple(rng.roll(sides) for _ in range(count))


def check_face(value: int, sides: int = 6) -> int:
    """Return ``value`` when it is a face of a ``sides``-sided die; raise :class:`BadDie` otherwise."""
    if not 1 <= value <= sides:
        raise BadDie(f"{value} is not a face of a {sides}-sided die")
    return value


def is_doublet(dice: Sequence[int]) -> bool:
    """True when two or more dice were rolled and all show the same face."""
    return len(dice) >= 2 and all(value == dice[0] for value in dice)


def opposite_face(value: int, sides: int = 6) -> int:
    """Return the face opposite ``value`` (``sides + 1 - value``: 7 - v on a six-sided die).

    Raises :class:`BadDie` when ``value`` is not a face of the die.
    """
    return sides + 1 - check_face(value, sides)


def opposite_faces(dice: Sequence[int], sides: int = 6) -> tuple[int, ...]:
    """Return the opposite face of every die, in the same order."""
    return tuple(opposite_face(value, sides) for value in dice)


def describe_dice(dice: Sequence[int]) -> str:
    """Return the faces as words for a report: ``"3 and 5"``, ``"1, 2 and 6"``, ``"4"``.

    Raises :class:`BadDie` for an empty roll.
    """
    if not dice:
        raise BadDie("no dice to describe")
    words = [str(value) for value in dice]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]
