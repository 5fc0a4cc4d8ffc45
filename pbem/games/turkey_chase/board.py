"""The Turkey Chase cornfield: squares, corn, gaps, starting pieces and costs.

Squares are :mod:`pbem.core.grid` cells ``(col, row)`` counted from 0 at the
top left (``A1`` is ``(0, 0)``, ``K11`` is ``(10, 10)``). Everything here is a
constant derived once at import time.
"""

from __future__ import annotations

from pbem.core.grid import Cell, Fence, SquareGrid, fence, fence_name

GRID = SquareGrid(11, 11)
"""The 11 x 11 field, columns A..K west to east, rows 1..11 north to south."""

SEATS: tuple[str, ...] = ("A", "B", "C", "D")
"""Seat names; seat X plays farmer X and the birds x."""

SEAT_INDEX: dict[str, int] = {seat: i for i, seat in enumerate(SEATS)}

CELLS: tuple[Cell, ...] = tuple(GRID.cells())
"""Every square in reading order (row by row from A1); position = ``GRID.index``."""

NAME: dict[Cell, str] = {cell: GRID.name(cell) for cell in CELLS}
"""Square name of every cell, e.g. ``NAME[(5, 5)] == "F6"``."""

BUDGET = 5
"""Points a player may spend each turn; unspent points are lost."""

COST_FEED = 2
COST_DESTROY = 2
COST_FARMER_MOVE = 1
COST_BIRD_MOVE = 1
COST_SECOND_MOVE = 2
COST_BUILD_NEAR = 1
COST_BUILD_ELSEWHERE = 2
COST_NEW = 4

NEW_FROM_TURN = 4
"""The first turn on which NEW orders may be given."""

CENTRE: Cell = (5, 5)
RING_CORN: tuple[int, ...] = (10, 7, 5, 3, 2, 1)
"""Corn of a square by its ring around F6 (CLARIFICATIONS)."""


def ring(cell: Cell) -> int:
    """Return the ring of a square around the centre F6 (0 for F6, 5 for the edge)."""
    return max(abs(cell[0] - CENTRE[0]), abs(cell[1] - CENTRE[1]))


START_CORN: tuple[int, ...] = tuple(RING_CORN[ring(cell)] for cell in CELLS)
"""Corn of every square at the start, by ``GRID.index``."""


def _cell(name: str) -> Cell:
    return GRID.parse(name)


GAPS: frozenset[Cell] = frozenset(_cell(n) for n in ("A6", "F1", "F11", "K6"))
"""The squares beside the four gaps in the external fence (where NEW farmers arrive)."""

GAP_NAMES = "A6, F1, F11 or K6"

START_FENCES: frozenset[Fence] = frozenset(
    fence(_cell(a), _cell(b)) for a, b in (("A6", "B6"), ("F1", "F2"), ("F10", "F11"), ("J6", "K6"))
)

START_FARMERS: tuple[tuple[Cell, ...], ...] = tuple((_cell(n),) for n in ("F7", "G6", "F5", "E6"))
START_BIRDS: tuple[tuple[Cell, ...], ...] = tuple((_cell(n), _cell(n)) for n in ("F1", "A6", "F11", "K6"))

NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {cell: tuple(GRID.neighbours(cell)) for cell in CELLS}
"""Orthogonal on-field neighbours of every square."""

FENCE_NAME: dict[Fence, str] = {
    fence(cell, other): fence_name(GRID, fence(cell, other)) for cell in CELLS for other in NEIGHBOURS[cell]
}
"""The name (``A6/B6``) of every possible fence between two squares of the field."""

BORDERS: dict[Cell, tuple[Fence, ...]] = {cell: tuple(fence(cell, n) for n in NEIGHBOURS[cell]) for cell in CELLS}
"""The (possible) fences on the border of each square, external fence excluded."""

PHASE_LABELS: dict[int, str] = {
    1: "1 Feeding",
    2: "2 Fences destroyed",
    3: "3 Farmers move",
    4: "4 Birds move",
    5: "5 Farmers' second move",
    6: "6 Fences built",
    7: "7 New farmers",
}
"""Report labels of the seven phases of a turn."""
