"""Orders of Johnny and the Toe-Sap Fungus (the transformer that builds them is in
:mod:`pbem.games.toe_sap_fungus.grammar`).

Canonical texts: ``MOVE e8-e7``, ``MOVE e8-e7 BLUE``, ``SHELL c2``,
``OFFER d5-d8-a5``, ``OFFER d5-d8``, ``VALUE BLUE``, ``ORDER GREEN ORANGE WHITE``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveOrder:
    """Walk one square; ``colour`` optionally names the stone to drop."""

    source: str
    target: str
    colour: str | None = None

    def __str__(self) -> str:
        text = f"MOVE {self.source}-{self.target}"
        return f"{text} {self.colour.upper()}" if self.colour else text


@dataclass(frozen=True)
class ShellOrder:
    """Trade a collected shell for a trip to ``target``."""

    target: str

    def __str__(self) -> str:
        return f"SHELL {self.target}"


@dataclass(frozen=True)
class OfferOrder:
    """Give up a cow and move the Cownivore on ``squares[0]`` through the other squares."""

    squares: tuple[str, ...]

    def __str__(self) -> str:
        return "OFFER " + "-".join(self.squares)


@dataclass(frozen=True)
class ValueOrder:
    """Choose the colour worth 5 points."""

    colour: str

    def __str__(self) -> str:
        return f"VALUE {self.colour.upper()}"


@dataclass(frozen=True)
class RankOrder:
    """Order the three other colours: worth 3, 2 and 1 points."""

    colours: tuple[str, ...]

    def __str__(self) -> str:
        return "ORDER " + " ".join(c.upper() for c in self.colours)


ToeSapOrder = MoveOrder | ShellOrder | OfferOrder | ValueOrder | RankOrder
