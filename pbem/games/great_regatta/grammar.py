"""The lark transformer that builds The Great Regatta orders from grammar.lark.

Only the game's ``transformer()`` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer
from pbem.games.great_regatta.orders import Advance, New, Roll, RollUntil, Stop


def _space(children: list[Any]) -> int:
    (space,) = (c for c in children if isinstance(c, Token) and c.type == "SPACE")
    return int(space)


class RegattaTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into Regatta orders."""

    def new(self, children: list[Any]) -> New:
        """``NEW``."""
        return New()

    def advance(self, children: list[Any]) -> Advance:
        """``ADVANCE <space>``."""
        return Advance(_space(children))

    def roll(self, children: list[Any]) -> Roll:
        """``ROLL``."""
        return Roll()

    def roll_until(self, children: list[Any]) -> RollUntil:
        """``ROLL UNTIL <space>``."""
        return RollUntil(_space(children))

    def stop(self, children: list[Any]) -> Stop:
        """``STOP``."""
        return Stop()
