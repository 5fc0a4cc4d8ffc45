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

import enum
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


MAX_ORDER_CHOICES = 12
"""Most complete submissions a report offers as one-click replies; a seat with more choices types its
orders (:meth:`Game.order_choices`)."""

SILENCE_NMR = "nmr"
SILENCE_PASS = "pass"


@dataclass(frozen=True)
class Phase:
    """What the game waits for now.

    ``seats`` owe orders (all of them at once). ``name`` is a short label such
    as ``"orders"`` or ``"setup"``; ``prompt`` is a line for the seats that owe
    orders, such as ``"You rolled 3 and 5."`` (other readers see it prefixed
    with those seats' names).

    The optional fields shape how the service runs the phase:

    - ``deadline_hours``: an answer window shorter than the game's turn. The
      phase's deadline is now plus ``min(turn_hours, deadline_hours)``; with
      ``turn_hours`` 0 there is no deadline, as for every phase.
    - ``silence``: what a seat that sends nothing means. ``"nmr"`` (the
      default): it missed the deadline, with everything that follows (absence,
      the all-NMR pause count, reminders). ``"pass"``: it chose to pass; it
      gets :meth:`Game.default_orders` all the same, but is recorded as passed,
      not NMR, is not reminded and counts toward nothing.
    - ``shared_orders``: a team phase; the check reply and STATUS of an owing
      seat list the other owing seats' stored orders for this step.
    - ``press_open``: False while PRESS between players is forbidden (a silent
      mission); the GM's press still goes through.
    """

    name: str
    seats: tuple[str, ...]
    prompt: str = ""
    deadline_hours: float | None = None
    silence: str = SILENCE_NMR
    shared_orders: bool = False
    press_open: bool = True

    def __post_init__(self) -> None:
        if self.silence not in (SILENCE_NMR, SILENCE_PASS):
            raise ValueError(f"Phase.silence must be {SILENCE_NMR!r} or {SILENCE_PASS!r}, not {self.silence!r}")
        if self.deadline_hours is not None and not 0 < self.deadline_hours < float("inf"):
            raise ValueError(f"Phase.deadline_hours must be a positive number of hours, not {self.deadline_hours!r}")

    @property
    def is_window(self) -> bool:
        """True when silence in this phase means PASS (an answer window)."""
        return self.silence == SILENCE_PASS


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


class OutcomeKind(str, enum.Enum):
    """How a game ended: one winner, a shared win, a draw, or a loss for everyone."""

    WIN = "win"
    SHARED = "shared"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the winning seats: one for a win, several for a shared win
    (a cooperative victory lists every seat), none for a draw or a loss for
    everyone (a cooperative defeat). ``kind`` defaults from the number of
    winners (one: win, several: shared, none: loss); a draw says so.

    ``agreed_by`` names the seats that ended the game by agreement rather than
    by the rules: the seats of a draw they agreed (:meth:`agreed_draw`; the
    game's other seats, which had left it, lose), or a team that conceded
    (:meth:`conceded`, a loss for everyone). Empty for every other end.
    """

    winners: tuple[str, ...]
    reason: str = ""
    kind: OutcomeKind | None = None
    agreed_by: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        kind = self.kind
        if kind is None:
            kind = OutcomeKind.WIN if len(self.winners) == 1 else OutcomeKind.SHARED if self.winners \
                else OutcomeKind.LOSS
        kind = OutcomeKind(kind)
        if (kind in (OutcomeKind.DRAW, OutcomeKind.LOSS)) != (not self.winners) or \
                (kind is OutcomeKind.WIN and len(self.winners) != 1):
            raise ValueError(f"an outcome of kind {kind.value!r} cannot have the winners {self.winners!r}")
        if self.agreed_by and kind not in (OutcomeKind.DRAW, OutcomeKind.LOSS):
            raise ValueError(f"only a draw or a loss can be agreed, not an outcome of kind {kind.value!r}")
        object.__setattr__(self, "kind", kind)

    @classmethod
    def draw(cls, reason: str = "") -> Outcome:
        """Return a draw: nobody wins, nobody loses."""
        return cls((), reason, OutcomeKind.DRAW)

    @classmethod
    def loss(cls, reason: str = "") -> Outcome:
        """Return a loss for everyone (a cooperative defeat)."""
        return cls((), reason, OutcomeKind.LOSS)

    @classmethod
    def agreed_draw(cls, seats: tuple[str, ...], reason: str = "") -> Outcome:
        """Return a draw among ``seats``, agreed by them: nobody wins; a seat of the game not among them
        (it had left the game) loses. Raises ValueError for no seats."""
        if not seats:
            raise ValueError("an agreed draw needs the seats that agreed it")
        return cls((), reason, OutcomeKind.DRAW, tuple(seats))

    @classmethod
    def conceded(cls, seats: tuple[str, ...], reason: str = "") -> Outcome:
        """Return the defeat a cooperative team conceded: a loss for everyone, agreed by ``seats``. Raises
        ValueError for no seats."""
        if not seats:
            raise ValueError("a concession needs the seats that conceded")
        return cls((), reason, OutcomeKind.LOSS, tuple(seats))

    @property
    def is_agreed(self) -> bool:
        """True when the seats ended the game by agreement (a draw they agreed, a team's concession)."""
        return bool(self.agreed_by)

    def shares_draw(self, seat: str) -> bool:
        """True when ``seat`` is in this draw: every seat of a draw by the rules, the agreeing seats of
        an agreed one; False for any other outcome."""
        return self.kind is OutcomeKind.DRAW and (not self.agreed_by or seat in self.agreed_by)

    @property
    def headline(self) -> str:
        """One line for reports and STATUS: ``Winner: 2``, ``Shared win: 1, 3``,
        ``Draw``, ``Draw agreed by 1, 2, 3``, ``Nobody wins`` or ``Nobody wins: the team conceded``."""
        if self.kind is OutcomeKind.WIN:
            return f"Winner: {self.winners[0]}"
        if self.kind is OutcomeKind.SHARED:
            return f"Shared win: {', '.join(self.winners)}"
        if self.kind is OutcomeKind.DRAW:
            return f"Draw agreed by {', '.join(self.agreed_by)}" if self.agreed_by else "Draw"
        return "Nobody wins: the team conceded" if self.agreed_by else "Nobody wins"


@runtime_checkable
class Game(Protocol[S, O]):
    """What every hosted game implements. All methods are pure.

    Games are registered in :mod:`pbem.games`. ``grammar`` is the path of the
    game's grammar file and ``transformer`` builds order dataclasses from its parse
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
        """Return the NMR orders for a seat that sent nothing by the deadline.

        May use the seat's own secrets only where the result stays secret, and
        never its role (see :meth:`hidden_variant`).
        """
        ...

    def forced_orders(self, state: S, seat: str) -> list[O] | None:
        """Return a play for ``seat`` when the player has no real choice (exactly one
        legal play, or several that all lead to the same position; ``[]`` for a pass),
        else None. The runner plays a forced play itself instead of asking.

        Whether a play is forced is seen by everyone, so it may depend only on what
        every seat sees, or on what the rules make public anyway (a pass in The Three
        Pyramids): never on a secret (see :meth:`hidden_variant`).
        """
        ...

    def hidden_variant(self, state: S, keep: str | None, rng: GameRng) -> S:
        """Return a state every seat but ``keep`` could not tell from ``state``: the
        public view is the same, and every secret not held by ``keep`` (other hands,
        secret colours, factions, the order of a bag) is redrawn consistently.
        ``keep`` None redraws every secret.

        The rule of hidden information, checked on every game with secrets by the
        shared conformance test: under such a redrawing the public view, the phase,
        which seats get a forced play, and ``keep``'s own view and NMR default stay
        the same. What the service does by itself is visible to everyone, so it must
        never depend on a secret: a forced play may only use information every seat
        sees, or that the rules make public anyway; an NMR default may use the seat's
        own secrets only where its result stays secret, never the seat's role.
        Where a choice would reveal a secret, the default draws it from the game's RNG.
        """
        ...

    def order_choices(self, state: S, seat: str) -> Sequence[Sequence[O]] | None:
        """Return the complete legal submissions of ``seat``, which owes orders now, when they are few:
        at most :data:`MAX_ORDER_CHOICES`, each one a whole valid submission (``validate`` finds no
        problem with it), together every play the rules allow but for optional extras (an order filed
        in advance, a named cube to pay). None when the seat has more choices, or the game does not
        list them. The seat's report offers each as a reply already written.

        Only the seat itself sees its choices, so they may depend on its own secrets (its hand)."""
        ...

    def submission_summary(self, state: S, seat: str, orders: Sequence[O]) -> str:
        """Return one line about a valid submission as a whole (e.g. its cost
        against the budget: ``"These orders cost 3 of your 5 points."``), or ``""``."""
        ...

    def is_wait(self, state: S, seat: str, orders: Sequence[O]) -> bool:
        """Return True when ``orders`` (valid for ``seat``) only wait: they spend nothing this step."""
        ...

    def all_waited_warning(self, state: S) -> str | None:
        """Return what it costs the players when every owing seat waits in the current step (The Epic
        Quest: the round's remaining actions are lost), or None when waiting costs nothing special.
        With a warning, every reply to a wait says it, and a step in which everyone waited resolves
        early only once every owing seat said READY (at its deadline as always)."""
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

    def standing_outcome(self, state: S) -> Outcome:
        """Return how the game would end if it ended at ``state`` (the GM's END): the rule book's ranking,
        tie-breaks included, applied to the position as it stands."""
        ...

    def eliminated_seats(self, state: S) -> tuple[str, ...]:
        """Return the seats the rules put out of the game (an agreed draw is among the others)."""
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
