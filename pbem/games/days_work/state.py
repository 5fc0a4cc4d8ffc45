"""The state of an All in a Day's Work game: discs on the action spaces, the temple, the
village and the town square, each player's resources and score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.bag import Bag
from pbem.games.days_work.card import BUILDINGS, CELLS, DISCS, SHOPS

MAX_ROUNDS = 20
"""Rounds played at most (option ``max_rounds``)."""

COLOURS = ("white", "black")
"""The players' colours: seat 1 white, seat 2 black (hosting plan, section 3)."""


@dataclass(frozen=True)
class DayState:
    """Everything about a game in progress or finished.

    Per seat (in ``seats`` order): ``scores`` (the score track), ``temple``
    (0 on the start space, 1..6 on the steps) and ``hands`` (resources held,
    public). ``supply`` is the general supply of resources. ``huts`` holds the
    12 village cells in card order (``""`` or the builder's seat), ``shops`` the
    seats on each shop's spaces, left to right. ``discs`` lists this round's
    placements as ``(space, seat)``; ``placed`` counts the turns of the round
    (passes included), so the seat to play is ``seats[(first + placed) % 2]``.
    ``finished`` is set at the night that ends the game, ``end_reason`` says why.
    """

    seats: tuple[str, ...]
    first: int
    round: int
    placed: int
    discs: tuple[tuple[str, str], ...]
    scores: tuple[int, ...]
    temple: tuple[int, ...]
    hands: tuple[Bag, ...]
    supply: Bag
    huts: tuple[str, ...] = ("",) * len(CELLS)
    shops: tuple[tuple[str, ...], ...] = ((),) * len(SHOPS)
    max_rounds: int = MAX_ROUNDS
    finished: bool = False
    end_reason: str = ""

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats` (ValueError if unknown)."""
        return self.seats.index(seat)

    @property
    def to_play(self) -> str:
        """The seat that places the next disc."""
        return self.seats[(self.first + self.placed) % len(self.seats)]

    @property
    def turns_per_round(self) -> int:
        """Placements a round: every player places each of his discs."""
        return DISCS * len(self.seats)

    def colour(self, seat: str) -> str:
        """Return the seat's colour: white for seat 1, black for seat 2."""
        return COLOURS[self.index(seat)]

    def hand(self, seat: str) -> Bag:
        """Return the resources ``seat`` holds."""
        return self.hands[self.index(seat)]

    def built(self, seat: str) -> int:
        """Return how many buildings (huts and shop spaces) ``seat`` has built."""
        return self.huts.count(seat) + sum(spaces.count(seat) for spaces in self.shops)

    def buildings_left(self, seat: str) -> int:
        """Return how many of his 8 building cubes ``seat`` has not built yet."""
        return BUILDINGS - self.built(seat)

    def disc_on(self, space: str) -> str | None:
        """Return the seat whose disc is on ``space`` this round, or None."""
        return next((seat for name, seat in self.discs if name == space), None)

    def discs_left(self, seat: str) -> int:
        """Return how many discs ``seat`` has still to place (or pass) this round."""
        turns = [self.seats[(self.first + k) % len(self.seats)] for k in range(self.placed, self.turns_per_round)]
        return turns.count(seat)


def dump_state(state: DayState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "first": state.first,
        "round": state.round,
        "placed": state.placed,
        "discs": [list(disc) for disc in state.discs],
        "scores": list(state.scores),
        "temple": list(state.temple),
        "hands": [hand.to_json() for hand in state.hands],
        "supply": state.supply.to_json(),
        "huts": list(state.huts),
        "shops": [list(spaces) for spaces in state.shops],
        "max_rounds": state.max_rounds,
        "finished": state.finished,
        "end_reason": state.end_reason,
    }


def load_state(data: Mapping[str, Any]) -> DayState:
    """Rebuild a state from :func:`dump_state` output (KeyError on a missing field)."""
    return DayState(
        seats=tuple(data["seats"]),
        first=int(data["first"]),
        round=int(data["round"]),
        placed=int(data["placed"]),
        discs=tuple((str(space), str(seat)) for space, seat in data["discs"]),
        scores=tuple(int(s) for s in data["scores"]),
        temple=tuple(int(t) for t in data["temple"]),
        hands=tuple(Bag.from_json(hand) for hand in data["hands"]),
        supply=Bag.from_json(data["supply"]),
        huts=tuple(str(h) for h in data["huts"]),
        shops=tuple(tuple(str(s) for s in spaces) for spaces in data["shops"]),
        max_rounds=int(data["max_rounds"]),
        finished=bool(data["finished"]),
        end_reason=str(data["end_reason"]),
    )
