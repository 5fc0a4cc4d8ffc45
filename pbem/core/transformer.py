"""The base of every game's lark transformer (the one core module that uses lark).

Only a game's ``grammar`` module imports this, lazily through the game's
``transformer()``, so the rules themselves load no parser.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer


class OrdersTransformer(Transformer):  # type: ignore[type-arg]
    """Base for the games' transformers: ``start`` yields the list of orders."""

    def start(self, children: list[Any]) -> list[Any]:
        """Return the orders of a submission, in line order (the list lark made for this rule, not a copy:
        nothing else holds it)."""
        return children

