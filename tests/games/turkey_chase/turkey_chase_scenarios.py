"""Scenario builders for the Turkey Chase tests: make a position directly,
parse orders, resolve a turn, and read the events."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from pbem.core import Event, GameRng, Resolution
from pbem.games import find_game
from pbem.games.turkey_chase.board import GRID, SEATS, START_CORN, START_FENCES
from pbem.games.turkey_chase.rules import TurkeyChase
from pbem.games.turkey_chase.state import TurkeyState
from pbem.orders import OrderParser

GAME: TurkeyChase = find_game("turkey-chase")  # type: ignore[assignment]
PARSER = OrderParser(GAME)


def sq(name: str) -> tuple[int, int]:
    """The cell of a square name such as ``F6``."""
    return GRID.parse(name)


def fence_of(text: str) -> frozenset[tuple[int, int]]:
    """The fence written ``A6/B6``."""
    a, b = text.split("/")
    return frozenset((sq(a), sq(b)))


def make_state(
    *,
    farmers: Mapping[str, Iterable[str]] | None = None,
    birds: Mapping[str, Iterable[str]] | None = None,
    fences: Iterable[str] | None = None,
    corn: Mapping[str, int] | None = None,
    scores: Mapping[str, Fraction | int] | None = None,
    turn: int = 1,
    nmr: str = "nothing",
) -> TurkeyState:
    """A position with exactly the given pieces (seats not named have none;
    without ``birds`` the birds stand where they start), the starting fences
    unless ``fences`` is given, the starting corn changed by ``corn``, and
    scores 0 unless given."""
    farmers = farmers or {}
    if birds is None:
        birds = {"A": ["F1", "F1"], "B": ["A6", "A6"], "C": ["F11", "F11"], "D": ["K6", "K6"]}
    corn_values = list(START_CORN)
    for name, value in (corn or {}).items():
        corn_values[GRID.index(sq(name))] = value
    return TurkeyState(
        turn=turn,
        corn=tuple(corn_values),
        fences=START_FENCES if fences is None else frozenset(fence_of(f) for f in fences),
        farmers=tuple(tuple(sorted(sq(n) for n in farmers.get(s, ()))) for s in SEATS),
        birds=tuple(tuple(sorted(sq(n) for n in birds.get(s, ()))) for s in SEATS),
        scores=tuple(Fraction((scores or {}).get(s, 0)) for s in SEATS),
        nmr=nmr,
    )


def parse(text: str) -> list:
    """Parse order text that must be free of syntax errors."""
    parsed = PARSER.parse(text)
    assert not parsed.has_problems, [line.problem for line in parsed.lines]
    return parsed.orders


def problems(state: TurkeyState, seat: str, text: str) -> list[tuple[int | None, str]]:
    """Validate order text for a seat; return (index, message) pairs."""
    return [(p.index, p.message) for p in GAME.validate(state, seat, parse(text))]


def messages(state: TurkeyState, seat: str, text: str) -> list[str]:
    """The validation messages for order text."""
    return [message for _, message in problems(state, seat, text)]


def resolve(state: TurkeyState, orders: Mapping[str, str], *, validated: bool = True) -> Resolution[TurkeyState]:
    """Resolve one turn with order text per seat (seats not named send nothing).

    With ``validated`` every submission must pass validation first, as the
    runner guarantees.
    """
    parsed = {seat: parse(orders.get(seat, "")) for seat in SEATS}
    if validated:
        for seat, seat_orders in parsed.items():
            assert GAME.validate(state, seat, seat_orders) == [], (seat, GAME.validate(state, seat, seat_orders))
    return GAME.resolve(state, parsed, GameRng(0))


def texts(events: Iterable[Event], phase: str | None = None) -> list[str]:
    """The texts of the events (of one phase label if given)."""
    return [e.text for e in events if phase is None or e.phase == phase]


def names(cells: Iterable[tuple[int, int]]) -> list[str]:
    """Square names of cells, in the given order."""
    return [GRID.name(c) for c in cells]


def birds_of(state: TurkeyState, seat: str) -> list[str]:
    """Square names of a seat's birds."""
    return names(state.birds[SEATS.index(seat)])


def farmers_of(state: TurkeyState, seat: str) -> list[str]:
    """Square names of a seat's farmers."""
    return names(state.farmers[SEATS.index(seat)])
