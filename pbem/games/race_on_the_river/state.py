"""The state of a Race on the River game: jockeys on the river, stamina cubes, the die."""

from __future__ import annotations

from dataclasses import dataclass

RIVER_SPACES = 12
"""Spaces of river between the start (0) and the finish line; 13 or more has crossed."""

STAMINA = 9
"""Stamina cubes per player (10 cubes a colour, one of them the jockey)."""


@dataclass(frozen=True)
class RaceState:
    """Everything about a game in progress or finished.

    ``positions[i]`` and ``hands[i]`` belong to ``seats[i]``: the jockey's
    space (0 = start; more than ``spaces`` = crossed the finish line) and the
    stamina cubes still in hand; the rest of the ``stamina`` cubes are
    discarded. ``round`` is the round of bids awaited (round N is the N-th
    round of bids, turn N), ``roll`` its die (2..6 while bids are awaited),
    ``ones_before`` how many 1s were rolled in it before that die.
    ``last_bids`` are the bids of the last bidding round (public once
    revealed), ``None`` before the first. ``winners`` is empty while the race
    goes on.
    """

    seats: tuple[str, ...]
    positions: tuple[int, ...]
    hands: tuple[int, ...]
    round: int
    roll: int
    ones_before: int = 0
    last_bids: tuple[int, ...] | None = None
    winners: tuple[str, ...] = ()
    end_reason: str = ""
    spaces: int = RIVER_SPACES
    stamina: int = STAMINA

    @property
    def finish(self) -> int:
        """The first space beyond the finish line: reaching it means crossing."""
        return self.spaces + 1

    @property
    def is_over(self) -> bool:
        """True once the race has a winner."""
        return bool(self.winners)

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats` (ValueError if unknown)."""
        return self.seats.index(seat)

    def hand(self, seat: str) -> int:
        """Return how many stamina cubes ``seat`` holds in hand."""
        return self.hands[self.index(seat)]

    def discarded(self, seat: str) -> int:
        """Return how many stamina cubes ``seat`` has discarded."""
        return self.stamina - self.hand(seat)

    def position(self, seat: str) -> int:
        """Return the space of ``seat``'s jockey."""
        return self.positions[self.index(seat)]

