"""The game protocol: what every hosted game provides, and the values it exchanges.

A game is a stateless object whose methods are pure functions of their
arguments: state in, state out, no I/O. States are frozen dataclasses; orders
are frozen dataclasses whose ``str()`` is the canonical order text, so stored
orders are kept as text and parsed again on replay.

Turn shape. The runner asks :meth:`Game.phase` which seats owe orders now
(one seat in a sequential game, every seat in a simultaneous one), collects
their orders, and calls :meth:`Game.resolve` once with all of them. A turn
that needs a roll before the player chooses is two phases: the roll happens in
one resolve and is shown in the state, the choice is the next phase's orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from pbem.core.rng import GameRng

S = TypeVar("S")


class Order(Protocol):
    """An order: a frozen dataclass whose ``str()`` is its canonical text."""

    def __str__(self) -> str: ...


O = TypeVar("O", bound=Order)

Score = int | Fraction


@dataclass(frozen=True)
class Phase:
    """What the game waits for now.

    ``seats`` owe orders (all of them at once). ``name`` is a short label such
    as ``"orders"`` or ``"setup"``; ``prompt`` is a line for the seats that owe
    orders, such as ``"You rolled 3 and 5."`` (other readers see it prefixed
    with those seats' names).
    """

    name: str
    seats: tuple[str, ...]
    prompt: str = ""


@dataclass(frozen=True)
class OrderProblem:
    """Why an order was refused.

    ``index`` is the position of the order in the submitted sequence, or
    ``None`` for a problem with the submission as a whole. A refused order is
    dropped; the others stand.
    """

    index: int | None
    message: str


@dataclass(frozen=True)
class Event:
    """Something that happened while a turn resolved, for the reports.

    ``kind`` is a stable machine label (``"feed"``, ``"capture"``, ...),
    ``text`` the sentence a report prints, ``phase`` the step it belongs to
    (reports group by it), ``seat`` the acting seat if any, ``data`` extra
    JSON-compatible detail. ``seats`` limits who may see it: ``None`` means
    everyone (public), otherwise only the listed seats.
    """

    kind: str
    text: str
    phase: str = ""
    seat: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] | None = None

    def is_visible_to(self, seat: str | None) -> bool:
        """True when ``seat`` (``None`` = the public) may see this event."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        """Return the event as JSON-compatible data."""
        return {
            "kind": self.kind,
            "text": self.text,
            "phase": self.phase,
            "seat": self.seat,
            "data": dict(self.data),
            "seats": list(self.seats) if self.seats is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event stored with :meth:`to_json`."""
        seats = data.get("seats")
        return cls(
            kind=data["kind"],
            text=data["text"],
            phase=data.get("phase", ""),
            seat=data.get("seat"),
            data=data.get("data") or {},
            seats=tuple(seats) if seats is not None else None,
        )


@dataclass(frozen=True)
class Resolution(Generic[S]):
    """The result of resolving one phase: the new state and what happened."""

    state: S
    events: list[Event]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (several on a shared win)."""

    winners: tuple[str, ...]
    reason: str = ""


@runtime_checkable
class Game(Protocol[S, O]):
    """What every hosted game implements. All methods are pure.

    Games are registered in :mod:`pbem.games`. ``grammar`` names the file in
    ``grammars/`` and ``transformer`` builds order dataclasses from its parse
    tree; ``terminal_words`` maps the grammar's terminal names to the words a
    player reads in a syntax error (``{"SQUARE": "a square such as F6"}``).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    grammar: ClassVar[str]
    terminal_words: ClassVar[Mapping[str, str]]

    def transformer(self) -> Any:
        """Return a lark Transformer that turns one parse tree into a list of orders."""
        ...

    def seat_names(self, players: int) -> tuple[str, ...]:
        """Return the seat names for a game of ``players`` players, in turn order.

        Raises ``GameError`` when the game cannot be played by that many.
        """
        ...

    def options(self) -> Mapping[str, str]:
        """Return the creator options this game accepts, name -> description."""
        ...

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> S:
        """Return the starting state. Raises ``GameError`` for bad options."""
        ...

    def phase(self, state: S) -> Phase:
        """Return what the game waits for. Only called while ``outcome`` is None."""
        ...

    def validate(self, state: S, seat: str, orders: Sequence[O]) -> list[OrderProblem]:
        """Check a seat's orders against ``state``; return one problem per refused order.

        Either the orders without a problem form a valid submission on their
        own (they are stored), or a problem with index ``None`` refuses the
        submission as a whole (nothing is stored) - the pattern for games that
        judge a play as a whole.
        """
        ...

    def default_orders(self, state: S, seat: str) -> list[O]:
        """Return the NMR orders for a seat that sent nothing by the deadline."""
        ...

    def forced_orders(self, state: S, seat: str) -> list[O] | None:
        """Return a play for ``seat`` when the player has no real choice (exactly one
        legal play, or several that all lead to the same position; ``[]`` for a pass),
        else None. The runner plays a forced play itself instead of asking.
        """
        ...

    def submission_summary(self, state: S, seat: str, orders: Sequence[O]) -> str:
        """Return one line about a valid submission as a whole (e.g. its cost
        against the budget: ``"These orders cost 3 of your 5 points."``), or ``""``."""
        ...

    def sample_orders(self, state: S, seat: str, rng: GameRng) -> list[O]:
        """Return a random legal submission (robot players and property tests)."""
        ...

    def resolve(self, state: S, orders: Mapping[str, Sequence[O]], rng: GameRng) -> Resolution[S]:
        """Apply every owing seat's orders; return the new state and the events.

        Orders that became impossible during resolution fail with an event.
        """
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Return how the game ended, or None while it goes on."""
        ...

    def scores(self, state: S) -> dict[str, Score]:
        """Return each seat's current score."""
        ...

    def view(self, state: S, seat: str | None) -> dict[str, Any]:
        """Return JSON-compatible state that ``seat`` may see (``None`` = public only)."""
        ...

    def dump(self, state: S) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        ...

    def load(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from :meth:`dump` output."""
        ...

    def help(self) -> str:
        """Return the order syntax with examples, as sent in reply to HELP."""
        ...


def score_to_json(score: Score) -> int | float:
    """Return a score as a JSON number: an int when whole, else a float to 2 places."""
    if isinstance(score, Fraction):
        if score.denominator == 1:
            return int(score)
        return round(float(score), 2)
    return score


def format_score(score: Score) -> str:
    """Return a score for a report: whole numbers plain, fractions to two decimals."""
    value = score_to_json(score)
    return f"{value:.2f}" if isinstance(value, float) else str(value)
