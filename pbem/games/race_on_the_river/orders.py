"""Race on the River orders: ``BID n``, and the transformer that builds them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token

from pbem.orders import OrdersTransformer


@dataclass(frozen=True)
class Bid:
    """A sealed bid of ``cubes`` stamina cubes for this round."""

    cubes: int

    def __str__(self) -> str:
        return f"BID {self.cubes}"


RaceOrder = Bid


class RaceTransformer(OrdersTransformer):
    """Turns a parse tree of grammars/race-on-the-river.lark into :class:`Bid` orders."""

    def bid(self, children: list[Any]) -> Bid:
        """Return the bid of a ``BID n`` line."""
        (number,) = [c for c in children if isinstance(c, Token)]
        return Bid(int(number))
