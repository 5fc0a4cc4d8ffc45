"""The state of a Farm-cheesi game: where every maggot is, whose roll it is.

A maggot's place is its *progress* along its owner's lane of the board
(:data:`pbem.games.farm_cheesi.board.BOARD`): ``CARCASS`` (-1) while it waits
in the carcass, 0 on its entry square, 63 on its exit square, 64..70 on
``H1..H7`` and ``FINISH`` (71) once HOME.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.core import GameError
from pbem.core.jsonform import added_field

CARCASS = -1
FINISH = 71
MAGGOTS = 4

STAGE_MOVE = "move"
STAGE_BONUS = "bonus"
STAGE_OVER = "over"
STAGES = (STAGE_MOVE, STAGE_BONUS, STAGE_OVER)

Pos = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class FarmState:
    """A whole game.

    ``seats`` are the playing seats in turn order; ``maggots[i]`` holds the
    four progress values of ``seats[i]``'s maggots 1..4. ``current`` is the
    seat whose turn it is, ``stage`` what it must send (``move``: play the
    ``roll``; ``bonus``: use the ``bonuses`` queue, first one first; ``over``).
    ``doublets`` counts the doublets rolled so far in this turn, the current
    roll included. ``turn`` counts players' turns from 1. ``held`` are the 10
    bonuses for reaching HOME earned in this turn and waiting for its end
    (after every re-roll a doublet gives), first earned first.
    """

    seats: tuple[str, ...]
    teams: bool
    maggots: Pos
    current: str
    stage: str
    roll: tuple[int, ...]
    doublets: int
    bonuses: tuple[int, ...]
    turn: int
    winners: tuple[str, ...] = ()
    held: tuple[int, ...] = added_field(())

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats`; raise GameError if it does not play."""
        try:
            return self.seats.index(seat)
        except ValueError:
            raise GameError(f"seat {seat} does not play in this game") from None

    def of(self, seat: str) -> tuple[int, ...]:
        """Return the progress of ``seat``'s maggots 1..4."""
        return self.maggots[self.index(seat)]

    def partner(self, seat: str) -> str | None:
        """Return ``seat``'s team partner (1+3, 2+4) in a team game, else None."""
        if not self.teams:
            return None
        return {"1": "3", "3": "1", "2": "4", "4": "2"}[seat]

    def is_done(self, seat: str) -> bool:
        """True when all four of ``seat``'s maggots are HOME."""
        return all(p == FINISH for p in self.of(seat))

    def with_pos(self, pos: Pos) -> FarmState:
        """Return this state with every maggot placed as in ``pos``."""
        return replace(self, maggots=pos)

