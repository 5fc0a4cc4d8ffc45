"""The lark transformer that builds Fungus orders from ``grammar.lark``.

Only :meth:`Fungus.transformer` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.games.fungus.orders import Drop, DropNone, Place
from pbem.core.transformer import OrdersTransformer


class FungusTransformer(OrdersTransformer):
    """Turns a ``fungus.lark`` parse tree into a list of orders."""

    def place(self, children: list[Any]) -> Place:
        """``PLACE cell [capture]``."""
        cell = str(children[0]).lower()
        if len(children) == 1:
            return Place(cell)
        capture, target = children[1]
        return Place(cell, capture, target)

    def capture(self, children: list[Token]) -> tuple[str, str]:
        """``TAKE cell`` or ``KEEP cell`` -> (keyword, cell)."""
        return (str(children[0]).upper(), str(children[1]).lower())

    def drop(self, children: list[Token]) -> Drop:
        """``DROP cell [OF seat]``."""
        colour = str(children[1]) if len(children) > 1 else None
        return Drop(str(children[0]).lower(), colour)

    def drop_none(self, children: list[Any]) -> DropNone:
        """``DROP NONE``."""
        return DropNone()
