"""Turkey Chase orders: frozen dataclasses whose ``str()`` is the canonical text.

Pure (stdlib and pbem.core only); the lark transformer that builds them from
grammar.lark is in :mod:`pbem.games.turkey_chase.grammar`."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.grid import Cell, Fence, is_orthogonal_step
from pbem.games.turkey_chase.board import NAME


def _reading_order(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    return (a, b) if (a[1], a[0]) <= (b[1], b[0]) else (b, a)


@dataclass(frozen=True)
class Feed:
    """``FEED X``: one of the player's birds on X feeds there (phase 1, 2 points)."""

    square: Cell

    def __str__(self) -> str:
        return f"FEED {NAME[self.square]}"


@dataclass(frozen=True)
class _FenceOrder:
    """An order naming the border between two squares, kept in reading order so
    that ``B6/A6`` and ``A6/B6`` are the same order."""

    a: Cell
    b: Cell

    def __post_init__(self) -> None:
        first, second = _reading_order(self.a, self.b)
        object.__setattr__(self, "a", first)
        object.__setattr__(self, "b", second)

    @property
    def fence(self) -> Fence | None:
        """The fence this order names, or None when the two squares are not neighbours."""
        return frozenset((self.a, self.b)) if is_orthogonal_step(self.a, self.b) else None

    @property
    def fence_text(self) -> str:
        """The border as written in orders, e.g. ``A6/B6``."""
        return f"{NAME[self.a]}/{NAME[self.b]}"


@dataclass(frozen=True)
class Destroy(_FenceOrder):
    """``DESTROY X/Y``: pull down the fence between X and Y (phase 2, 2 points)."""

    def __str__(self) -> str:
        return f"DESTROY {self.fence_text}"


@dataclass(frozen=True)
class Build(_FenceOrder):
    """``BUILD X/Y``: build a fence between X and Y (phase 6, 1 point beside one of
    the player's farmers, else 2)."""

    def __str__(self) -> str:
        return f"BUILD {self.fence_text}"


@dataclass(frozen=True)
class Move:
    """``MOVE X-Y``: a bird or farmer of the player moves one square (phase 3, 4 or 5)."""

    src: Cell
    dst: Cell

    def __str__(self) -> str:
        return f"MOVE {NAME[self.src]}-{NAME[self.dst]}"


@dataclass(frozen=True)
class New:
    """``NEW X``: a new farmer arrives on a gap square (phase 7, 4 points, turn 4 on)."""

    square: Cell

    def __str__(self) -> str:
        return f"NEW {NAME[self.square]}"


TurkeyOrder = Feed | Destroy | Move | Build | New
