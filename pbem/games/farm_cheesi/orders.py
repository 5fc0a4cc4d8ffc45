"""Farm-cheesi orders: ``MOVE 2 5``, ``ENTER``, ``BONUS 3`` (the transformer is in grammar.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """Move maggot ``maggot`` (1..4) forward by one die value ``steps`` (1..6)."""

    maggot: int
    steps: int

    def __str__(self) -> str:
        return f"MOVE {self.maggot} {self.steps}"


@dataclass(frozen=True)
class Enter:
    """Bring a maggot out of the carcass with a 5 or with two dice summing to 5."""

    def __str__(self) -> str:
        return "ENTER"


@dataclass(frozen=True)
class Bonus:
    """Move maggot ``maggot`` (1..4) by the first pending bonus (20 or 10), whole."""

    maggot: int

    def __str__(self) -> str:
        return f"BONUS {self.maggot}"


FarmOrder = Move | Enter | Bonus
