"""The Three Pyramids orders: ``PLAY <pyramid> <colour> [<colour>]``, and their transformer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token

from pbem.orders import OrdersTransformer


@dataclass(frozen=True)
class Play:
    """Play one or two cubes from the hand to one's own side of a pyramid.

    ``pyramid`` is LEFT, CENTER or RIGHT; ``colours`` one or two lower-case
    colour names, in the order written.
    """

    pyramid: str
    colours: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(("PLAY", self.pyramid, *self.colours))


PyramidsOrder = Play

_PYRAMID_NAMES = {"left": "LEFT", "center": "CENTER", "centre": "CENTER", "right": "RIGHT"}


class PyramidsTransformer(OrdersTransformer):
    """Turns a parse tree of grammars/three-pyramids.lark into :class:`Play` orders."""

    def play(self, children: list[Any]) -> Play:
        """Return the order of a ``PLAY <pyramid> <colour> [<colour>]`` line."""
        tokens = [c for c in children if isinstance(c, Token)]
        pyramid = next(t for t in tokens if t.type == "PYRAMID")
        colours = tuple(str(t).lower() for t in tokens if t.type == "COLOUR")
        return Play(_PYRAMID_NAMES[str(pyramid).lower()], colours)
