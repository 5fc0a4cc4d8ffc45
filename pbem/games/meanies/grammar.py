"""The lark transformer for Meanies in our Midst's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import Choose, Give, Guide, Keep


def _words(children: list[Any]) -> tuple[str, ...]:
    return tuple(str(child).lower() for child in children if isinstance(child, Token))


class MeaniesTransformer(OrdersTransformer):
    """Turns the lines of a submission into orders."""

    def choose(self, children: list[Any]) -> Choose:
        """Return the order of a ``CHOOSE 2 5`` line."""
        return Choose(_words(children))

    def keep(self, children: list[Any]) -> Keep:
        """Return the order of a ``KEEP white blue`` line."""
        return Keep(_words(children))

    def give(self, children: list[Any]) -> Give:
        """Return the order of a ``GIVE black black`` line."""
        return Give(_words(children))

    def guide(self, children: list[Any]) -> Guide:
        """Return the order of a ``GUIDE 4`` line."""
        (seat,) = _words(children)
        return Guide(seat)
