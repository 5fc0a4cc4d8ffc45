"""Scenario builders for the Fungus tests: a state from a picture of the board."""

from __future__ import annotations

from collections.abc import Sequence
from textwrap import dedent

from pbem.games.fungus.rules import Fungus
from pbem.games.fungus.state import FUNGUS, GEMS_PER_PLAYER, FungusState

GAME = Fungus()


def position(
    picture: str,
    *,
    players: int = 2,
    aggressive: bool = False,
    stage: str = FUNGUS,
    to_move: str | None = "1",
    supply: Sequence[int] | None = None,
    kept: Sequence[Sequence[str]] | None = None,
    setup_placed: Sequence[int] | None = None,
    first: str = "1",
) -> FungusState:
    """Return a state whose board is ``picture``: one text line per row (row 1
    first), cells separated by blanks (indentation is ignored), ``.`` for an
    empty cell and a seat number for a gem. Supplies default to the full
    supply minus nothing; setup counts default to 3 (setup done)."""
    rows = [line.split() for line in dedent(picture).strip().splitlines()]
    size = len(rows)
    assert all(len(row) == size for row in rows), "the picture must be square"
    seats = tuple(str(n) for n in range(1, players + 1))
    return FungusState(
        seats=seats,
        size=size,
        aggressive=aggressive,
        first=first,
        board=tuple("" if ch == "." else ch for row in rows for ch in row),
        supply=tuple(supply) if supply is not None else (GEMS_PER_PLAYER[players],) * players,
        setup_placed=tuple(setup_placed) if setup_placed is not None else (3,) * players,
        kept=tuple(tuple(k) for k in kept) if kept is not None else ((),) * players,
        stage=stage,
        to_move=to_move,
    )


def picture(state: FungusState) -> list[str]:
    """Return the board as rows of ``.``/seat characters (no blanks), row 1 first."""
    return ["".join(state.at((c, r)) or "." for c in range(state.size)) for r in range(state.size)]
