"""Scenario builders for Shelloker tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.bag import Bag
from pbem.games import find_game
from pbem.games.shelloker.rules import Shelloker
from pbem.games.shelloker.state import ShellokerState, full_bag

GAME: Shelloker = find_game("shelloker")  # type: ignore[assignment]


def table(hands: Mapping[str, str], *, cliffs: str = "red blue", shells: Sequence[int] | None = None,
          bets: Sequence[int] | None = None, folded: Sequence[str] = (), checked: Sequence[str] = (),
          raised: bool = False, first: str = "1", to_play: str = "1", round: int = 1) -> ShellokerState:
    """Return a table: ``hands`` seat -> space-separated colours (empty for a folded seat); every
    cube not in a hand or on the cliffs is in the bag."""
    seats = tuple(hands)
    n = len(seats)
    hand_bags = tuple(Bag.of(hands[s].split()) for s in seats)
    cliff_cubes = tuple(cliffs.split())
    bag = full_bag().remove(cliff_cubes)
    for hand in hand_bags:
        bag = bag.remove(hand)
    return ShellokerState(
        seats=seats, shells=tuple(shells) if shells is not None else (20,) * n,
        bets=tuple(bets) if bets is not None else (1,) * n, folded=tuple(s in folded for s in seats),
        checked=tuple(s in checked for s in seats), hands=hand_bags, bag=bag, cliffs=cliff_cubes,
        first=seats.index(first), to_play=seats.index(to_play), round=round, raised=raised)
