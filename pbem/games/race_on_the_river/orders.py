"""Race on the River orders: ``BID n`` (the transformer that builds them is in grammar.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bid:
    """A sealed bid of ``cubes`` stamina cubes for this round."""

    cubes: int

    def __str__(self) -> str:
        return f"BID {self.cubes}"


RaceOrder = Bid
