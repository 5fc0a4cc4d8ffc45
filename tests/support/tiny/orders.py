"""Tiny's one order."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Add:
    """``ADD n``: add n to the running total."""

    amount: int

    def __str__(self) -> str:
        return f"ADD {self.amount}"
