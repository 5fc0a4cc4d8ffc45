"""Festival of Statues orders: ``ADD r,c`` and ``MOVE r,c-r,c`` (rows and columns 1..6).

The transformer that builds them from the grammar is in grammar.py.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Add:
    """Put a statue from the supply on the open space in ``row``, ``column``."""

    row: int
    column: int

    def __str__(self) -> str:
        return f"ADD {self.row},{self.column}"


@dataclass(frozen=True)
class Move:
    """Move the statue on ``row``, ``column`` to the open space ``to_row``, ``to_column``."""

    row: int
    column: int
    to_row: int
    to_column: int

    def __str__(self) -> str:
        return f"MOVE {self.row},{self.column}-{self.to_row},{self.to_column}"


FestivalOrder = Add | Move
