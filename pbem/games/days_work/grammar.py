"""The lark transformer that builds All in a Day's Work orders from grammar.lark.

Only the game's ``transformer()`` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer
from pbem.games.days_work.orders import Place


class DaysWorkTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into :class:`Place` orders (names in canonical case)."""

    def place(self, children: list[Any]) -> Place:
        """Return the order of a ``PLACE <space> [HUT <cell> | SHOP <shop>]`` line."""
        space = str(children[0]).upper()
        if len(children) == 1:
            return Place(space)
        kind, name = children[1]
        return Place(space, hut=name) if kind == "hut" else Place(space, shop=name)

    def hut(self, children: list[Token]) -> tuple[str, str]:
        """Return ``("hut", cell)`` for ``HUT b1``."""
        return "hut", str(children[0]).lower()

    def shop(self, children: list[Token]) -> tuple[str, str]:
        """Return ``("shop", name)`` for ``SHOP FISH``."""
        return "shop", str(children[0]).upper()
