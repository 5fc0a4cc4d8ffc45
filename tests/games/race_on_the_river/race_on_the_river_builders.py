"""Scenario builders for the Race on the River tests (not a test module)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.core import GameRng
from pbem.games import find_game
from pbem.games.race_on_the_river.orders import Bid
from pbem.games.race_on_the_river.rules import RaceOnTheRiver
from pbem.games.race_on_the_river.state import RaceState

GAME: RaceOnTheRiver = find_game("race-on-the-river")  # type: ignore[assignment]


class ScriptedRng(GameRng):
    """A GameRng whose die rolls are given in advance (everything else is seeded)."""

    def __init__(self, rolls: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def roll(self, sides: int = 6) -> int:
        """Return the next scripted roll (fails the test when the script runs out)."""
        assert self.rolls, "the test's scripted die ran out of rolls"
        return self.rolls.pop(0)


def race(
    positions: Sequence[int],
    hands: Sequence[int] | None = None,
    *,
    roll: int = 4,
    round: int = 1,
    last_bids: Sequence[int] | None = None,
) -> RaceState:
    """Return a race in its bidding phase: jockeys on ``positions``, ``hands`` cubes in hand (9 each by default)."""
    seats = tuple(str(n) for n in range(1, len(positions) + 1))
    return RaceState(
        seats=seats,
        positions=tuple(positions),
        hands=tuple(hands) if hands is not None else tuple(9 for _ in seats),
        round=round,
        roll=roll,
        last_bids=tuple(last_bids) if last_bids is not None else None,
    )


def bids(*cubes: int) -> dict[str, list[Bid]]:
    """Return the orders mapping for bids of seats 1, 2, ... in order."""
    return {str(i): [Bid(n)] for i, n in enumerate(cubes, start=1)}
