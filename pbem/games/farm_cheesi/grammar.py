"""The lark transformer that builds Farm-cheesi orders from ``grammar.lark``.

Only :meth:`FarmCheesi.transformer` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.games.farm_cheesi.orders import Bonus, Enter, Move
from pbem.core.transformer import OrdersTransformer


class FarmCheesiTransformer(OrdersTransformer):
    """Turns a parse tree of ``grammar.lark`` into order objects."""

    def move(self, children: list[Any]) -> Move:
        """``MOVE <maggot> <die>``."""
        maggot, steps = (int(c) for c in children if isinstance(c, Token) and c.type in ("MAGGOT", "DIE"))
        return Move(maggot, steps)

    def enter(self, children: list[Any]) -> Enter:
        """``ENTER``."""
        return Enter()

    def bonus(self, children: list[Any]) -> Bonus:
        """``BONUS <maggot>``."""
        (maggot,) = (int(c) for c in children if isinstance(c, Token) and c.type == "MAGGOT")
        return Bonus(maggot)
