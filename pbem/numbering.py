"""The one numbering of a game's turns, as every reader is told it.

A game's stored turn (``GameRow.turn``) is the turn awaited: the one whose orders are asked
for, named in the subject of its reports (``[g] Turn 4``). The turns before it are played;
a report tells of the newest of them ("Turn 3 results") and its pictures show the board after
it. A finished game awaits nothing: it is told as finished after the last turn played, never
by the turn it would have awaited next. Mail, web archive, STATUS and ``pbem show --json`` all
take their words from here.
"""

from __future__ import annotations

from pbem.store.tables import GameRow, GameStatus


def turns_played(turn: int) -> int:
    """Return how many turns a game whose stored turn is ``turn`` has played (resolved)."""
    return max(turn - 1, 0)


def shown_turn(turn: int, *, finished: bool) -> int:
    """Return the turn a game is said to be at: the turn awaited while it runs, the last turn played
    once it is finished."""
    return turns_played(turn) if finished else turn


def standing(turn: int, *, started: bool, finished: bool) -> str:
    """Return where a game stands in words: "not started", "turn 4" (the turn awaited) or
    "finished after turn 5" ("finished at the start" when it ended before any turn was played)."""
    if not started:
        return "not started"
    if finished:
        played = turns_played(turn)
        return f"finished after turn {played}" if played else "finished at the start"
    return f"turn {turn}"


def board_moment(told: int) -> str:
    """Return when a picture shows the board, by the newest turn its report tells of: "at the start"
    (the opening, 0) or "after turn 3"."""
    return "at the start" if told == 0 else f"after turn {told}"


def game_turn(row: GameRow) -> int:
    """Return the turn the stored game ``row`` is said to be at (see :func:`shown_turn`)."""
    return shown_turn(row.turn, finished=row.status == GameStatus.FINISHED)


def game_standing(row: GameRow) -> str:
    """Return where the stored game ``row`` stands in words (see :func:`standing`)."""
    return standing(row.turn, started=row.status != GameStatus.FORMING, finished=row.status == GameStatus.FINISHED)
