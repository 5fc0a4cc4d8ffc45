"""The Great Battle orders: ``ACTION <space>`` and the action's lines, or ``PLACE`` in the setup.

Hexes are written as on the map (``b8``), colours in lower case. The
transformer that builds the orders from the grammar is in grammar.py.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    """Move the general's disc to action space ``space`` (MOVE3, MOVE1X2, SPAWN, UPGRADE, SABOTAGE, ATTACK)."""

    space: str

    def __str__(self) -> str:
        return f"ACTION {self.space}"


@dataclass(frozen=True)
class Move:
    """Move the unit on ``start`` to ``end`` (MOVE3 and MOVE1X2)."""

    start: str
    end: str

    def __str__(self) -> str:
        return f"MOVE {self.start}-{self.end}"


@dataclass(frozen=True)
class Spawn:
    """Put a unit of ``colour`` from the supply on ``hex``, next to that colour's base (SPAWN)."""

    colour: str
    hex: str

    def __str__(self) -> str:
        return f"SPAWN {self.colour} {self.hex}"


@dataclass(frozen=True)
class Upgrade:
    """Put a supply cube of its colour on the unit on ``hex`` (UPGRADE)."""

    hex: str

    def __str__(self) -> str:
        return f"UPGRADE {self.hex}"


@dataclass(frozen=True)
class Sabotage:
    """Remove a cube of ``colour`` from the other general's supply for good (SABOTAGE)."""

    colour: str

    def __str__(self) -> str:
        return f"SABOTAGE {self.colour}"


@dataclass(frozen=True)
class Attack:
    """The unit on ``attacker`` attacks the enemy unit on ``target`` (ATTACK)."""

    attacker: str
    target: str

    def __str__(self) -> str:
        return f"ATTACK {self.attacker}-{self.target}"


@dataclass(frozen=True)
class Place:
    """In the setup: put a unit of ``colour`` on ``hex``, next to that colour's base."""

    colour: str
    hex: str

    def __str__(self) -> str:
        return f"PLACE {self.colour} {self.hex}"


ActionLine = Move | Spawn | Upgrade | Sabotage | Attack
BattleOrder = Action | ActionLine | Place
