"""The state of a Fungus game: one frozen value, dumped to and loaded from JSON.

The board is a flat tuple of ``size * size`` strings in reading order (row 1
first, columns a.. left to right): ``""`` for an empty cell, otherwise the
seat whose gem lies there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.core.hexgrid import HexCell, HexGrid

SETUP = "setup"
FUNGUS = "fungus"
DROP = "drop"
OVER = "over"
STAGES = (SETUP, FUNGUS, DROP, OVER)

SETUP_GEMS = 3
"""Gems each player places in the setup phase."""

GEMS_PER_PLAYER: Mapping[int, int] = {2: 50, 3: 35, 4: 25}
"""Each player's supply of gems by number of players."""

EMPTY = ""


@dataclass(frozen=True)
class FungusState:
    """A Fungus position and whose turn it is.

    ``supply``, ``setup_placed`` and ``kept`` run parallel to ``seats``:
    gems still in hand, setup gems placed so far, and the colours (seats) of
    the gems each player has captured with KEEP and not yet dropped.
    ``to_move`` is the seat that owes orders (None once the game is over);
    ``drop_queue`` holds the keepers still to be asked in the drop phase.
    ``ended_because`` says why the placing ended ("full", "no gems").
    """

    seats: tuple[str, ...]
    size: int
    aggressive: bool
    first: str
    board: tuple[str, ...]
    supply: tuple[int, ...]
    setup_placed: tuple[int, ...]
    kept: tuple[tuple[str, ...], ...]
    stage: str
    to_move: str | None
    drop_queue: tuple[str, ...] = ()
    ended_because: str = ""

    @property
    def grid(self) -> HexGrid:
        """The rhombus board of this game."""
        return HexGrid.rhombus(self.size)

    def at(self, cell: HexCell) -> str:
        """Return the seat whose gem lies on ``cell``, or ``""`` when it is empty."""
        return self.board[cell[1] * self.size + cell[0]]

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in seat order. Raises ValueError for an unknown seat."""
        return self.seats.index(seat)

    def with_cells(self, changes: Mapping[HexCell, str]) -> tuple[str, ...]:
        """Return the board with the given cells set (``""`` empties a cell)."""
        board = list(self.board)
        for (col, row), seat in changes.items():
            board[row * self.size + col] = seat
        return tuple(board)

