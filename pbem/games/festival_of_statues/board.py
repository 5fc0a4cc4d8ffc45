"""The square of The Festival of Statues: spaces, the die's row and column, patterns, legal plays.

A space is its index in the board tuple (row by row from row 1); players
write it ``row,column`` (``3,4``). Pure functions of a :class:`FestivalState`.
"""

from __future__ import annotations

from pbem.core.grid import SquareGrid
from pbem.games.festival_of_statues.orders import Add, FestivalOrder, Move
from pbem.games.festival_of_statues.state import SIZE, STATUES, FestivalState

GRID = SquareGrid(SIZE, SIZE)

PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(GRID.index(cell) for cell in cells) for cells in (*GRID.runs(4), *GRID.blocks(2, 2))
)
"""Every winning pattern as board indices: four consecutive spaces of a row or a
column, then every 2 x 2 square (reading order of the first space)."""


def index_of(row: int, column: int) -> int:
    """Return the board index of the space in ``row``, ``column`` (both 1..6)."""
    return GRID.index((column - 1, row - 1))


def row_column(index: int) -> tuple[int, int]:
    """Return the ``(row, column)`` (1-based) of a board index."""
    column, row = GRID.cell_at(index)
    return row + 1, column + 1


def space_name(index: int) -> str:
    """Return a space as players write it, e.g. ``3,4`` (row 3, column 4)."""
    row, column = row_column(index)
    return f"{row},{column}"


def on_board(row: int, column: int) -> bool:
    """True when ``row`` and ``column`` both lie in 1..6."""
    return 1 <= row <= SIZE and 1 <= column <= SIZE


def on_die_line(index: int, die: int) -> bool:
    """True when the space lies in row ``die`` or column ``die``."""
    row, column = row_column(index)
    return die in (row, column)


def touches_own(board: tuple[str, ...], index: int, seat: str) -> int | None:
    """Return the index of a statue of ``seat`` orthogonally next to ``index``, or None."""
    for cell in GRID.neighbours(GRID.cell_at(index)):
        if board[GRID.index(cell)] == seat:
            return GRID.index(cell)
    return None


def add_spaces(state: FestivalState, seat: str) -> list[int]:
    """Return the spaces where ``seat`` may add a statue now, in reading order:
    open, in the die's row or column, not next to one of its own statues; none
    when its supply is empty."""
    if state.supply(seat) == 0:
        return []
    return [i for i, owner in enumerate(state.board)
            if not owner and on_die_line(i, state.die) and touches_own(state.board, i, seat) is None]


def movable_statues(state: FestivalState, seat: str) -> list[int]:
    """Return the statues ``seat`` may move now: its own in the die's row or column
    in reading order, then (option ``move_any``) the other player's."""
    line = [i for i, owner in enumerate(state.board) if owner and on_die_line(i, state.die)]
    own = [i for i in line if state.board[i] == seat]
    return own + ([i for i in line if state.board[i] != seat] if state.move_any else [])


def open_spaces(board: tuple[str, ...]) -> list[int]:
    """Return the open spaces in reading order."""
    return [i for i, owner in enumerate(board) if not owner]


def legal_plays(state: FestivalState, seat: str) -> list[FestivalOrder]:
    """Return every legal play of ``seat``: the ADDs in reading order, then the MOVEs
    (statues as in :func:`movable_statues`, destinations in reading order)."""
    plays: list[FestivalOrder] = [Add(*row_column(i)) for i in add_spaces(state, seat)]
    free = open_spaces(state.board)
    for start in movable_statues(state, seat):
        plays.extend(Move(*row_column(start), *row_column(end)) for end in free)
    return plays


def has_play(state: FestivalState, seat: str) -> bool:
    """True when ``seat`` has at least one legal play."""
    return bool(add_spaces(state, seat) or movable_statues(state, seat))


def play_problem(state: FestivalState, seat: str, order: FestivalOrder) -> str | None:
    """Return why ``order`` is not a legal play of ``seat`` now, or None when it is."""
    line = f"row {state.die} or column {state.die} (the die shows {state.die})"
    if isinstance(order, Add):
        if not on_board(order.row, order.column):
            return f"{order}: there is no space {order.row},{order.column}; rows and columns run 1 to {SIZE}"
        index = index_of(order.row, order.column)
        if state.supply(seat) == 0:
            return f"{order}: all your {STATUES} statues stand on the square; MOVE one instead"
        if not on_die_line(index, state.die):
            return f"{order}: {space_name(index)} is not in {line}"
        if state.board[index]:
            return f"{order}: a statue already stands on {space_name(index)}"
        neighbour = touches_own(state.board, index, seat)
        if neighbour is not None:
            return f"{order}: your statue on {space_name(neighbour)} is next to {space_name(index)}"
        return None
    for row, column in ((order.row, order.column), (order.to_row, order.to_column)):
        if not on_board(row, column):
            return f"{order}: there is no space {row},{column}; rows and columns run 1 to {SIZE}"
    start, end = index_of(order.row, order.column), index_of(order.to_row, order.to_column)
    owner = state.board[start]
    if not owner:
        return f"{order}: no statue stands on {space_name(start)}"
    if not on_die_line(start, state.die):
        return f"{order}: the statue on {space_name(start)} is not in {line}"
    if owner != seat and not state.move_any:
        return f"{order}: the statue on {space_name(start)} is seat {owner}'s; you may move only your own"
    if start == end:
        return f"{order}: a statue must move to another space"
    if state.board[end]:
        return f"{order}: a statue already stands on {space_name(end)}"
    return None


def winning_pattern(board: tuple[str, ...], seat: str) -> tuple[int, ...] | None:
    """Return the first pattern (see :data:`PATTERNS`) filled by ``seat``'s statues, or None."""
    return next((p for p in PATTERNS if all(board[i] == seat for i in p)), None)


def best_pattern(board: tuple[str, ...], seat: str) -> int:
    """Return the most statues of ``seat`` in any one pattern with no other statue in it
    (4 is a win; 0 when every pattern is blocked or empty)."""
    counts = (sum(board[i] == seat for i in p) for p in PATTERNS if all(board[i] in ("", seat) for i in p))
    return max(counts, default=0)

