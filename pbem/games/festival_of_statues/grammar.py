"""The lark transformer that builds Festival of Statues orders from grammar.lark.

Only the game's ``transformer()`` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer
from pbem.games.festival_of_statues.orders import Add, Move


class FestivalTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into :class:`Add` and :class:`Move` orders."""

    def space(self, children: list[Token]) -> tuple[int, int]:
        """Return ``(row, column)`` of a ``r,c`` space."""
        row, _, column = children
        return int(row), int(column)

    def add(self, children: list[Any]) -> Add:
        """Return the order of an ``ADD r,c`` line."""
        (space,) = children
        return Add(*space)

    def move(self, children: list[Any]) -> Move:
        """Return the order of a ``MOVE r,c-r,c`` line."""
        start, _, end = children
        return Move(*start, *end)
