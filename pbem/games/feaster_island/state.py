"""The state of a Feaster Island game: the bag, the six table columns, every player's dishes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.core.bag import Bag

COLOURS: tuple[str, ...] = ("blue", "red", "green", "yellow", "black", "white")
"""The six dishes, in the order of their values on side A of the island card (5 to 10)."""

CUBES_PER_COLOUR = 9
COLUMNS = 6

VALUES: Mapping[str, Mapping[str, int]] = {
    "a": {colour: 5 + i for i, colour in enumerate(COLOURS)},
    "b": {colour: 10 - i for i, colour in enumerate(COLOURS)},
}
"""Dish values by card side: side A blue 5 ... white 10, side B the reverse (CLARIFICATIONS)."""

STAGE_TURN = "turn"
STAGE_LAST = "last-take"
STAGE_OVER = "over"


@dataclass(frozen=True)
class FeasterState:
    """A whole game.

    ``bag`` and each ``plates[i]`` count cubes per colour in :data:`COLOURS`
    order; ``plates[i]`` belongs to ``seats[i]``. ``columns[c]`` lists the
    cubes of table column ``c + 1`` from the bottom up. ``current`` is the
    index of the seat to play; in the ``turn`` stage it ``rolled`` the die
    and ``drawn`` holds the cubes drawn for it (in drawing order). In the
    ``last-take`` stage ``last_left`` seats (``current`` first) still have
    their last take. ``discarded`` counts the cubes put out of the game.
    ``turn`` counts players' turns from 1.
    """

    seats: tuple[str, ...]
    side: str
    bag: tuple[int, ...]
    columns: tuple[tuple[str, ...], ...]
    plates: tuple[tuple[int, ...], ...]
    current: int
    stage: str
    rolled: int
    drawn: tuple[str, ...]
    turn: int
    last_left: int = 0
    discarded: int = 0

    @property
    def seat(self) -> str:
        """The seat to play."""
        return self.seats[self.current]

    @property
    def is_over(self) -> bool:
        """True once the last takes are done and the game is scored."""
        return self.stage == STAGE_OVER

    @property
    def values(self) -> Mapping[str, int]:
        """The dish values of the chosen card side."""
        return VALUES[self.side]

    def bag_of_cubes(self) -> Bag:
        """Return the bag as a :class:`~pbem.core.bag.Bag`."""
        return Bag.from_counts(dict(zip(COLOURS, self.bag, strict=True)))

    def plate(self, seat: str) -> Mapping[str, int]:
        """Return how many cubes of each colour ``seat`` has taken (ValueError for an unknown seat)."""
        return dict(zip(COLOURS, self.plates[self.seats.index(seat)], strict=True))


def counts_of(bag: Bag) -> tuple[int, ...]:
    """Return a bag's cubes as counts in :data:`COLOURS` order."""
    return tuple(bag.count(colour) for colour in COLOURS)


def full_bag() -> Bag:
    """Return the bag of the game: 9 dish cubes of each of the 6 colours (54)."""
    return Bag.filled(COLOURS, CUBES_PER_COLOUR)
