"""The Kentucksea Derby orders: ``BET 15``, ``BID 3``, ``SPEED red 1``, ``SPEED PASS``
(the transformer is in grammar.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bet:
    """A sealed bet of ``shells`` against the rival, once before the race."""

    shells: int

    def __str__(self) -> str:
        return f"BET {self.shells}"


@dataclass(frozen=True)
class Bid:
    """A sealed bid of ``shells`` (1 to 5) for turn order, paid at once."""

    shells: int

    def __str__(self) -> str:
        return f"BID {self.shells}"


@dataclass(frozen=True)
class Speed:
    """Move the racer of ``colour`` to row ``row`` (1 = top .. 6) of the speed column."""

    colour: str
    row: int

    def __str__(self) -> str:
        return f"SPEED {self.colour} {self.row}"


@dataclass(frozen=True)
class SpeedPass:
    """Leave the speed column as it is."""

    def __str__(self) -> str:
        return "SPEED PASS"


DerbyOrder = Bet | Bid | Speed | SpeedPass
