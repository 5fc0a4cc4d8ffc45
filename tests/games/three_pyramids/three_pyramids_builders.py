"""Scenario builders for The Three Pyramids tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.bag import Bag
from pbem.games import find_game
from pbem.games.three_pyramids.orders import Play
from pbem.games.three_pyramids.rules import ThreePyramids
from pbem.games.three_pyramids.state import PYRAMIDS, PyramidsState, full_bag

GAME: ThreePyramids = find_game("three-pyramids")  # type: ignore[assignment]


def table(
    hands: Mapping[str, str],
    pyramids: Mapping[str, Mapping[str, str]] | None = None,
    *,
    to_play: str = "1",
    passed: Sequence[str] = (),
    round: int = 1,
    scores: Sequence[int] | None = None,
    first: str = "1",
) -> PyramidsState:
    """Return a table: ``hands`` seat -> space-separated colours; ``pyramids`` name -> seat -> colours.

    Every cube not in a hand or on a pyramid is in the bag.
    """
    seats = tuple(hands)
    pyramids = pyramids or {}
    hand_bags = tuple(Bag.of(hands[s].split()) for s in seats)
    sides = tuple(
        tuple(tuple(pyramids.get(name, {}).get(s, "").split()) for s in seats) for name in PYRAMIDS
    )
    bag = full_bag()
    for hand in hand_bags:
        bag = bag.remove(hand)
    for pyramid in sides:
        for side in pyramid:
            bag = bag.remove(side)
    return PyramidsState(
        seats=seats,
        round=round,
        scores=tuple(scores) if scores is not None else tuple(0 for _ in seats),
        bag=bag,
        hands=hand_bags,
        pyramids=sides,
        first=seats.index(first),
        to_play=seats.index(to_play),
        passed=tuple(s in passed for s in seats),
    )


def play(text: str) -> Play:
    """Return the Play of e.g. ``"LEFT red blue"``."""
    pyramid, *colours = text.split()
    return Play(pyramid, tuple(colours))
