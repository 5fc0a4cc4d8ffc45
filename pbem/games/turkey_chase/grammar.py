"""The lark transformer that builds Turkey Chase orders from grammar.lark.

Kept apart from :mod:`pbem.games.turkey_chase.orders` so that the rules stay pure:
only :meth:`TurkeyChase.transformer` imports this module, lazily."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.grid import Cell
from pbem.games.turkey_chase.board import GRID
from pbem.games.turkey_chase.orders import Build, Destroy, Feed, Move, New
from pbem.core.transformer import OrdersTransformer


class TurkeyChaseTransformer(OrdersTransformer):
    """Builds Turkey Chase orders from a parse tree of grammar.lark."""

    def SQUARE(self, token: Token) -> Cell:  # noqa: N802 - lark names terminal callbacks after the terminal
        """Turn a square token such as ``f6`` into its cell (the grammar's pattern matches only names of
        squares of the board, in either case: one look-up)."""
        return GRID.cells_by_name[token]

    def fence(self, children: list[Any]) -> tuple[Cell, Cell]:
        """Return the two squares of ``X/Y``."""
        return (children[0], children[1])

    def feed(self, children: list[Any]) -> Feed:
        """``FEED X``."""
        return Feed(children[0])

    def destroy(self, children: list[Any]) -> Destroy:
        """``DESTROY X/Y``."""
        return Destroy(*children[0])

    def move(self, children: list[Any]) -> Move:
        """``MOVE X-Y``."""
        return Move(children[0], children[1])

    def build(self, children: list[Any]) -> Build:
        """``BUILD X/Y``."""
        return Build(*children[0])

    def new(self, children: list[Any]) -> New:
        """``NEW X``."""
        return New(children[0])
