"""Board questions of Fungus: where a gem may go, which gems a placement
surrounds, groups and scores. Pure functions of a :class:`FungusState`."""

from __future__ import annotations

from pbem.core.hexgrid import HexCell

from pbem.games.fungus.state import EMPTY, SETUP, FungusState


def empty_cells(state: FungusState) -> tuple[HexCell, ...]:
    """Return the empty cells in reading order (a1, b1, ..., a2, ...)."""
    return tuple(c for c in state.grid.cells() if state.at(c) == EMPTY)


def is_full(state: FungusState) -> bool:
    """True when no cell of the board is empty."""
    return EMPTY not in state.board


def touches_gem(state: FungusState, cell: HexCell) -> bool:
    """True when a neighbour of ``cell`` holds a gem of any player."""
    return any(state.at(n) != EMPTY for n in state.grid.neighbours(cell))


def touches_enemy(state: FungusState, cell: HexCell, seat: str) -> bool:
    """True when a neighbour of ``cell`` holds a gem of a player other than ``seat``."""
    return any(state.at(n) not in (EMPTY, seat) for n in state.grid.neighbours(cell))


def is_setup_cell(state: FungusState, cell: HexCell) -> bool:
    """True when ``cell`` is empty, off the board edge and next to no gem."""
    grid = state.grid
    return state.at(cell) == EMPTY and not grid.is_edge(cell) and not touches_gem(state, cell)


def setup_cells(state: FungusState) -> tuple[HexCell, ...]:
    """Return the cells a setup gem may go on: the empty inner cells next to no
    gem, or, when there is none, every empty cell (house rule)."""
    strict = tuple(c for c in empty_cells(state) if is_setup_cell(state, c))
    return strict or empty_cells(state)


def fungus_cells(state: FungusState, seat: str) -> tuple[HexCell, ...]:
    """Return the cells ``seat`` may grow on: the empty cells next to another
    player's gem, or, when there is none, every empty cell."""
    strict = tuple(c for c in empty_cells(state) if touches_enemy(state, c, seat))
    return strict or empty_cells(state)


def legal_cells(state: FungusState, seat: str) -> tuple[HexCell, ...]:
    """Return, in reading order, the cells ``seat`` may place on in the current
    stage (setup or fungus); empty when it has no gem left."""
    if state.supply[state.index(seat)] <= 0:
        return ()
    return setup_cells(state) if state.stage == SETUP else fungus_cells(state, seat)


def open_or_own(state: FungusState, board: tuple[str, ...], target: HexCell) -> HexCell | None:
    """Return a neighbour of ``target`` that keeps it from being surrounded on
    ``board`` (empty, or holding a gem of the target's own colour), or None
    when every neighbour holds a gem of another colour (the board edge is closed)."""
    colour = board[target[1] * state.size + target[0]]
    for n in state.grid.neighbours(target):
        held = board[n[1] * state.size + n[0]]
        if held in (EMPTY, colour):
            return n
    return None


def capturable(state: FungusState, seat: str, cell: HexCell) -> tuple[HexCell, ...]:
    """Return the enemy gems next to ``cell`` that a gem of ``seat`` placed on
    ``cell`` would leave surrounded (every neighbour a gem of another colour),
    in reading order. Does not check the variant or the placement itself."""
    board = state.with_cells({cell: seat})
    found = []
    for n in state.grid.neighbours(cell):
        held = state.at(n)
        if held not in (EMPTY, seat) and open_or_own(state, board, n) is None:
            found.append(n)
    return tuple(sorted(found, key=lambda c: (c[1], c[0])))


def groups(state: FungusState, seat: str) -> list[frozenset[HexCell]]:
    """Return the connected groups of ``seat``'s gems."""
    return state.grid.groups(lambda c: state.at(c) == seat)


def gems_on_board(state: FungusState, seat: str) -> int:
    """Return how many gems of ``seat`` lie on the board."""
    return state.board.count(seat)


def score(state: FungusState, seat: str) -> int:
    """Return the score of ``seat``: gems on the board minus groups (basic), or
    the largest group minus groups (aggressive). A player with no gem scores 0."""
    found = groups(state, seat)
    if state.aggressive:
        return max((len(g) for g in found), default=0) - len(found)
    return gems_on_board(state, seat) - len(found)
