"""The Great Regatta orders: ``NEW``, ``ADVANCE 7``, ``ROLL``, ``STOP``, ``ROLL UNTIL 15``
(the transformer is in grammar.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class New:
    """Take a boat from the supply and put it on the start (space 0)."""

    def __str__(self) -> str:
        return "NEW"


@dataclass(frozen=True)
class Advance:
    """Discard a supply cube to move the own boat standing on ``space``."""

    space: int

    def __str__(self) -> str:
        return f"ADVANCE {self.space}"


@dataclass(frozen=True)
class Roll:
    """Push your luck once: roll again."""

    def __str__(self) -> str:
        return "ROLL"


@dataclass(frozen=True)
class Stop:
    """End the turn, the boat staying where it is."""

    def __str__(self) -> str:
        return "STOP"


@dataclass(frozen=True)
class RollUntil:
    """A plan: keep pushing until the boat stands on ``space`` or beyond, has passed the start, or is lost."""

    space: int

    def __str__(self) -> str:
        return f"ROLL UNTIL {self.space}"


Action = New | Advance
Continuation = Roll | Stop | RollUntil
RegattaOrder = New | Advance | Roll | Stop | RollUntil
