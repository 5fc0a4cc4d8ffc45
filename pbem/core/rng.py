"""The one seeded random number generator of a game, in versioned implementations.

Every die, bag draw and shuffle comes from a :class:`GameRng`; its state is
plain JSON so a stored game replays exactly. A game records the generator
version it was created with and keeps it for life:

* version 1: Python's Mersenne Twister (``random.Random(seed)``); games created
  before version 2 existed keep it so they replay identically.
* version 2 (current): counter mode over HMAC-SHA256, documented in docs/playing.md (fair dice) so
  players can recompute every draw. The key is the 8-byte big-endian seed; block
  ``c`` is ``HMAC-SHA256(key, c as 8-byte big-endian)`` and its first 8 bytes,
  big-endian, are the 64-bit word ``w(c)``. Counters start at 0 and every word
  used (rejected ones too) consumes one counter. ``randint(low, high)`` with
  ``n = high - low + 1`` takes words until ``w < 2**64 - 2**64 % n`` and returns
  ``low + w % n``. ``shuffle`` is Fisher-Yates from the last index down
  (``j = randint(0, i)``); ``sample(k)`` is the first ``k`` steps of a forward
  Fisher-Yates (``j = randint(i, n - 1)``); ``choice`` is
  ``items[randint(0, n - 1)]``; ``random()`` is ``(w >> 11) / 2**53``.
  Every draw is logged as ``[counter of its first word, n, result]`` (``n = 0``
  for ``random()``) so reports can list the draws made in them. Draws that deal a
  secret (a hidden hand, a secret colour) are made inside :meth:`GameRng.sealed` and
  logged apart, in ``sealed_draws``: a listed result would show the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

LEGACY_VERSION = 1
CURRENT_VERSION = 2
VERSIONS = (LEGACY_VERSION, CURRENT_VERSION)
_STATE_TAG = "hmac-sha256-ctr"
_SPAN = 2**64


class UnknownGeneratorVersion(ValueError):
    """A generator version this code does not implement."""


def commitment(game_name: str, secret: str) -> str:
    """Return the SHA-256 commitment (hex) published for a game's secret seed text."""
    return hashlib.sha256(f"{game_name}\n{secret}".encode()).hexdigest()


def derive_seed(secret: str, salts: Sequence[str] = ()) -> int:
    """Return the 63-bit game seed from the committed secret and the players' salts, in order:
    the first 8 bytes (big-endian) of ``SHA-256(secret + "\\n" + salt1 + "\\n" + salt2 ...)``,
    shifted right by one bit so it fits a signed 64-bit column."""
    material = "\n".join([secret, *salts]).encode()
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big") >> 1


def word(key: bytes, counter: int) -> int:
    """Return the 64-bit word of counter ``counter`` under ``key`` (version 2)."""
    return int.from_bytes(hmac.digest(key, counter.to_bytes(8, "big"), "sha256")[:8], "big")


class GameRng:
    """A deterministic, versioned RNG whose whole state can be saved as JSON and restored."""

    def __init__(self, seed: int, *, version: int = CURRENT_VERSION) -> None:
        if version not in VERSIONS:
            raise UnknownGeneratorVersion(f"random generator version {version} is unknown; known: {VERSIONS}")
        self.version = version
        self.draws: list[list[int]] = []
        self.sealed_draws: list[list[int]] = []
        self._seed = seed
        self._counter = 0
        self._key = (seed % _SPAN).to_bytes(8, "big")
        self._random = random.Random(seed) if version == LEGACY_VERSION else None

    # --- draws -------------------------------------------------------------------

    def _below(self, n: int) -> int:
        """Return an unbiased integer in 0..n-1 and log the draw (version 2)."""
        first = self._counter
        limit = _SPAN - _SPAN % n
        while True:
            value = word(self._key, self._counter)
            self._counter += 1
            if value < limit:
                result = value % n
                self.draws.append([first, n, result])
                return result

    def roll(self, sides: int = 6) -> int:
        """Return one die roll, 1..sides."""
        return self.randint(1, sides)

    def randint(self, low: int, high: int) -> int:
        """Return an integer in low..high inclusive. Raises ValueError for an empty range."""
        if self._random is not None:
            return self._random.randint(low, high)
        if high < low:
            raise ValueError(f"empty range {low}..{high}")
        return low + self._below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence. Raises IndexError when empty."""
        if self._random is not None:
            return self._random.choice(items)
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self._below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle a list in place."""
        if self._random is not None:
            self._random.shuffle(items)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self._below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        """Return ``count`` distinct elements drawn without replacement. Raises ValueError
        when ``count`` is negative or larger than the population."""
        if self._random is not None:
            return self._random.sample(list(items), count)
        pool = list(items)
        if not 0 <= count <= len(pool):
            raise ValueError(f"cannot sample {count} of {len(pool)}")
        for i in range(count):
            j = i + self._below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:count]

    def random(self) -> float:
        """Return a float in [0, 1)."""
        if self._random is not None:
            return self._random.random()
        first = self._counter
        value = word(self._key, self._counter)
        self._counter += 1
        self.draws.append([first, 0, value >> 11])
        return (value >> 11) / 2**53

    @contextmanager
    def sealed(self) -> Iterator[None]:
        """Make the draws inside the block sealed: they deal a secret (a hidden hand, a secret
        colour), so they are logged in ``sealed_draws`` instead of ``draws``, which the reports
        list for everyone. They still use the generator's counters in order, so a replay from
        the seed makes the same draws."""
        mark = len(self.draws)
        try:
            yield
        finally:
            self.sealed_draws.extend(self.draws[mark:])
            del self.draws[mark:]

    # --- state -------------------------------------------------------------------

    def get_state(self) -> list[Any]:
        """Return the full generator state as JSON-compatible data."""
        if self._random is not None:
            version, internal, gauss = self._random.getstate()
            return [version, list(internal), gauss]
        return [_STATE_TAG, self._seed, self._counter]

    def set_state(self, state: Sequence[Any]) -> None:
        """Restore a state returned by :meth:`get_state` of a generator of the same version."""
        if self._random is not None:
            version, internal, gauss = state
            self._random.setstate((version, tuple(internal), gauss))
            return
        _tag, seed, counter = state
        self._seed, self._counter = seed, counter
        self._key = (seed % _SPAN).to_bytes(8, "big")

    @classmethod
    def from_state(cls, state: Sequence[Any]) -> GameRng:
        """Build a generator positioned at a stored state (either version)."""
        version = CURRENT_VERSION if state and state[0] == _STATE_TAG else LEGACY_VERSION
        rng = cls(0, version=version)
        rng.set_state(state)
        return rng
