"""The state of a Kentucksea Derby game: shells and bets, the speed column, the race, the bidding."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games.kentucksea_derby.bidding import Group
from pbem.games.kentucksea_derby.racing import COLOURS

STAGE_BET = "bet"
STAGE_BID = "bid"
STAGE_REBID = "rebid"
STAGE_SPEED = "speed"
STAGE_OVER = "over"


@dataclass(frozen=True)
class DerbyState:
    """A whole game.

    ``shells[i]``, ``bets[i]`` (after the adjustments; 0 without betting) and
    ``rivals[i]`` (a racer colour) belong to ``seats[i]``, who rides
    ``COLOURS[i]``. ``column`` is the speed column, top first. ``progress``
    holds each racer's spaces from the start in ``COLOURS`` order;
    ``finished`` the racers that crossed the line on their final lap, in order.

    ``order`` is the turn order (while bids are awaited, the last round's).
    In the ``rebid`` stage ``groups`` is the turn order being built, best
    first, with ``ties`` (times each group tied in a row); the tied groups
    re-bid. ``speakers`` are the seats still to modify the speed column this
    round, the next first. ``spent`` is what each seat bid this round and
    ``rolls`` the dice of the last race phase.
    """

    seats: tuple[str, ...]
    betting: bool
    laps: int
    column: tuple[str, ...]
    rivals: tuple[str, ...]
    shells: tuple[int, ...]
    bets: tuple[int, ...]
    stage: str
    round: int
    order: tuple[str, ...]
    progress: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    finished: tuple[str, ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()
    ties: tuple[int, ...] = ()
    speakers: tuple[str, ...] = ()
    spent: tuple[int, ...] = ()
    rolls: tuple[int, ...] = ()
    rebid_hours: float = 24.0

    @property
    def is_over(self) -> bool:
        """True once the race is over and scored."""
        return self.stage == STAGE_OVER

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats` (ValueError if unknown)."""
        return self.seats.index(seat)

    def racer(self, seat: str) -> str:
        """Return the colour of ``seat``'s racer."""
        return COLOURS[self.index(seat)]

    def shells_of(self, seat: str) -> int:
        """Return the shells ``seat`` has left."""
        return self.shells[self.index(seat)]

    def owner(self, colour: str) -> str | None:
        """Return the seat riding the racer ``colour``, or None for a racer nobody rides."""
        index = COLOURS.index(colour)
        return self.seats[index] if index < len(self.seats) else None

    def row_of(self, seat: str) -> int:
        """Return the row (0 = top) of ``seat``'s racer in the speed column."""
        return self.column.index(self.racer(seat))

    def standing(self) -> tuple[Group, ...]:
        """Return the turn order being built, as groups."""
        return tuple(Group(seats, ties) for seats, ties in zip(self.groups, self.ties, strict=True))

    def tied_seats(self) -> tuple[str, ...]:
        """Return the seats that must re-bid now, group by group."""
        return tuple(seat for group in self.standing() if group.is_tied for seat in group.seats)
