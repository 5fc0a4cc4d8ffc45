"""Resource Rich orders: ``KEEP <colours...>`` and, on a 4 or 5, ``GIVE <colour>``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keep:
    """The cubes kept from the hand this round (under the cover card)."""

    colours: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(["KEEP", *self.colours])


@dataclass(frozen=True)
class Give:
    """The cube given to the neighbour against the direction of play (on a 4 or 5)."""

    colour: str

    def __str__(self) -> str:
        return f"GIVE {self.colour}"


RichOrder = Keep | Give
