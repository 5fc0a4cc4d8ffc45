"""The state of a Festival of Statues game: the 6 x 6 square, the die, whose play it is."""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 6
"""Rows and columns of the square, numbered 1..6."""

STATUES = 6
"""Statues per player."""

MAX_ROUNDS = 40
"""Rounds played at most (option ``max_rounds``); after the last one the game is a draw."""


@dataclass(frozen=True)
class FestivalState:
    """Everything about a game in progress or finished.

    ``board`` holds the 36 spaces row by row from row 1, columns 1..6 left to
    right: ``""`` for an open space, else the seat whose statue stands there.
    ``die`` is the die of the current ``round``; ``holder`` the index in
    ``seats`` of the die holder, who plays first this round; ``step`` 0 while
    the holder plays, 1 while the other player does. ``winners`` is the seat
    that completed a pattern (``pattern``: its board indices); ``drawn`` is
    true once the last round allowed by ``max_rounds`` ended without one.
    ``last`` holds the board indices the latest play touched (for the reports).
    """

    seats: tuple[str, ...]
    board: tuple[str, ...]
    round: int
    die: int
    holder: int
    step: int
    max_rounds: int = MAX_ROUNDS
    move_any: bool = False
    winners: tuple[str, ...] = ()
    pattern: tuple[int, ...] = ()
    drawn: bool = False
    end_reason: str = ""
    last: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        """True once somebody won or the round cap ended the game in a draw."""
        return bool(self.winners) or self.drawn

    @property
    def to_play(self) -> str:
        """The seat whose play it is (the holder at step 0, the other at step 1)."""
        return self.seats[(self.holder + self.step) % len(self.seats)]

    def supply(self, seat: str) -> int:
        """Return how many statues ``seat`` still has off the square."""
        return STATUES - self.board.count(seat)
