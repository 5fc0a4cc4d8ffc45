"""Scenario builders for The Kentucksea Derby tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scripted_rng import ScriptedRng

from pbem.games import find_game
from pbem.games.kentucksea_derby.orders import Bid
from pbem.games.kentucksea_derby.racing import COLOURS, rival_of
from pbem.games.kentucksea_derby.rules import KentuckseaDerby
from pbem.games.kentucksea_derby.state import STAGE_BID, DerbyState

GAME: KentuckseaDerby = find_game("kentucksea-derby")  # type: ignore[assignment]

__all__ = ["GAME", "ScriptedRng", "bids", "derby"]


def derby(
    players: int = 3,
    *,
    column: Sequence[str] = COLOURS,
    shells: Sequence[int] | None = None,
    bets: Sequence[int] | None = None,
    stage: str = STAGE_BID,
    order: Sequence[str] | None = None,
    progress: Mapping[str, int] | None = None,
    finished: Sequence[str] = (),
    groups: Sequence[Sequence[str]] = (),
    ties: Sequence[int] = (),
    speakers: Sequence[str] = (),
    betting: bool = True,
    round: int = 1,
) -> DerbyState:
    """Return a derby of ``players`` seats at ``stage``; shells 20 each unless given, racers on the line."""
    seats = tuple(str(n) for n in range(1, players + 1))
    at = progress or {}
    return DerbyState(
        seats=seats,
        betting=betting,
        laps=2 if players <= 4 else 3,
        column=tuple(column),
        rivals=tuple(rival_of(column, COLOURS[i]) for i in range(players)),
        shells=tuple(shells) if shells is not None else (20,) * players,
        bets=tuple(bets) if bets is not None else (0,) * players,
        stage=stage,
        round=round,
        order=tuple(order) if order is not None else seats,
        progress=tuple(at.get(colour, 0) for colour in COLOURS),
        finished=tuple(finished),
        groups=tuple(tuple(g) for g in groups),
        ties=tuple(ties),
        speakers=tuple(speakers),
        spent=(0,) * players,
    )


def bids(**by_seat: int | None) -> dict[str, list[object]]:
    """Return the orders of a bid phase from keywords ``s1=3, s2=None`` (None: no bid sent)."""
    return {name[1:]: ([] if shells is None else [Bid(shells)]) for name, shells in by_seat.items()}
