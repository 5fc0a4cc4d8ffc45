"""The state of a Harvest Day game: the six territories, each farmer's workers, the round."""

from __future__ import annotations

from dataclasses import dataclass

TERRITORIES: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
"""The territories, numbered by their tie-break value."""

WORKERS = 10
"""Workers per farmer (CLARIFICATIONS)."""

SIDES: tuple[str, ...] = ("a", "b")
"""Side A is a line 0-1-2-3-4-5; side B a ring, where 5 also neighbours 0."""


def neighbours(side: str, territory: int) -> tuple[int, ...]:
    """Return the territories next to ``territory`` on ``side``, lowest first."""
    found = {territory - 1, territory + 1}
    if side == "b":
        found = {(territory - 1) % len(TERRITORIES), (territory + 1) % len(TERRITORIES)}
    return tuple(sorted(t for t in found if t in TERRITORIES))


@dataclass(frozen=True)
class HarvestState:
    """Everything about a game in progress or finished.

    ``workers[i][t]`` is how many workers ``seats[i]`` has on territory t and
    ``unplaced[i]`` how many it still holds. ``reveals`` are this round's two
    revealed numbers once the reveal is resolved (empty while it is awaited);
    ``movers`` the seats still to move a worker this round, in order.
    """

    seats: tuple[str, ...]
    side: str
    workers: tuple[tuple[int, ...], ...]
    unplaced: tuple[int, ...]
    round: int = 1
    reveals: tuple[int, ...] = ()
    movers: tuple[str, ...] = ()
    finished: bool = False

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats`."""
        return self.seats.index(seat)

    def on(self, seat: str, territory: int) -> int:
        """Return how many workers ``seat`` has on ``territory``."""
        return self.workers[self.index(seat)][territory]

    def controller(self, territory: int) -> str | None:
        """Return the seat with strictly more workers on ``territory``, or None."""
        first, second = (self.workers[i][territory] for i in range(2))
        if first == second:
            return None
        return self.seats[0] if first > second else self.seats[1]

    def controlled(self, seat: str) -> tuple[int, ...]:
        """Return the territories ``seat`` controls, lowest first."""
        return tuple(t for t in TERRITORIES if self.controller(t) == seat)
