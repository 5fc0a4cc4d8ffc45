"""Scenario builders for Resource Rich tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core import GameRng
from pbem.core.bag import Bag
from pbem.games import find_game
from pbem.games.resource_rich.orders import Give, Keep
from pbem.games.resource_rich.rules import ResourceRich
from pbem.games.resource_rich.state import RichState

GAME: ResourceRich = find_game("resource-rich")  # type: ignore[assignment]


def rich(hands: Mapping[str, str], kept: Mapping[str, str] | None = None, *, roll: int = 3, side: str = "a",
         directions: tuple[str, ...] = ("cw", "ccw", "cw"), discs: int = 0, sixes: int = 0) -> RichState:
    """Return a table: ``hands`` and ``kept`` seat -> space-separated colours."""
    seats = tuple(hands)
    kept = kept or {}
    return RichState(seats=seats, side=side, directions=directions,
                     hands=tuple(Bag.of(hands[s].split()) for s in seats),
                     kept=tuple(Bag.of(kept.get(s, "").split()) for s in seats),
                     roll=roll, round=1, sixes=sixes, discs=discs)


def keep(text: str) -> Keep:
    """Return the KEEP of e.g. ``"blue green"``."""
    return Keep(tuple(text.split()))


def give(colour: str) -> Give:
    """Return the GIVE of ``colour``."""
    return Give(colour)


def seed_rolling(*faces: int, limit: int = 200_000) -> int:
    """Return the first seed whose generator rolls ``faces`` first (a die from the real generator)."""
    for seed in range(limit):
        rng = GameRng(seed)
        if all(rng.roll(6) == face for face in faces):
            return seed
    raise AssertionError(f"no seed below {limit} rolls {faces}")
