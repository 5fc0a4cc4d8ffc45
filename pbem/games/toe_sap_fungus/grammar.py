"""The lark transformer that builds Toe-Sap Fungus orders from grammar.lark.

Only :meth:`ToeSapFungus.transformer` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.games.toe_sap_fungus.orders import MoveOrder, OfferOrder, RankOrder, ShellOrder, ValueOrder
from pbem.core.transformer import OrdersTransformer


class ToeSapTransformer(OrdersTransformer):
    """Builds order dataclasses from grammar.lark parse trees."""

    def SQUARE(self, token: Token) -> str:  # noqa: N802 - lark terminal callback
        """A square name, lower case."""
        return str(token).lower()

    def COLOUR(self, token: Token) -> str:  # noqa: N802 - lark terminal callback
        """A colour name, lower case."""
        return str(token).lower()

    def move(self, children: list[Any]) -> MoveOrder:
        """``MOVE a-b [COLOUR]``."""
        colour = children[2] if len(children) > 2 else None
        return MoveOrder(children[0], children[1], colour)

    def shell(self, children: list[Any]) -> ShellOrder:
        """``SHELL square``."""
        return ShellOrder(children[0])

    def offer(self, children: list[Any]) -> OfferOrder:
        """``OFFER a-b[-c]``."""
        return OfferOrder(tuple(children))

    def value(self, children: list[Any]) -> ValueOrder:
        """``VALUE colour``."""
        return ValueOrder(children[0])

    def rank(self, children: list[Any]) -> RankOrder:
        """``ORDER c1 c2 c3``."""
        return RankOrder(tuple(children))
