"""Building All in a Day's Work positions for the tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pbem.core import GameRng
from pbem.core.bag import Bag
from pbem.games.days_work.card import CELLS, RESOURCES, SHOPS, SUPPLY_EACH
from pbem.games.days_work.orders import Place
from pbem.games.days_work.rules import DaysWork
from pbem.games.days_work.state import DayState

GAME = DaysWork()
CELL_NAMES = [c.name for c in CELLS]


def hand(text: str) -> Bag:
    """Return resources from ``"2 red, 1 yellow"`` (empty text: none)."""
    cubes: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        count, colour = part.split()
        cubes += [colour] * int(count)
    return Bag.of(cubes)


def table(hands: Mapping[str, str] | None = None, *, huts: Mapping[str, str] | None = None,
          shops: Mapping[str, tuple[str, ...]] | None = None, temple: tuple[int, int] = (0, 0),
          scores: tuple[int, int] = (0, 0), placed: int = 0, first: int = 0, round: int = 1,
          discs: tuple[tuple[str, str], ...] = (), max_rounds: int = 20) -> DayState:
    """Return a game in progress: the seats' resources (the supply holds the rest of the box),
    huts by cell name, shop spaces by shop name, temple steps, scores and this round's discs."""
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    hands_bags = tuple(hand((hands or {}).get(seat, "")) for seat in state.seats)
    supply = Bag.filled(RESOURCES, SUPPLY_EACH) - hands_bags[0] - hands_bags[1]
    hut_owners = tuple((huts or {}).get(name, "") for name in CELL_NAMES)
    shop_owners = tuple(tuple((shops or {}).get(shop.name, ())) for shop in SHOPS)
    return replace(state, hands=hands_bags, supply=supply, huts=hut_owners, shops=shop_owners, temple=temple,
                   scores=scores, placed=placed, first=first, round=round, discs=discs, max_rounds=max_rounds)


def place(text: str) -> Place:
    """Return the order of one PLACE line."""
    words = text.split()
    assert words[0] == "PLACE"
    if len(words) == 2:
        return Place(words[1])
    return Place(words[1], hut=words[3]) if words[2] == "HUT" else Place(words[1], shop=words[3])


def play(state: DayState, *texts: str) -> DayState:
    """Resolve one placement per text (empty text: a pass) for whoever is to play."""
    rng = GameRng(5)
    for text in texts:
        orders = [place(text)] if text else []
        state = GAME.resolve(state, {state.to_play: orders}, rng).state
    return state
