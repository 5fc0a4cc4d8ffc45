"""The one seeded random number generator of a game.

Every die, bag draw and shuffle comes from a :class:`GameRng`; its state is
plain JSON so a stored game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class GameRng:
    """A deterministic RNG whose whole state can be saved as JSON and restored."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self, sides: int = 6) -> int:
        """Return one die roll, 1..sides."""
        return self._random.randint(1, sides)

    def randint(self, low: int, high: int) -> int:
        """Return an integer in low..high inclusive."""
        return self._random.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence."""
        return self._random.choice(items)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle a list in place."""
        self._random.shuffle(items)

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        """Return ``count`` distinct elements drawn without replacement."""
        return self._random.sample(list(items), count)

    def random(self) -> float:
        """Return a float in [0, 1)."""
        return self._random.random()

    def get_state(self) -> list[Any]:
        """Return the full generator state as JSON-compatible data."""
        version, internal, gauss = self._random.getstate()
        return [version, list(internal), gauss]

    def set_state(self, state: Sequence[Any]) -> None:
        """Restore a state returned by :meth:`get_state`."""
        version, internal, gauss = state
        self._random.setstate((version, tuple(internal), gauss))

    @classmethod
    def from_state(cls, state: Sequence[Any]) -> GameRng:
        """Build a generator positioned at a stored state."""
        rng = cls(0)
        rng.set_state(state)
        return rng
