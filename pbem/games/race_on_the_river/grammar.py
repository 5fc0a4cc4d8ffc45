"""The lark transformer that builds Race on the River orders from grammar.lark.

Only :meth:`RaceOnTheRiver.transformer` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.games.race_on_the_river.orders import Bid
from pbem.core.transformer import OrdersTransformer


class RaceTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into :class:`Bid` orders."""

    def bid(self, children: list[Any]) -> Bid:
        """Return the bid of a ``BID n`` line."""
        (number,) = [c for c in children if isinstance(c, Token)]
        return Bid(int(number))
