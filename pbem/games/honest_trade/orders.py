"""An Honest Trade's orders: ``ACT ...`` and ``TARGET <seat>`` on one's turn; ``PASS``,
``ACCUSE [PAY <colour>]`` and ``REACT`` in the answer windows; ``DISCARD <colour>``."""

from __future__ import annotations

from dataclasses import dataclass

CUBES = "CUBES"
DISCS = "DISCS"
CUBE = "CUBE"
DISC = "DISC"
RANDOM = "random"
"""The colour of ``DISCARD RANDOM``: the service draws the cube (the NMR discard)."""


@dataclass(frozen=True)
class Act:
    """Push the action cube ``colour`` and do its action. ``kind`` is CUBES or DISCS for yellow
    and green, CUBE (give a black cube, get a disc) or DISC for blue, "" for red and white;
    ``seat`` is green's victim ("" otherwise)."""

    colour: str
    kind: str = ""
    seat: str = ""

    def __str__(self) -> str:
        return " ".join(word for word in ("ACT", self.colour.upper(), self.seat, self.kind) if word)


@dataclass(frozen=True)
class Target:
    """Name the player who discards after a three of a kind (in advance with ACT, or when asked)."""

    seat: str

    def __str__(self) -> str:
        return f"TARGET {self.seat}"


@dataclass(frozen=True)
class Pass:
    """Let the action or reaction go by."""

    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Accuse:
    """Accuse the player who acted (or reacted) of using his secret colour; ``pay`` names the
    cube to discard if the accusation is wrong ("" = be asked for it then)."""

    pay: str = ""

    def __str__(self) -> str:
        return f"ACCUSE PAY {self.pay.upper()}" if self.pay else "ACCUSE"


@dataclass(frozen=True)
class React:
    """Cancel the action with one's cube of the cancelling colour, if it still stands when one's
    turn comes, clockwise from the actor."""

    def __str__(self) -> str:
        return "REACT"


@dataclass(frozen=True)
class Discard:
    """Discard the action cube ``colour`` (:data:`RANDOM`: the service draws one)."""

    colour: str

    def __str__(self) -> str:
        return f"DISCARD {self.colour.upper()}"


TradeOrder = Act | Target | Pass | Accuse | React | Discard
