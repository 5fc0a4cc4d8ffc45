"""The Great Golden Egg's orders: ``TARGET d``, ``VOTE YES|NO``, ``ADD``, ``ADD b``, ``MOVE b-e``, ``PASS``,
and the guide's actions filed in advance, ``IF YES ADD`` and ``IF NO MOVE b-e``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """The guide names the target cliff."""

    cliff: str

    def __str__(self) -> str:
        return f"TARGET {self.cliff}"


@dataclass(frozen=True)
class Vote:
    """A follower's sealed vote: follow the guide (YES) or not."""

    yes: bool

    def __str__(self) -> str:
        return f"VOTE {'YES' if self.yes else 'NO'}"


@dataclass(frozen=True)
class Add:
    """Add an adventurer from one's supply: to the target (``cliff`` None) or to a named cliff."""

    cliff: str | None = None

    def __str__(self) -> str:
        return "ADD" if self.cliff is None else f"ADD {self.cliff}"


@dataclass(frozen=True)
class Move:
    """Move one of one's adventurers from cliff ``source`` to the connected cliff ``dest``."""

    source: str
    dest: str

    def __str__(self) -> str:
        return f"MOVE {self.source}-{self.dest}"


@dataclass(frozen=True)
class Pass:
    """Leave an optional step out."""

    def __str__(self) -> str:
        return "PASS"


ActionOrder = Add | Move | Pass


@dataclass(frozen=True)
class Plan:
    """The guide's action filed with TARGET, used only if both followers vote YES (``yes``) or NO."""

    yes: bool
    action: ActionOrder

    def __str__(self) -> str:
        return f"IF {'YES' if self.yes else 'NO'} {self.action}"


GoldenEggOrder = Target | Vote | Add | Move | Pass | Plan
