"""Shelloker orders: ``CHECK``, ``RAISE n``, ``CALL`` and ``FOLD``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    """Stay on bet space 1 while nobody has raised."""

    def __str__(self) -> str:
        return "CHECK"


@dataclass(frozen=True)
class Raise:
    """Move one's bet cube to space ``bet``, above the top bet."""

    bet: int

    def __str__(self) -> str:
        return f"RAISE {self.bet}"


@dataclass(frozen=True)
class Call:
    """Move one's bet cube to the top bet."""

    def __str__(self) -> str:
        return "CALL"


@dataclass(frozen=True)
class Fold:
    """Give up the round, losing the shells of one's bet space."""

    def __str__(self) -> str:
        return "FOLD"


ShellokerOrder = Check | Raise | Call | Fold
