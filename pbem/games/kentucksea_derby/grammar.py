"""The lark transformer that builds The Kentucksea Derby orders from grammar.lark.

Only the game's ``transformer()`` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer
from pbem.games.kentucksea_derby.orders import Bet, Bid, Speed, SpeedPass


def _token(children: list[Any], kind: str) -> str:
    return str(next(c for c in children if isinstance(c, Token) and c.type == kind))


class DerbyTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into Derby orders."""

    def bet(self, children: list[Any]) -> Bet:
        """``BET n``."""
        return Bet(int(_token(children, "SHELLS")))

    def bid(self, children: list[Any]) -> Bid:
        """``BID n``."""
        return Bid(int(_token(children, "SHELLS")))

    def speed(self, children: list[Any]) -> Speed:
        """``SPEED <colour> <row>``."""
        return Speed(_token(children, "COLOUR").lower(), int(_token(children, "ROW")))

    def speed_pass(self, children: list[Any]) -> SpeedPass:
        """``SPEED PASS``."""
        return SpeedPass()
