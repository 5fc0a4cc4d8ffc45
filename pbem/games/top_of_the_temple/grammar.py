"""The lark transformer for the Top of the Temple's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import Offer


class TempleTransformer(OrdersTransformer):
    """Turns ``OFFER`` lines into :class:`Offer` orders."""

    def offer(self, children: list[Any]) -> Offer:
        """Return the order of an ``OFFER c1 c2 c3 c4 c5`` line."""
        return Offer(tuple(str(c).lower() for c in children if isinstance(c, Token)))
