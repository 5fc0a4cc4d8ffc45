"""The state of a Three Pyramids game: the bag, the hidden hands, the pyramids, the score track."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.core.bag import Bag

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "white")
"""The six cube colours, in the book's order (orders and reports use these names)."""

CUBES_PER_COLOUR = 9
HAND_SIZE = 10
ROUNDS = 3
MAJORITY_POINTS = 12

PYRAMIDS: tuple[str, ...] = ("LEFT", "CENTER", "RIGHT")
"""The three pyramids, left to right."""

SIDES_BY_PLAYERS: Mapping[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "top"),
    4: ("bottom", "left", "top", "right"),
}
"""Each seat's assigned side of every pyramid, seats in order (clockwise round the card)."""


def full_bag() -> Bag:
    """Return the bag of the game: 9 cubes of each of the 6 colours (54)."""
    return Bag.filled(COLOURS, CUBES_PER_COLOUR)


@dataclass(frozen=True)
class PyramidsState:
    """Everything about a game in progress or finished.

    Indexes follow ``seats``. ``hands[i]`` is seat i's hidden hand,
    ``pyramids[p][i]`` the cubes seat i played on pyramid p this round (in the
    order played), ``scores[i]`` its place on the score track. ``first`` is
    the index of the round's first player, ``to_play`` the index of the seat
    whose turn it is, ``passed[i]`` whether seat i has passed this round.
    ``turn`` counts the plays made this round.
    """

    seats: tuple[str, ...]
    round: int
    scores: tuple[int, ...]
    bag: Bag
    hands: tuple[Bag, ...]
    pyramids: tuple[tuple[tuple[str, ...], ...], ...]
    first: int
    to_play: int
    passed: tuple[bool, ...]
    turn: int = 0
    finished: bool = False

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats` (ValueError if unknown)."""
        return self.seats.index(seat)

    def hand(self, seat: str) -> Bag:
        """Return ``seat``'s hand."""
        return self.hands[self.index(seat)]

    def pyramid(self, name: str) -> tuple[tuple[str, ...], ...]:
        """Return the cubes on a pyramid, per seat (KeyError-like ValueError for a bad name)."""
        return self.pyramids[PYRAMIDS.index(name)]

    def colours_on(self, name: str) -> frozenset[str]:
        """Return the colours of the cubes on a pyramid (every side)."""
        return frozenset(c for side in self.pyramid(name) for c in side)

    def is_empty(self, name: str) -> bool:
        """True when no cube lies on any side of the pyramid."""
        return not any(self.pyramid(name))

    @property
    def seat_to_play(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.to_play]

    def side(self, seat: str) -> str:
        """Return ``seat``'s side of the pyramids (bottom, left, top, right)."""
        return SIDES_BY_PLAYERS[len(self.seats)][self.index(seat)]


def empty_pyramids(players: int) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Return three pyramids without a cube, each with a side for every player."""
    return tuple(tuple(() for _ in range(players)) for _ in PYRAMIDS)

