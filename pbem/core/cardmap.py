"""Maps of cards laid side by side: which cells of a square grid hold a card, of which kind,
and how the cards connect.

A :class:`CardMap` is written as rows of kind letters from top to bottom, the
rows separated by ``/`` and ``.`` for a cell without a card, e.g.
``FFEFF/F.F.F/G.B.Y``. Two cards are neighbours when they share a side (no
diagonals). Cells are ``(col, row)`` pairs from the top left, named like
``a1`` (column letter, row number counted from the top) by the map's
:class:`~pbem.core.grid.SquareGrid`. "Map order" is row by row from the top,
left to right.

Game-agnostic: a game gives the kind letters it knows and adds its own rules
(how many cards of each kind, where they may lie) on top of the helpers here:
distances, shortest first steps, connectivity with cards left out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from pbem.core.grid import ORTHOGONAL, BadCellName, Cell, SquareGrid

HOLE = "."
"""The letter of a cell without a card."""

ROW_SEPARATOR = "/"
"""What separates the rows of a map's text."""

MAX_SIDE = 26
"""The widest or tallest map: column letters a..z name at most 26 columns."""


class MapTextError(ValueError):
    """Map text that does not describe a map: empty, uneven rows, an unknown letter, too big."""


@dataclass(frozen=True)
class CardMap:
    """Cards on the cells of a grid: ``rows[r][c]`` is the kind letter of the card on
    cell ``(c, r)``, or :data:`HOLE`.

    Build it with :meth:`parse`; the rows must be non-empty and of equal length.
    """

    rows: tuple[str, ...]

    @classmethod
    def parse(cls, text: str, *, kinds: str) -> CardMap:
        """Return the map written in ``text`` (any letter case, blanks around rows ignored).

        ``kinds`` are the card letters the game knows (upper case). Raises
        :class:`MapTextError` saying what is wrong: no rows, an empty row, rows
        of different lengths, a letter that is not a kind, more than
        :data:`MAX_SIDE` rows or columns, or no card at all.
        """
        known = kinds.upper()
        raw = [row.strip().upper() for row in text.strip().split(ROW_SEPARATOR)]
        if not text.strip():
            raise MapTextError("the map is empty; write rows of card letters separated by '/'")
        if len(raw) > MAX_SIDE:
            raise MapTextError(f"the map has {len(raw)} rows; at most {MAX_SIDE} are possible")
        for number, row in enumerate(raw, start=1):
            if not row:
                raise MapTextError(f"row {number} is empty")
            if len(row) > MAX_SIDE:
                raise MapTextError(f"row {number} has {len(row)} cells; at most {MAX_SIDE} are possible")
            for letter in row:
                if letter != HOLE and letter not in known:
                    allowed = ", ".join(known)
                    raise MapTextError(f"{letter!r} in row {number} is not a card; use {allowed} or "
                                       f"'{HOLE}' for no card")
        if len({len(row) for row in raw}) > 1:
            lengths = ", ".join(f"row {n}: {len(row)}" for n, row in enumerate(raw, start=1))
            raise MapTextError(f"the rows must be equally long (use '{HOLE}' for a cell without a card); "
                               f"they have {lengths}")
        made = cls(tuple(raw))
        if not made.cards:
            raise MapTextError("the map holds no card")
        return made

    # --- the grid -------------------------------------------------------------

    @property
    def text(self) -> str:
        """The map as text: rows of letters separated by ``/``."""
        return ROW_SEPARATOR.join(self.rows)

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.rows)

    @cached_property
    def grid(self) -> SquareGrid:
        """The grid the cards lie on (names such as ``a1``, rows counted from the top)."""
        return SquareGrid(self.width, self.height, lowercase=True)

    @cached_property
    def cards(self) -> tuple[Cell, ...]:
        """Every cell holding a card, in map order."""
        return tuple(cell for cell in self.grid.cells() if self.kind(cell) != HOLE)

    def kind(self, cell: Cell) -> str:
        """Return the kind letter of the card on ``cell`` (:data:`HOLE` for none or off the grid)."""
        col, row = cell
        if not self.grid.contains(cell):
            return HOLE
        return self.rows[row][col]

    def has_card(self, cell: Cell) -> bool:
        """True when a card lies on ``cell``."""
        return self.kind(cell) != HOLE

    def cards_of(self, kind: str) -> tuple[Cell, ...]:
        """Return the cards of one kind, in map order."""
        return tuple(cell for cell in self.cards if self.kind(cell) == kind)

    def name(self, cell: Cell) -> str:
        """Return the name of a cell, e.g. ``c1``."""
        return self.grid.name(cell)

    def card_at(self, name: str) -> Cell:
        """Return the cell of the card called ``name`` (any case).

        Raises :class:`~pbem.core.grid.BadCellName` when the name is off the
        grid or the cell holds no card.
        """
        cell = self.grid.parse(name)
        if not self.has_card(cell):
            raise BadCellName(f"there is no card on {self.name(cell)}")
        return cell

    # --- connections ------------------------------------------------------------

    def neighbours(self, cell: Cell, *, without: Iterable[Cell] = ()) -> tuple[Cell, ...]:
        """Return the cards sharing a side with ``cell``, in map order, leaving out ``without``."""
        found = self._neighbour_table.get(cell, ())
        if not without:
            return found
        left_out = set(without)
        return tuple(c for c in found if c not in left_out)

    def are_adjacent(self, a: Cell, b: Cell) -> bool:
        """True when the cards on ``a`` and ``b`` share a side."""
        return self.has_card(a) and self.has_card(b) and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    def distances(self, start: Cell, *, without: Iterable[Cell] = ()) -> dict[Cell, int]:
        """Return the number of steps from ``start`` to every card it reaches (``start`` itself 0),
        walking from card to neighbouring card and never onto a card of ``without``."""
        return _walk(self, start, frozenset(without))

    def distance(self, a: Cell, b: Cell) -> int | None:
        """Return the number of steps between two cards, or None when no path joins them."""
        return self._distance_table[a].get(b)

    def is_connected(self, *, without: Iterable[Cell] = ()) -> bool:
        """True when every card not in ``without`` can reach every other such card."""
        left_out = frozenset(without)
        remaining = [cell for cell in self.cards if cell not in left_out]
        if not remaining:
            return True
        return len(_walk(self, remaining[0], left_out)) == len(remaining)

    def first_steps(self, start: Cell, goal: Cell) -> tuple[Cell, ...]:
        """Return the neighbours of ``start`` that begin a shortest path to ``goal``, in map order
        (empty when ``start`` is ``goal`` or no path joins them)."""
        whole = self._distance_table[start].get(goal)
        if not whole:
            return ()
        return tuple(n for n in self.neighbours(start) if self._distance_table[n].get(goal) == whole - 1)

    @cached_property
    def _neighbour_table(self) -> dict[Cell, tuple[Cell, ...]]:
        return {cell: tuple(sorted((c for c in self.grid.neighbours(cell, ORTHOGONAL) if self.has_card(c)),
                                   key=self.grid.index))
                for cell in self.cards}

    @cached_property
    def _distance_table(self) -> dict[Cell, dict[Cell, int]]:
        return {cell: _walk(self, cell, frozenset()) for cell in self.cards}


def _walk(card_map: CardMap, start: Cell, without: frozenset[Cell]) -> dict[Cell, int]:
    """Breadth-first distances from ``start`` over the cards not in ``without``."""
    if start in without or not card_map.has_card(start):
        return {}
    found = {start: 0}
    frontier = deque([start])
    table = card_map._neighbour_table
    while frontier:
        cell = frontier.popleft()
        for nxt in table[cell]:
            if nxt not in found and nxt not in without:
                found[nxt] = found[cell] + 1
                frontier.append(nxt)
    return found
