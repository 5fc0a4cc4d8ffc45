"""Scenario builders for the Feaster Island tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scripted_rng import ScriptedRng

from pbem.games import find_game
from pbem.games.feaster_island.rules import FeasterIsland
from pbem.games.feaster_island.state import COLOURS, STAGE_TURN, FeasterState

GAME: FeasterIsland = find_game("feaster-island")  # type: ignore[assignment]

__all__ = ["GAME", "ScriptedRng", "cube_total", "plate", "table"]


def plate(**counts: int) -> tuple[int, ...]:
    """Return dish counts in colour order from keywords: ``plate(blue=2, white=1)``."""
    return tuple(counts.get(colour, 0) for colour in COLOURS)


def table(
    columns: Sequence[str],
    *,
    drawn: Sequence[str] = (),
    plates: Sequence[tuple[int, ...]] | None = None,
    players: int = 2,
    current: int = 0,
    stage: str = STAGE_TURN,
    bag: Mapping[str, int] | None = None,
    side: str = "a",
    last_left: int = 0,
    turn: int = 1,
) -> FeasterState:
    """Return a game at ``current``'s turn. ``columns`` are six words such as ``"red white"``
    (bottom first, ``""`` for an empty column); the bag holds 5 of each colour unless given."""
    seats = tuple(str(n) for n in range(1, players + 1))
    counts = bag if bag is not None else {colour: 5 for colour in COLOURS}
    return FeasterState(
        seats=seats,
        side=side,
        bag=tuple(counts.get(colour, 0) for colour in COLOURS),
        columns=tuple(tuple(words.split()) for words in columns),
        plates=tuple(plates) if plates is not None else tuple(plate() for _ in seats),
        current=current,
        stage=stage,
        rolled=len(drawn),
        drawn=tuple(drawn),
        turn=turn,
        last_left=last_left,
    )


def cube_total(state: FeasterState) -> int:
    """Return every cube of the game, wherever it is (54 in a game set up by the service)."""
    return (sum(state.bag) + sum(len(c) for c in state.columns) + sum(map(sum, state.plates))
            + len(state.drawn) + state.discarded)
