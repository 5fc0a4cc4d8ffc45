"""Harvest Day orders: ``REVEAL n`` and ``MOVE a-b``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reveal:
    """The sealed number (0..5) revealed this round: the territory of the new worker."""

    number: int

    def __str__(self) -> str:
        return f"REVEAL {self.number}"


@dataclass(frozen=True)
class Move:
    """Move one of one's own workers from territory ``source`` to the adjacent ``target``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"MOVE {self.source}-{self.target}"


HarvestOrder = Reveal | Move
