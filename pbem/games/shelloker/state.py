"""The state of a Shelloker game: shells, bets, the cliffs table, the bag and the hidden hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.bag import Bag

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "white")
"""The six colours of the value cubes, in the book's order (hands are listed in this order)."""

CUBES_PER_COLOUR = 8
START_SHELLS = 20
HAND_SIZE = 3
CLIFF_SPACES = 12
TOP_BET = 12
"""The highest bet space (CLARIFICATIONS: bet spaces 1..12)."""
WIN_SHELLS = 35
START_CLIFFS = 2


def full_bag() -> Bag:
    """Return the 48 value cubes: 8 of each colour."""
    return Bag.filled(COLOURS, CUBES_PER_COLOUR)


def listed(cubes: Sequence[str] | Bag) -> tuple[str, ...]:
    """Return cubes in the colour order red, blue, green, yellow, black, white."""
    bag = cubes if isinstance(cubes, Bag) else Bag.of(cubes)
    return tuple(c for c in COLOURS for _ in range(bag.count(c)))


@dataclass(frozen=True)
class ShellokerState:
    """Everything about a game in progress or finished.

    Indexes follow ``seats``. ``bets[i]`` is the space of seat i's bet cube
    (1..12), ``folded[i]`` whether it folded this round, ``checked[i]``
    whether it checked this round; ``raised`` whether anybody raised this
    round. ``first`` holds the first-player disc, ``to_play`` is the seat to
    act. ``cliffs`` are the cubes on cliff spaces 1, 2, ... ``shown`` the
    hands revealed at the last showdown (public): (seat, cubes) pairs.
    """

    seats: tuple[str, ...]
    shells: tuple[int, ...]
    bets: tuple[int, ...]
    folded: tuple[bool, ...]
    checked: tuple[bool, ...]
    hands: tuple[Bag, ...]
    bag: Bag
    cliffs: tuple[str, ...]
    first: int
    to_play: int
    round: int = 1
    raised: bool = False
    shown: tuple[tuple[str, tuple[str, ...]], ...] = ()
    finished: bool = False
    end_reason: str = ""

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats`."""
        return self.seats.index(seat)

    @property
    def seat_to_play(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.to_play]

    @property
    def top(self) -> int:
        """The most advanced bet space of the players still in the round."""
        return max(b for b, f in zip(self.bets, self.folded, strict=True) if not f)

    @property
    def active(self) -> tuple[int, ...]:
        """The indexes of the seats that have not folded this round."""
        return tuple(i for i, f in enumerate(self.folded) if not f)

    def value(self, colour: str) -> int:
        """Return what a cube of ``colour`` is worth now: 1 plus its cubes on the cliffs."""
        return 1 + self.cliffs.count(colour)

    def worth(self, cubes: Sequence[str] | Bag) -> int:
        """Return the value of a hand."""
        return sum(self.value(c) for c in listed(cubes))


def dump_state(state: ShellokerState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "shells": list(state.shells),
        "bets": list(state.bets),
        "folded": list(state.folded),
        "checked": list(state.checked),
        "hands": [h.to_json() for h in state.hands],
        "bag": state.bag.to_json(),
        "cliffs": list(state.cliffs),
        "first": state.first,
        "to_play": state.to_play,
        "round": state.round,
        "raised": state.raised,
        "shown": [[seat, list(cubes)] for seat, cubes in state.shown],
        "finished": state.finished,
        "end_reason": state.end_reason,
    }


def load_state(data: Mapping[str, Any]) -> ShellokerState:
    """Rebuild a state from :func:`dump_state` output (KeyError on missing fields)."""
    return ShellokerState(
        seats=tuple(data["seats"]),
        shells=tuple(int(s) for s in data["shells"]),
        bets=tuple(int(b) for b in data["bets"]),
        folded=tuple(bool(f) for f in data["folded"]),
        checked=tuple(bool(c) for c in data["checked"]),
        hands=tuple(Bag.from_json(h) for h in data["hands"]),
        bag=Bag.from_json(data["bag"]),
        cliffs=tuple(data["cliffs"]),
        first=int(data["first"]),
        to_play=int(data["to_play"]),
        round=int(data["round"]),
        raised=bool(data["raised"]),
        shown=tuple((str(seat), tuple(cubes)) for seat, cubes in data["shown"]),
        finished=bool(data["finished"]),
        end_reason=str(data["end_reason"]),
    )
