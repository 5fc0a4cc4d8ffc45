"""Building Festival of Statues positions from pictures of the square, for the tests."""

from __future__ import annotations

from dataclasses import replace

from pbem.core import GameRng
from pbem.games.festival_of_statues.rules import FestivalOfStatues
from pbem.games.festival_of_statues.state import FestivalState

GAME = FestivalOfStatues()


def square(picture: str) -> tuple[str, ...]:
    """Return a board from six lines of six marks each: ``1`` or ``2`` a statue, ``.`` open."""
    marks = [mark for line in picture.strip().splitlines() for mark in line.split()]
    assert len(marks) == 36, f"a square has 36 spaces, not {len(marks)}"
    return tuple("" if mark == "." else mark for mark in marks)


def position(picture: str = "", *, die: int = 1, holder: int = 0, step: int = 0, round: int = 1,
             max_rounds: int = 40, move_any: bool = False) -> FestivalState:
    """Return a game in progress with ``picture`` on the square (empty when not given)."""
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    board = square(picture) if picture else state.board
    return replace(state, board=board, die=die, holder=holder, step=step, round=round, max_rounds=max_rounds,
                   move_any=move_any)
