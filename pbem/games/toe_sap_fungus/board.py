"""The beach: starting layout, what stands where, and which turns are legal.

Everything here is a pure function of a :class:`ToeSapState`. Legality
checks return a problem sentence (without the order text, the caller adds it)
or ``None`` when the order is legal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pbem.core.grid import KING, BadCellName, Cell, SquareGrid
from pbem.games.toe_sap_fungus.orders import MoveOrder, OfferOrder, ShellOrder
from pbem.games.toe_sap_fungus.state import COLOURS, ToeSapState

GRID = SquareGrid(8, 8, rows_from_bottom=True, lowercase=True)

SHELL_SQUARES: tuple[str, ...] = (
    "a8", "h8", "b7", "g7", "c6", "f6", "e5", "d4", "c3", "f3", "b2", "g2", "a1", "h1",
)
COWNIVORE_SQUARES: tuple[str, ...] = ("d5", "e4")
SEAT_SQUARES: dict[int, tuple[str, ...]] = {
    2: ("e8", "d1"),
    3: ("e8", "h4", "d1"),
    4: ("e8", "h4", "d1", "a5"),
}
SEAT_COLOURS: dict[int, tuple[tuple[str, ...], ...]] = {
    2: (("blue", "orange"), ("green", "white")),
    3: (("blue",), ("green",), ("orange",)),
    4: (("blue",), ("green",), ("orange",), ("white",)),
}

PlayOrder = MoveOrder | ShellOrder | OfferOrder


def cell(square: str) -> Cell:
    """Return the grid cell of a square name. Raises BadCellName off the board."""
    return GRID.parse(square)


def name(at: Cell) -> str:
    """Return the square name of a grid cell."""
    return GRID.name(at)


@dataclass(frozen=True)
class Beach:
    """A lookup snapshot of the board: square -> what stands there."""

    pieces: dict[str, str]
    shells: frozenset[str]
    cownivores: tuple[str, ...]
    sap: dict[str, str]

    @classmethod
    def of(cls, state: ToeSapState) -> Beach:
        """Build the snapshot of ``state``."""
        return cls(
            pieces={p.square: p.seat for p in state.players},
            shells=state.shells,
            cownivores=state.cownivores,
            sap=state.sap_at(),
        )

    def thing_at(self, square: str) -> str | None:
        """Describe what stands on ``square`` ("a shell", "seat 2's piece", ...), None if empty."""
        if square in self.pieces:
            return f"seat {self.pieces[square]}'s piece"
        if square in self.cownivores:
            return "a Cownivore"
        if square in self.shells:
            return "a shell"
        if square in self.sap:
            return f"{self.sap[square]} toe-sap"
        return None

    def is_cownivore_stop(self, square: str, moving_from: str) -> bool:
        """True when the Cownivore that started on ``moving_from`` may stop on ``square``.

        Its own starting square counts as empty (it has left it).
        """
        if square == moving_from:
            return True
        return square not in self.pieces and square not in self.cownivores and square not in self.shells


def drop_colour(state: ToeSapState, seat: str, named: str | None) -> str | None:
    """Return the colour of the stone ``seat`` drops when moving (None: no stones left).

    A named colour is used as is (validation makes sure he has it); otherwise
    the colour with more stones left, ties to the first of his colours.
    """
    if named is not None:
        return named
    player = state.player(seat)
    best: str | None = None
    for colour, left in zip(player.colours, player.hand, strict=True):
        if left > 0 and (best is None or left > player.stones_of(best)):
            best = colour
    return best


def move_problem(state: ToeSapState, seat: str, order: MoveOrder) -> str | None:
    """Return why ``order`` is illegal for ``seat`` now, or None when it is legal."""
    player = state.player(seat)
    if order.source != player.square:
        return f"your piece is on {player.square}, not {order.source}"
    if order.target == order.source:
        return "you must move to another square"
    if max(abs(a - b) for a, b in zip(cell(order.source), cell(order.target), strict=True)) != 1:
        return f"{order.target} is not next to {order.source}"
    if order.colour is not None:
        if not player.owns(order.colour):
            return f"{order.colour} is not your colour (yours: {', '.join(player.colours)})"
        if player.stones_of(order.colour) == 0:
            return f"you have no {order.colour} stones left"
    return _arrival_problem(state, seat, order.target, shells_block=False)


def shell_problem(state: ToeSapState, seat: str, order: ShellOrder) -> str | None:
    """Return why ``order`` is illegal for ``seat`` now, or None when it is legal."""
    if state.player(seat).shells == 0:
        return "you have no shell to trade"
    return _arrival_problem(state, seat, order.target, shells_block=True)


def _arrival_problem(state: ToeSapState, seat: str, target: str, *, shells_block: bool) -> str | None:
    beach = Beach.of(state)
    if target in beach.pieces:
        who = beach.pieces[target]
        return "your piece is already there" if who == seat else f"seat {who}'s piece stands on {target}"
    if target in beach.cownivores:
        return f"a Cownivore stands on {target}"
    if shells_block and target in beach.shells:
        return f"a shell lies on {target}"
    colour = beach.sap.get(target)
    if colour is not None and state.player(seat).owns(colour):
        return f"{target} holds your own {colour} toe-sap"
    return None


def offer_problem(state: ToeSapState, seat: str, order: OfferOrder) -> str | None:
    """Return why ``order`` is illegal for ``seat`` now, or None when it is legal."""
    if state.player(seat).cows == 0:
        return "you have no cows left to offer"
    start = order.squares[0]
    if start not in state.cownivores:
        return f"there is no Cownivore on {start}"
    beach = Beach.of(state)
    for here, there in zip(order.squares, order.squares[1:], strict=False):
        if here == there:
            return f"the leg {here}-{there} must cover at least one square"
        if GRID.line_between(cell(here), cell(there)) is None:
            return f"{here} to {there} is not a straight line (queen move)"
        if not beach.is_cownivore_stop(there, start):
            return f"the Cownivore cannot stop on {there} ({beach.thing_at(there)} is there)"
    return None


def play_problem(state: ToeSapState, seat: str, order: PlayOrder) -> str | None:
    """Return why a MOVE, SHELL or OFFER order is illegal for ``seat`` now, or None."""
    try:
        if isinstance(order, MoveOrder):
            return move_problem(state, seat, order)
        if isinstance(order, ShellOrder):
            return shell_problem(state, seat, order)
        return offer_problem(state, seat, order)
    except BadCellName as error:
        return str(error)


def offer_path(order: OfferOrder) -> list[str]:
    """Return every square the Cownivore passes over or lands on, in order (repeats kept)."""
    path: list[str] = []
    for here, there in zip(order.squares, order.squares[1:], strict=False):
        line = GRID.line_between(cell(here), cell(there)) or []
        path.extend(name(c) for c in line)
    return path


def cownivore_stops(beach: Beach, start: str, origin: str) -> Iterator[str]:
    """Yield every square a Cownivore on ``start`` (that began its offer on ``origin``)
    may end a leg on: queen lines in 8 directions, passing over anything."""
    for direction in KING:
        for at in GRID.ray(cell(start), direction):
            square = name(at)
            if beach.is_cownivore_stop(square, origin):
                yield square


def move_turns(state: ToeSapState, seat: str) -> Iterator[MoveOrder]:
    """Yield every legal MOVE of ``seat``: one per colour when he has a choice of two."""
    player = state.player(seat)
    with_stones = [c for c, left in zip(player.colours, player.hand, strict=True) if left > 0]
    for at in GRID.neighbours(cell(player.square), KING):
        target = name(at)
        if _arrival_problem(state, seat, target, shells_block=False) is not None:
            continue
        if len(with_stones) > 1:
            for colour in with_stones:
                yield MoveOrder(player.square, target, colour)
        else:
            yield MoveOrder(player.square, target)


def shell_turns(state: ToeSapState, seat: str) -> Iterator[ShellOrder]:
    """Yield every legal SHELL jump of ``seat``."""
    if state.player(seat).shells == 0:
        return
    for at in GRID.cells():
        target = name(at)
        if _arrival_problem(state, seat, target, shells_block=True) is None:
            yield ShellOrder(target)


def offer_turns(state: ToeSapState, seat: str) -> Iterator[OfferOrder]:
    """Yield every legal OFFER of ``seat``: each one-leg offer, then its two-leg extensions."""
    if state.player(seat).cows == 0:
        return
    beach = Beach.of(state)
    for origin in state.cownivores:
        for first in cownivore_stops(beach, origin, origin):
            yield OfferOrder((origin, first))
            for second in cownivore_stops(beach, first, origin):
                yield OfferOrder((origin, first, second))


def legal_turns(state: ToeSapState, seat: str) -> Iterator[PlayOrder]:
    """Yield every legal turn of ``seat`` (moves, then shell jumps, then offers), lazily."""
    yield from move_turns(state, seat)
    yield from shell_turns(state, seat)
    yield from offer_turns(state, seat)


def has_legal_turn(state: ToeSapState, seat: str) -> bool:
    """True when ``seat`` has at least one legal MOVE, SHELL or OFFER."""
    return next(legal_turns(state, seat), None) is not None


def colour_counts(squares: list[str], sap: dict[str, str]) -> tuple[int, ...]:
    """Return how many toe-sap stones of each colour (COLOURS order) lie on ``squares``
    (each square counted once)."""
    counts = dict.fromkeys(COLOURS, 0)
    for square in dict.fromkeys(squares):
        if square in sap:
            counts[sap[square]] += 1
    return tuple(counts[c] for c in COLOURS)
