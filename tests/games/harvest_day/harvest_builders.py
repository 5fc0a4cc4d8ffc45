"""Scenario builders for Harvest Day tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games import find_game
from pbem.games.harvest_day.rules import HarvestDay
from pbem.games.harvest_day.state import TERRITORIES, WORKERS, HarvestState

GAME: HarvestDay = find_game("harvest-day")  # type: ignore[assignment]


def island(one: Mapping[int, int] | None = None, two: Mapping[int, int] | None = None, *, side: str = "a",
           reveals: Sequence[int] = (), movers: Sequence[str] = (), round: int = 1) -> HarvestState:
    """Return a board: ``one`` and ``two`` territory -> workers of seats 1 and 2; the rest in hand."""
    rows = tuple(tuple((placed or {}).get(t, 0) for t in TERRITORIES) for placed in (one, two))
    return HarvestState(seats=("1", "2"), side=side, workers=rows, unplaced=tuple(WORKERS - sum(r) for r in rows),
                        round=round, reveals=tuple(reveals), movers=tuple(movers))
