"""Skill checks and portal checks: a die from the game's RNG plus cubes.

A skill check (melee red, ranged green, ritual yellow, defence blue) succeeds
when the die plus the cubes reach 6. A portal check seals the portal when the
total reaches the main goal, and weakens it (the disc moves one space right)
when the total is higher than the secondary goal. A die of 1 always fails.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pbem.core.rng import GameRng

from .state import CHECK_GOAL, PORTAL_TRACK


@dataclass(frozen=True)
class Check:
    """One rolled check: the die, the checking adventurer's cubes, and the supporters' cubes."""

    die: int
    cubes: int
    support: int = 0

    @property
    def total(self) -> int:
        """The die plus every cube counted."""
        return self.die + self.cubes + self.support

    @property
    def natural_one(self) -> bool:
        """True when the die shows 1: the check fails whatever the total."""
        return self.die == 1

    def reaches(self, goal: int) -> bool:
        """True when the check is not a natural 1 and the total reaches ``goal``."""
        return not self.natural_one and self.total >= goal

    @property
    def succeeds(self) -> bool:
        """True for a successful skill check (total 6 or more, die not 1)."""
        return self.reaches(CHECK_GOAL)

    def describe(self, colour: str) -> str:
        """Return the roll as words: ``die 4 + 3 red = 7`` (``+ 3 from support`` when supported)."""
        support = f" + {self.support} from support" if self.support else ""
        return f"die {self.die} + {self.cubes} {colour}{support} = {self.total}"


def roll_check(rng: GameRng, cubes: int, support: int = 0) -> Check:
    """Roll one die from ``rng`` for a check with ``cubes`` (and ``support``) counted."""
    return Check(rng.roll(6), cubes, support)


class PortalResult(enum.Enum):
    """What a portal check did."""

    SEALED = "sealed"
    WEAKENED = "weakened"
    FAILED = "failed"


def portal_result(check: Check, position: int) -> PortalResult:
    """Return the result of ``check`` against a portal whose disc is on track space ``position``.

    Sealed when the total reaches the main goal; weakened when it is higher
    than the secondary goal (the last space has none); else failed. A die of 1
    always fails.
    """
    main, secondary = PORTAL_TRACK[position]
    if check.natural_one:
        return PortalResult.FAILED
    if check.total >= main:
        return PortalResult.SEALED
    if secondary is not None and check.total > secondary:
        return PortalResult.WEAKENED
    return PortalResult.FAILED


def goals_text(position: int) -> str:
    """Return a portal's goals as words: ``main goal 12, secondary goal 8`` or ``main goal 9, no secondary goal``."""
    main, secondary = PORTAL_TRACK[position]
    second = f"secondary goal {secondary}" if secondary is not None else "no secondary goal"
    return f"main goal {main}, {second}"
