"""The Top of the Temple's one order: ``OFFER <c1> <c2> <c3> <c4> <c5>``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Offer:
    """The five colours placed on the offer spaces +5, +3, +1, -1, -2, left to right."""

    colours: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(["OFFER", *self.colours])
