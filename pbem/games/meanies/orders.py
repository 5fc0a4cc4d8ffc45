"""Meanies in our Midst orders: ``CHOOSE 2 5``, ``KEEP white blue``, ``GIVE black black`` and ``GUIDE 4``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choose:
    """The guide's explorers for the mission."""

    seats: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(["CHOOSE", *self.seats])


@dataclass(frozen=True)
class Keep:
    """The guide's two mission cubes kept out of his four, sealed."""

    cubes: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(["KEEP", *self.cubes])


@dataclass(frozen=True)
class Give:
    """An explorer's two mission cubes given to the guide out of his four, sealed."""

    cubes: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(["GIVE", *self.cubes])


@dataclass(frozen=True)
class Guide:
    """The guide names the next round's guide."""

    seat: str

    def __str__(self) -> str:
        return f"GUIDE {self.seat}"


MeaniesOrder = Choose | Keep | Give | Guide
