"""The lark transformer for tiny/grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from pbem.core.transformer import OrdersTransformer

from .orders import Add


class TinyTransformer(OrdersTransformer):
    """Turns ``ADD n`` lines into :class:`Add` orders."""

    def add(self, children: list[Any]) -> Add:
        """Return the order of an ``ADD n`` line."""
        return Add(int(children[0]))
