"""Fungus orders: frozen dataclasses whose ``str()`` is the canonical text (the
transformer that builds them from ``grammar.lark`` is in
:mod:`pbem.games.fungus.grammar`).

Cells are kept as lower-case names (``e5``); whether a cell is on the board is
checked by the rules, not here.
"""

from __future__ import annotations

from dataclasses import dataclass

TAKE = "TAKE"
KEEP = "KEEP"


@dataclass(frozen=True)
class Place:
    """``PLACE e5``, optionally capturing a surrounded enemy gem:
    ``PLACE e5 TAKE f5`` (replace it with one of yours) or
    ``PLACE e5 KEEP f5`` (remove it and keep it for the end of the game)."""

    cell: str
    capture: str | None = None
    target: str | None = None

    def __str__(self) -> str:
        if self.capture is None or self.target is None:
            return f"PLACE {self.cell}"
        return f"PLACE {self.cell} {self.capture} {self.target}"


@dataclass(frozen=True)
class Drop:
    """``DROP c3`` (or ``DROP c3 OF 2`` naming the colour of the kept gem):
    at the end of an aggressive game, replace the keeper's own gem on c3 with a kept gem."""

    cell: str
    colour: str | None = None

    def __str__(self) -> str:
        return f"DROP {self.cell}" if self.colour is None else f"DROP {self.cell} OF {self.colour}"


@dataclass(frozen=True)
class DropNone:
    """``DROP NONE``: forgo placing any kept gem."""

    def __str__(self) -> str:
        return "DROP NONE"


FungusOrder = Place | Drop | DropNone
