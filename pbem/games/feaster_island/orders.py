"""Feaster Island orders: ``PLACE red:1 yellow:3``, ``TAKE 3``, ``PASS`` (the transformer is in grammar.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """Put drawn cubes on table columns: ``placements`` are (colour, column 1..6) pairs."""

    placements: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return "PLACE " + " ".join(f"{colour}:{column}" for colour, column in self.placements)


@dataclass(frozen=True)
class Take:
    """Take every cube of table column ``column`` (1..6)."""

    column: int

    def __str__(self) -> str:
        return f"TAKE {self.column}"


@dataclass(frozen=True)
class Pass:
    """Take no column (only in the last round)."""

    def __str__(self) -> str:
        return "PASS"


FeasterOrder = Place | Take | Pass
