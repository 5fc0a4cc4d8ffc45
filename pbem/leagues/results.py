"""What one game of a league gave each of its players: a result kind (from the game's outcome) and
its score, and the points each kind earns (set by the league's GM)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace

from pbem.core.errors import InvalidInput
from pbem.core.protocol import Outcome, OutcomeKind


class ResultKind(enum.StrEnum):
    """One player's result in one game of a league."""

    WIN = "win"  # the only winner
    SHARED = "shared"  # one of several winners (a cooperative victory: every seat)
    DRAW = "draw"  # a draw: nobody wins, nobody loses
    LOSS = "loss"  # somebody else won
    DEFEAT = "defeat"  # nobody won: a cooperative defeat (everyone loses to the game)
    BYE = "bye"  # no table for this player this round


@dataclass(frozen=True)
class Place:
    """One player's result at one table: the kind and the game's score for the player."""

    kind: ResultKind
    score: float = 0.0


@dataclass(frozen=True)
class Points:
    """The points each result kind earns in the standings. The defaults: win 3, shared win 2, draw 1,
    loss 0, cooperative defeat 0, bye 1."""

    win: float = 3
    shared: float = 2
    draw: float = 1
    loss: float = 0
    defeat: float = 0
    bye: float = 1

    def of(self, kind: ResultKind) -> float:
        """The points ``kind`` earns."""
        return float(getattr(self, kind.value))

    def as_text(self) -> str:
        """The points as the ``points=`` option writes them: ``win:3,shared:2,...``."""
        return ",".join(f"{f.name}:{number_text(getattr(self, f.name))}" for f in fields(self))

    def as_dict(self) -> dict[str, float]:
        """The points by kind name, for storing."""
        return {f.name: float(getattr(self, f.name)) for f in fields(self)}


MAX_POINTS = 1000
"""The most points one result may earn (and the least, negated)."""


def parse_points(text: str) -> Points:
    """Read ``win:3,draw:1,...`` (any of win, shared, draw, loss, defeat, bye; the others keep their
    defaults). Raises InvalidInput naming an unknown kind, a kind given twice, or a value that is no
    number from -1000 to 1000."""
    points = Points()
    seen: set[str] = set()
    known = [f.name for f in fields(Points)]
    for part in text.split(","):
        name, colon, value = part.partition(":")
        name = name.strip().lower()
        if not colon or name not in known:
            raise InvalidInput(f"points {part.strip()!r}: write kind:number with a kind among {', '.join(known)} "
                               "(such as points=win:3,draw:1)")
        if name in seen:
            raise InvalidInput(f"points: {name} is given twice")
        seen.add(name)
        try:
            number = float(value.strip())
        except ValueError:
            raise InvalidInput(f"points {part.strip()!r}: {value.strip()!r} is not a number") from None
        if not -MAX_POINTS <= number <= MAX_POINTS:
            raise InvalidInput(f"points {part.strip()!r}: give a number from {-MAX_POINTS} to {MAX_POINTS}")
        points = replace(points, **{name: number})
    return points


def points_from(data: Mapping[str, float]) -> Points:
    """The points stored by :meth:`Points.as_dict`."""
    return Points(**{f.name: float(data[f.name]) for f in fields(Points) if f.name in data})


def places_of(outcome: Outcome, seats: Sequence[str], scores: Mapping[str, float]) -> dict[str, Place]:
    """Each seat's place in a finished game: the kind its outcome gives the seat, and its score. A seat
    left out of an agreed draw (it had left the game) lost."""
    winners = set(outcome.winners)
    kinds: dict[str, ResultKind] = {}
    for seat in seats:
        if outcome.kind is OutcomeKind.DRAW:
            kinds[seat] = ResultKind.DRAW if outcome.shares_draw(seat) else ResultKind.LOSS
        elif outcome.kind is OutcomeKind.LOSS:
            kinds[seat] = ResultKind.DEFEAT
        elif seat in winners:
            kinds[seat] = ResultKind.WIN if outcome.kind is OutcomeKind.WIN else ResultKind.SHARED
        else:
            kinds[seat] = ResultKind.LOSS
    return {seat: Place(kinds[seat], float(scores.get(seat, 0))) for seat in seats}


def number_text(value: float) -> str:
    """A number as written in points and standings: whole numbers without a decimal point."""
    return str(int(value)) if float(value).is_integer() else str(value)
