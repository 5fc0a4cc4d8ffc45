"""Scenario builders for The Great Regatta tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scripted_rng import ScriptedRng

from pbem.games import find_game
from pbem.games.great_regatta.rules import GreatRegatta
from pbem.games.great_regatta.state import STAGE_PUSH, STAGE_START, SUPPLY, RegattaState

GAME: GreatRegatta = find_game("great-regatta")  # type: ignore[assignment]

__all__ = ["GAME", "ScriptedRng", "regatta", "sailing"]


def regatta(
    boats: Mapping[str, Sequence[int]] | None = None,
    *,
    players: int = 2,
    supply: Sequence[int] | None = None,
    current: int = 0,
) -> RegattaState:
    """Return a game at the start of ``current``'s turn with ``boats`` at rest (seat -> spaces)."""
    seats = tuple(str(n) for n in range(1, players + 1))
    boats = boats or {}
    return RegattaState(
        seats=seats,
        supply=tuple(supply) if supply is not None else tuple(SUPPLY for _ in seats),
        boats=tuple(tuple(sorted(boats.get(seat, ()))) for seat in seats),
        current=current,
        stage=STAGE_START,
    )


def sailing(state: RegattaState, moving: int, *, covered: Sequence[int] = (), origin: int = 0,
            rolls: Sequence[int] = (), passed_start: bool = False) -> RegattaState:
    """Return ``state`` in a push decision: the seat to play sails a boat now on ``moving``."""
    supply = list(state.supply)
    supply[state.current] -= 1
    return RegattaState(
        seats=state.seats, supply=tuple(supply), boats=state.boats, current=state.current, stage=STAGE_PUSH,
        moving=moving, origin=origin, rolls=tuple(rolls) or tuple(covered), covered=tuple(sorted(covered)),
        passed_start=passed_start,
    )
