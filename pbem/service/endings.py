"""How a game ended, as data: by its rules, by the GM's END, by a draw its seats agreed, or by a
cooperative team's concession (:func:`ending_of`). The game record hashes :meth:`Ending.to_json`;
the outcome of an agreed end is read from the row here (:func:`agreed_outcome`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from pbem.core import Outcome
from pbem.store.tables import GameRow, GameStatus


class EndingKind(enum.StrEnum):
    """The way a game ended (or ``running`` while it has not)."""

    RUNNING = "running"  # not over yet (or still forming)
    RULES = "rules"  # the rules ended it: a win, a shared win, a draw or a defeat they decided
    GM_END = "gm-end"  # the GM's END (or REVEAL): ranked by the rules as it stood
    DRAW_AGREED = "draw-agreed"  # every seat still playing agreed to a draw (DRAW)
    CONCEDED = "conceded"  # the whole team of a cooperative game gave up (CONCEDE)


AGREED_KINDS = {"draw": EndingKind.DRAW_AGREED, "concede": EndingKind.CONCEDED}
"""The ``kind`` of an agreed end as stored in ``game.agreed_end`` (the vote's word), to its ending."""


@dataclass(frozen=True)
class Ending:
    """How one game ended: its kind, and for an agreed end the seats that agreed and the turn in which they
    did (the turn awaiting orders then, not played; 0 for any other end)."""

    kind: EndingKind
    seats: tuple[str, ...] = ()
    turn: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return the ending as JSON-compatible data with a fixed shape: ``{"kind", "seats", "turn"}``."""
        return {"kind": self.kind.value, "seats": list(self.seats), "turn": self.turn}


def ending_of(row: GameRow) -> Ending:
    """Return how the game of ``row`` ended: an agreed end with its seats and turn, the GM's END, an end
    by the rules, or RUNNING for a game not over."""
    if row.agreed_end:
        return Ending(AGREED_KINDS[row.agreed_end["kind"]], tuple(row.agreed_end["seats"]),
                      int(row.agreed_end["turn"]))
    if row.status != GameStatus.FINISHED:
        return Ending(EndingKind.RUNNING)
    return Ending(EndingKind.GM_END if row.ended_by_gm else EndingKind.RULES)


def agreed_outcome(agreed_end: dict[str, Any]) -> Outcome:
    """Return the outcome of a game its seats ended by agreement (``game.agreed_end``): a draw among
    them, or the team's defeat, saying so and in which turn."""
    seats = tuple(agreed_end["seats"])
    turn = int(agreed_end["turn"])
    if agreed_end["kind"] == "draw":
        return Outcome.agreed_draw(seats, f"Seats {', '.join(seats)} agreed to end the game as a draw in turn {turn}.")
    return Outcome.conceded(seats, f"The team ({', '.join(seats)}) agreed to concede in turn {turn}: the game is "
                                   "lost for everyone.")
