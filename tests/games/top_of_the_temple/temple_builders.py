"""Scenario builders for The Top of the Temple tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.games import find_game
from pbem.games.top_of_the_temple.orders import Offer
from pbem.games.top_of_the_temple.rules import TopOfTheTemple
from pbem.games.top_of_the_temple.state import COLOURS, TempleState

GAME: TopOfTheTemple = find_game("top-of-the-temple")  # type: ignore[assignment]


def temple(secrets: str, steps: Mapping[str, int] | None = None, *, to_play: str = "1") -> TempleState:
    """Return a table: ``secrets`` the seats' colours in seat order ("blue red"); ``steps`` colour -> step."""
    colours = tuple(secrets.split())
    seats = tuple(str(n) for n in range(1, len(colours) + 1))
    steps = steps or {}
    return TempleState(seats=seats, secrets=colours, steps=tuple(steps.get(c, 0) for c in COLOURS),
                       to_play=seats.index(to_play))


def offer(text: str) -> Offer:
    """Return the offer of e.g. ``"blue green yellow black red"``."""
    return Offer(tuple(text.split()))
