"""The state of a Great Regatta game: the boats on the track, the supplies, the turn in progress."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.track import Ring

COURSE = Ring(19)
"""The start (space 0) and spaces 1..18 clockwise; space k is worth k points; past 18 the course wraps to 0."""

LAST_SPACE = COURSE.size - 1
SUPPLY = 5
"""Boat cubes per player: one is used every turn, so each player has 5 turns."""

RESULTS = (1, 2, 3, 4, 5, 6)
"""The result circles, covered by discs as numbers are rolled in a turn."""

STAGE_START = "start"
STAGE_PUSH = "push"
STAGE_OVER = "over"


@dataclass(frozen=True)
class RegattaState:
    """A whole game.

    ``supply[i]`` and ``boats[i]`` belong to ``seats[i]``: cubes left in the
    supply, and the spaces of the boats at rest on the course (sorted). In a
    turn the boat being sailed is not in ``boats`` but on ``moving``, which it
    left from ``origin``; ``rolls`` are this turn's rolls, ``covered`` the
    covered result circles, ``passed_start`` whether the boat has reached or
    passed the start this turn. ``current`` is the index of the seat whose
    turn it is and ``stage`` what it owes (``start``: NEW or ADVANCE;
    ``push``: ROLL, STOP or ROLL UNTIL; ``over``). ``push_hours`` is the answer
    window of a push decision.
    """

    seats: tuple[str, ...]
    supply: tuple[int, ...]
    boats: tuple[tuple[int, ...], ...]
    current: int
    stage: str
    moving: int | None = None
    origin: int | None = None
    rolls: tuple[int, ...] = ()
    covered: tuple[int, ...] = ()
    passed_start: bool = False
    push_hours: float = 24.0

    @property
    def seat(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.current]

    @property
    def is_over(self) -> bool:
        """True once every supply is used up and the last turn has ended."""
        return self.stage == STAGE_OVER

    @property
    def seat_turn(self) -> int:
        """Which of its 5 turns the seat to play is in (1..5): a cube is spent as the turn starts."""
        spent = SUPPLY - self.supply[self.current]
        return spent + 1 if self.stage == STAGE_START else spent

    def boats_of(self, seat: str) -> tuple[int, ...]:
        """Return the spaces of ``seat``'s boats at rest (ValueError for an unknown seat)."""
        return self.boats[self.seats.index(seat)]

    def holders(self, space: int) -> list[str]:
        """Return the seats with a boat at rest on ``space`` (one entry per boat)."""
        return [seat for seat, spaces in zip(self.seats, self.boats, strict=True) for s in spaces if s == space]
