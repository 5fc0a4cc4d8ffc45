"""The lark transformer for Resource Rich's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import Give, Keep

_ALIASES = {"pearl": "blue", "shell": "yellow", "gem": "green", "rock": "red"}


def _colour(token: Token) -> str:
    word = str(token).lower()
    return _ALIASES.get(word.rstrip("s"), word)


class RichTransformer(OrdersTransformer):
    """Turns ``KEEP`` and ``GIVE`` lines into orders, resource names into colours."""

    def keep(self, children: list[Any]) -> Keep:
        """Return the order of a ``KEEP c ...`` line."""
        return Keep(tuple(_colour(c) for c in children if isinstance(c, Token)))

    def give(self, children: list[Any]) -> Give:
        """Return the order of a ``GIVE c`` line."""
        (colour,) = [c for c in children if isinstance(c, Token)]
        return Give(_colour(colour))
