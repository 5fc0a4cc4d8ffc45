"""Square grids: cells, names, neighbours, straight lines, and fences between cells.

A cell is a ``(col, row)`` pair counted from 0 at the top-left. How a cell is
written differs between games (Turkey Chase ``F6`` counts rows from the top,
chess-like boards ``e8`` count ranks from the bottom), so a :class:`SquareGrid`
is built with the naming it should use.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from string import ascii_lowercase, ascii_uppercase
from types import MappingProxyType

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[Cell, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))
KING: tuple[Cell, ...] = ORTHOGONAL + DIAGONAL


class BadCellName(ValueError):
    """A cell name that does not name a cell of the grid."""


@dataclass(frozen=True)
class SquareGrid:
    """A ``width`` x ``height`` grid of square cells.

    ``rows_from_bottom`` chooses chess-style names (row number 1 is the bottom
    row); ``lowercase`` writes column letters in lower case.
    """

    width: int
    height: int
    rows_from_bottom: bool = False
    lowercase: bool = False

    def cells(self) -> Iterator[Cell]:
        """Yield every cell, row by row from the top, left to right."""
        for row in range(self.height):
            for col in range(self.width):
                yield (col, row)

    def contains(self, cell: Cell) -> bool:
        """True when ``cell`` lies on the grid."""
        col, row = cell
        return 0 <= col < self.width and 0 <= row < self.height

    def column_letters(self) -> str:
        """Return the column letters in order, in the grid's case."""
        letters = ascii_lowercase if self.lowercase else ascii_uppercase
        return letters[: self.width]

    def row_number(self, row: int) -> int:
        """Return the printed number of a 0-based row index."""
        return self.height - row if self.rows_from_bottom else row + 1

    def name(self, cell: Cell) -> str:
        """Return the printed name of a cell, e.g. ``F6`` or ``e8``."""
        col, row = cell
        return f"{self.column_letters()[col]}{self.row_number(row)}"

    @cached_property
    def cells_by_name(self) -> Mapping[str, Cell]:
        """Every cell by its name, in upper and in lower case (``F6`` and ``f6``), made once per grid."""
        names: dict[str, Cell] = {}
        for cell in self.cells():
            name = self.name(cell)
            names[name.upper()] = names[name.lower()] = cell
        return MappingProxyType(names)

    def parse(self, text: str) -> Cell:
        """Return the cell a name such as ``F6`` names (any case).

        Raises :class:`BadCellName` when the name is not on this grid.
        """
        text = text.strip()
        cell = self.cells_by_name.get(text)
        if cell is not None:  # a name in one case: one look-up (orders name a square or two a line)
            return cell
        if len(text) < 2 or not text[1:].isdigit():
            raise BadCellName(f"{text!r} is not a square name such as {self.name((0, 0))}")
        col = ascii_lowercase.find(text[0].lower())
        number = int(text[1:])
        row = self.height - number if self.rows_from_bottom else number - 1
        cell = (col, row)
        if col < 0 or not self.contains(cell):
            raise BadCellName(f"{text.upper() if not self.lowercase else text.lower()} is not on the board")
        return cell

    def index(self, cell: Cell) -> int:
        """Return the position of ``cell`` in :meth:`cells` order (``row * width + col``),
        for compact per-cell tuples such as a board's values."""
        return cell[1] * self.width + cell[0]

    def cell_at(self, index: int) -> Cell:
        """Return the cell at position ``index`` of :meth:`cells` order (inverse of :meth:`index`)."""
        return (index % self.width, index // self.width)

    def step(self, cell: Cell, direction: Cell) -> Cell | None:
        """Return the neighbour of ``cell`` in ``direction``, or None off the grid."""
        nxt = (cell[0] + direction[0], cell[1] + direction[1])
        return nxt if self.contains(nxt) else None

    def neighbours(self, cell: Cell, directions: tuple[Cell, ...] = ORTHOGONAL) -> list[Cell]:
        """Return the on-grid neighbours of ``cell`` in the given directions."""
        found = (self.step(cell, d) for d in directions)
        return [c for c in found if c is not None]

    def ray(self, cell: Cell, direction: Cell) -> Iterator[Cell]:
        """Yield the cells from ``cell`` (exclusive) in a straight line to the edge."""
        current = self.step(cell, direction)
        while current is not None:
            yield current
            current = self.step(current, direction)

    def runs(self, length: int, directions: tuple[Cell, ...] = ((1, 0), (0, 1))) -> Iterator[tuple[Cell, ...]]:
        """Yield every straight run of ``length`` consecutive cells on the grid in the
        given directions (default: along rows, then down columns), each run from its
        first cell; runs are yielded in reading order of their first cell, direction
        by direction for each cell.

        Raises ValueError when ``length`` < 1.
        """
        if length < 1:
            raise ValueError(f"a run has at least 1 cell, not {length}")
        for cell in self.cells():
            for dc, dr in directions:
                run = tuple((cell[0] + dc * k, cell[1] + dr * k) for k in range(length))
                if self.contains(run[-1]):
                    yield run

    def blocks(self, width: int, height: int) -> Iterator[tuple[Cell, ...]]:
        """Yield every ``width`` x ``height`` rectangle of cells on the grid (a 2 x 2
        square, ...), in reading order of its top-left cell; each block's cells are
        in reading order.

        Raises ValueError when ``width`` or ``height`` < 1.
        """
        if width < 1 or height < 1:
            raise ValueError(f"a block is at least 1 x 1, not {width} x {height}")
        for col, row in self.cells():
            if col + width <= self.width and row + height <= self.height:
                yield tuple((col + dc, row + dr) for dr in range(height) for dc in range(width))

    def line_between(self, start: Cell, end: Cell) -> list[Cell] | None:
        """Return the cells after ``start`` up to and including ``end`` on a straight
        line (orthogonal or diagonal), or None when the two are not on one line."""
        dc, dr = end[0] - start[0], end[1] - start[1]
        if (dc, dr) == (0, 0) or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
            return None
        length = max(abs(dc), abs(dr))
        unit = (dc // length, dr // length)
        return [(start[0] + unit[0] * k, start[1] + unit[1] * k) for k in range(1, length + 1)]


Fence = frozenset[Cell]


def is_orthogonal_step(a: Cell, b: Cell) -> bool:
    """True when ``a`` and ``b`` are orthogonal neighbours (one square apart, not diagonal)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def fence(a: Cell, b: Cell) -> Fence:
    """Return the fence between two orthogonally adjacent cells.

    Raises ValueError when the cells are not orthogonally adjacent.
    """
    if not is_orthogonal_step(a, b):
        raise ValueError(f"cells {a} and {b} are not orthogonally adjacent")
    return frozenset((a, b))


def fence_name(grid: SquareGrid, f: Fence) -> str:
    """Return a fence as ``A6/B6``, the cells in reading order."""
    a, b = sorted(f, key=lambda c: (c[1], c[0]))
    return f"{grid.name(a)}/{grid.name(b)}"


def parse_fence(grid: SquareGrid, text: str) -> Fence:
    """Return the fence written ``A6/B6`` (either order of the two cells, any case).

    Raises :class:`BadCellName` for a bad cell name and ValueError when the text
    has no ``/`` or the two cells are not orthogonally adjacent.
    """
    first, slash, second = text.partition("/")
    if not slash:
        raise ValueError(f"{text!r} is not a fence such as {grid.name((0, 0))}/{grid.name((1, 0))}")
    return fence(grid.parse(first), grid.parse(second))


def fences_around(grid: SquareGrid, cell: Cell) -> list[Fence]:
    """Return the inner fences (between on-grid cells) that border ``cell``."""
    return [fence(cell, n) for n in grid.neighbours(cell)]
