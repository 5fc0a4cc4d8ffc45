"""The lark transformer that builds Feaster Island orders from grammar.lark.

Only the game's ``transformer()`` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer
from pbem.games.feaster_island.orders import Pass, Place, Take


class FeasterTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into :class:`Place`, :class:`Take` and :class:`Pass` orders."""

    def placement(self, children: list[Any]) -> tuple[str, int]:
        """``colour:column``."""
        colour, column = (c for c in children if isinstance(c, Token))
        return str(colour).lower(), int(column)

    def place(self, children: list[Any]) -> Place:
        """``PLACE colour:column ...``."""
        return Place(tuple(c for c in children if isinstance(c, tuple)))

    def take(self, children: list[Any]) -> Take:
        """``TAKE column``."""
        (column,) = (c for c in children if isinstance(c, Token))
        return Take(int(column))

    def pass_(self, children: list[Any]) -> Pass:
        """``PASS``."""
        return Pass()
