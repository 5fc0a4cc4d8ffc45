"""Hex grids in axial coordinates: cells, names, neighbours, edges, distances, groups.

A cell is a ``(col, row)`` pair of axial coordinates, both counted from 0. The
neighbours of ``(c, r)`` are ``(c+1, r)``, ``(c-1, r)``, ``(c, r+1)``,
``(c, r-1)``, ``(c+1, r-1)`` and ``(c-1, r+1)`` (the layout of the game Hex:
drawn with each row shifted half a cell to the right of the row above, a cell
touches two cells in the row above and two in the row below).

Two board shapes:

* a rhombus of side ``N`` (:meth:`HexGrid.rhombus`): ``0 <= c, r < N``;
* a hexagon of radius ``R`` (:meth:`HexGrid.hexagon`): the cells of the
  rhombus of side ``2R + 1`` with ``R <= c + r <= 3R``; its centre is
  ``(R, R)`` and it holds ``3R(R + 1) + 1`` cells (61 for radius 4).

Every cell is named by its column letter and row number, ``a1`` being
``(0, 0)``: ``e5`` is ``(4, 4)``. An edge cell is one with fewer than six
neighbours on the board. Movement helpers find the shortest way between two
cells through the cells a game lets pieces pass (:meth:`HexGrid.path_steps`,
:meth:`HexGrid.reachable`) and the cells within a range
(:meth:`HexGrid.within`). The module knows no game rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from string import ascii_lowercase

HexCell = tuple[int, int]

DIRECTIONS: tuple[HexCell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""The six axial steps from a cell to its neighbours."""

MAX_SPAN = len(ascii_lowercase)
"""The widest board that column letters a..z can name."""


class BadHexName(ValueError):
    """A cell name that does not name a cell of the grid."""


@dataclass(frozen=True)
class HexGrid:
    """A board of hexagonal cells: a rhombus (``radius`` None) or a hexagon.

    ``span`` is the side of the bounding rhombus (columns and rows both run
    ``0 .. span-1``); ``radius`` is set for a hexagon, whose span is
    ``2 * radius + 1``. Build grids with :meth:`rhombus` or :meth:`hexagon`.
    """

    span: int
    radius: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.span <= MAX_SPAN:
            raise ValueError(f"a hex grid spans 1 to {MAX_SPAN} columns, not {self.span}")
        if self.radius is not None and self.span != 2 * self.radius + 1:
            raise ValueError(f"a hexagon of radius {self.radius} spans {2 * self.radius + 1}, not {self.span}")

    @classmethod
    def rhombus(cls, size: int) -> HexGrid:
        """Return the ``size`` x ``size`` rhombus (cells a1 .. the last letter + size).

        Raises ValueError when ``size`` is not 1..26.
        """
        return cls(size)

    @classmethod
    def hexagon(cls, radius: int) -> HexGrid:
        """Return the hexagon of ``radius`` rings around its centre cell.

        Raises ValueError when ``radius`` is not 0..12.
        """
        if radius < 0:
            raise ValueError(f"a hexagon has a radius of 0 or more, not {radius}")
        return cls(2 * radius + 1, radius)

    @property
    def is_hexagon(self) -> bool:
        """True for a hexagon-shaped board, False for a rhombus."""
        return self.radius is not None

    @property
    def centre(self) -> HexCell:
        """The middle cell (for an even rhombus, the one just above-left of the middle)."""
        middle = (self.span - 1) // 2
        return (middle, middle)

    def contains(self, cell: HexCell) -> bool:
        """True when ``cell`` lies on the board."""
        col, row = cell
        if not (0 <= col < self.span and 0 <= row < self.span):
            return False
        return self.radius is None or self.radius <= col + row <= 3 * self.radius

    def cells(self) -> tuple[HexCell, ...]:
        """Return every cell in reading order: row by row from row 1, columns left to right."""
        return _cells(self)

    def rows(self) -> tuple[tuple[HexCell, ...], ...]:
        """Return the cells grouped by row (row 1 first), each row left to right."""
        return _rows(self)

    def __len__(self) -> int:
        """Return the number of cells on the board."""
        return len(self.cells())

    def neighbours(self, cell: HexCell) -> tuple[HexCell, ...]:
        """Return the on-board neighbours of ``cell``, in :data:`DIRECTIONS` order.

        Raises ValueError when ``cell`` is not on the board.
        """
        table = _neighbour_table(self)
        if cell not in table:
            raise ValueError(f"{cell} is not on the board")
        return table[cell]

    def are_adjacent(self, a: HexCell, b: HexCell) -> bool:
        """True when ``a`` and ``b`` are both on the board and share a side."""
        return self.contains(a) and b in self.neighbours(a)

    def is_edge(self, cell: HexCell) -> bool:
        """True when ``cell`` lies on the border (it has fewer than six neighbours)."""
        return len(self.neighbours(cell)) < len(DIRECTIONS)

    def edge_cells(self) -> tuple[HexCell, ...]:
        """Return the border cells in reading order."""
        return tuple(c for c in self.cells() if self.is_edge(c))

    def column_letters(self) -> str:
        """Return the column letters a, b, ... of the board."""
        return ascii_lowercase[: self.span]

    def name(self, cell: HexCell) -> str:
        """Return the name of ``cell``, e.g. ``e5`` for ``(4, 4)``.

        Raises ValueError when ``cell`` is not on the board.
        """
        if not self.contains(cell):
            raise ValueError(f"{cell} is not on the board")
        return f"{ascii_lowercase[cell[0]]}{cell[1] + 1}"

    def parse(self, text: str) -> HexCell:
        """Return the cell a name such as ``e5`` names (any case, blanks around ignored).

        Raises :class:`BadHexName` for text that is no cell name or names a
        cell off this board.
        """
        clean = text.strip().lower()
        if len(clean) < 2 or clean[0] not in ascii_lowercase or not clean[1:].isdigit() or clean[1] == "0":
            raise BadHexName(f"{text.strip()!r} is not a cell name such as e5")
        cell = (ascii_lowercase.index(clean[0]), int(clean[1:]) - 1)
        if not self.contains(cell):
            raise BadHexName(f"{clean} is not on the board")
        return cell

    def connected(self, start: HexCell, member: Callable[[HexCell], bool]) -> frozenset[HexCell]:
        """Return the cells reachable from ``start`` through neighbouring cells for
        which ``member`` is true (flood fill). Empty when ``member(start)`` is false.
        """
        if not member(start):
            return frozenset()
        seen = {start}
        frontier = [start]
        while frontier:
            cell = frontier.pop()
            for nxt in self.neighbours(cell):
                if nxt not in seen and member(nxt):
                    seen.add(nxt)
                    frontier.append(nxt)
        return frozenset(seen)

    def within(self, cell: HexCell, radius: int) -> tuple[HexCell, ...]:
        """Return the board cells at a distance of 1 to ``radius`` from ``cell``, in reading
        order (whatever lies between; ``cell`` itself excluded).

        Raises ValueError when ``cell`` is not on the board.
        """
        if not self.contains(cell):
            raise ValueError(f"{cell} is not on the board")
        return tuple(c for c in self.cells() if 0 < distance(cell, c) <= radius)

    def reachable(self, start: HexCell, limit: int, through: Callable[[HexCell], bool]) -> dict[HexCell, int]:
        """Return every cell a piece on ``start`` can reach in 1 to ``limit`` steps, with the
        fewest steps it takes, when every cell it passes on the way (not the cell it stops
        on) must satisfy ``through``. Which cells it may stop on is the caller's business.

        Raises ValueError when ``start`` is not on the board.
        """
        steps: dict[HexCell, int] = {}
        frontier = [start]
        for step in range(1, limit + 1):
            following: list[HexCell] = []
            for cell in frontier:
                for nxt in self.neighbours(cell):
                    if nxt == start or nxt in steps:
                        continue
                    steps[nxt] = step
                    if through(nxt):
                        following.append(nxt)
            frontier = following
        return steps

    def path_steps(self, start: HexCell, end: HexCell, limit: int,
                   through: Callable[[HexCell], bool]) -> int | None:
        """Return the fewest steps from ``start`` to ``end`` (at most ``limit``) passing only
        cells that satisfy ``through`` on the way, or None when there is no such way.

        Raises ValueError when ``start`` is not on the board.
        """
        return self.reachable(start, limit, through).get(end)

    def groups(
        self, member: Callable[[HexCell], bool], cells: Iterable[HexCell] | None = None
    ) -> list[frozenset[HexCell]]:
        """Return the connected groups of the cells for which ``member`` is true.

        Groups come in reading order of their first cell. ``cells`` limits the
        starting cells looked at (default: the whole board); groups still grow
        through any member cell.
        """
        found: list[frozenset[HexCell]] = []
        seen: set[HexCell] = set()
        for cell in self.cells() if cells is None else cells:
            if cell in seen or not member(cell):
                continue
            group = self.connected(cell, member)
            seen |= group
            found.append(group)
        return found


def distance(a: HexCell, b: HexCell) -> int:
    """Return the number of steps between two cells (axial hex distance)."""
    dc, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dc) + abs(dr) + abs(dc + dr)) // 2


@cache
def _cells(grid: HexGrid) -> tuple[HexCell, ...]:
    return tuple(cell for row in _rows(grid) for cell in row)


@cache
def _rows(grid: HexGrid) -> tuple[tuple[HexCell, ...], ...]:
    rows = (tuple((c, r) for c in range(grid.span) if grid.contains((c, r))) for r in range(grid.span))
    return tuple(row for row in rows if row)


@cache
def _neighbour_table(grid: HexGrid) -> dict[HexCell, tuple[HexCell, ...]]:
    table: dict[HexCell, tuple[HexCell, ...]] = {}
    for cell in _cells(grid):
        steps = ((cell[0] + dc, cell[1] + dr) for dc, dr in DIRECTIONS)
        table[cell] = tuple(n for n in steps if grid.contains(n))
    return table
