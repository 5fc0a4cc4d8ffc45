"""The lark transformer for Harvest Day's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import Move, Reveal


class HarvestTransformer(OrdersTransformer):
    """Turns ``REVEAL n`` and ``MOVE a-b`` lines into orders."""

    def reveal(self, children: list[Any]) -> Reveal:
        """Return the order of a ``REVEAL n`` line."""
        (number,) = [c for c in children if isinstance(c, Token)]
        return Reveal(int(number))

    def move(self, children: list[Any]) -> Move:
        """Return the order of a ``MOVE a-b`` line."""
        source, target = (int(c) for c in children if isinstance(c, Token))
        return Move(source, target)
