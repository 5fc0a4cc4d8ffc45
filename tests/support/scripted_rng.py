"""A GameRng whose die rolls a test gives in advance (for worked examples with chosen dice)."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.core import GameRng


class ScriptedRng(GameRng):
    """Die rolls come from ``rolls`` in order; every other draw (bags, shuffles) is seeded as usual."""

    def __init__(self, rolls: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def roll(self, sides: int = 6) -> int:
        """Return the next scripted roll (fails the test when the script runs out)."""
        assert self.rolls, "the test's scripted die ran out of rolls"
        return self.rolls.pop(0)
