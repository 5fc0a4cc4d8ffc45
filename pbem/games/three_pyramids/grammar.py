"""The lark transformer that builds Three Pyramids orders from grammar.lark.

Only :meth:`ThreePyramids.transformer` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.games.three_pyramids.orders import Play
from pbem.core.transformer import OrdersTransformer

_PYRAMID_NAMES = {"left": "LEFT", "center": "CENTER", "centre": "CENTER", "right": "RIGHT"}


class PyramidsTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into :class:`Play` orders."""

    def play(self, children: list[Any]) -> Play:
        """Return the order of a ``PLAY <pyramid> <colour> [<colour>]`` line."""
        tokens = [c for c in children if isinstance(c, Token)]
        pyramid = next(t for t in tokens if t.type == "PYRAMID")
        colours = tuple(str(t).lower() for t in tokens if t.type == "COLOUR")
        return Play(_PYRAMID_NAMES[str(pyramid).lower()], colours)
