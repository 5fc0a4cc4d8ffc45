"""The Three Pyramids orders: ``PLAY <pyramid> <colour> [<colour>]`` (their transformer is in grammar.py)."""

from __future__ import annotations

from dataclasses import dataclass


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
