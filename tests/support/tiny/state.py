"""Tiny's state: a flat frozen dataclass, so BaseGame's dump/load fit it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TinyState:
    """The seats in turn order, the running total and target, who moves, who moved last."""

    seats: tuple[str, ...]
    total: int
    target: int
    to_move: int
    last: str | None = None
