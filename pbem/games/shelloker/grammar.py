"""The lark transformer for Shelloker's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import Call, Check, Fold, Raise


class ShellokerTransformer(OrdersTransformer):
    """Turns the betting lines into orders."""

    def check(self, children: list[Any]) -> Check:
        """Return the order of a ``CHECK`` line."""
        return Check()

    def raise_(self, children: list[Any]) -> Raise:
        """Return the order of a ``RAISE n`` line."""
        (bet,) = [c for c in children if isinstance(c, Token)]
        return Raise(int(bet))

    def call(self, children: list[Any]) -> Call:
        """Return the order of a ``CALL`` line."""
        return Call()

    def fold(self, children: list[Any]) -> Fold:
        """Return the order of a ``FOLD`` line."""
        return Fold()
