"""The island card of All in a Day's Work, as designed in the hosting plan (section 4.19).

The rule book's card is a picture the text does not hold, so the plan designs
one that fits every example of the book (19A-19D): nine action spaces, the
temple track, a village of 12 hut cells ``a1``..``d3`` (column letter, row
number) and a town square of three shops with two spaces each. Plain data;
the rules read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.bag import Bag

RESOURCES = ("red", "yellow", "green", "blue")
"""The resource colours, in the order the card and the reports list them."""

SUPPLY_EACH = 10
"""Resource cubes of each colour in the box (the general supply)."""

BUILDINGS = 8
"""Buildings (cubes) each player has to build."""

DISCS = 3
"""Discs each player places a round."""

BUILD_SPACES = ("BUILD1", "BUILD2", "BUILD3")
RESOURCE_SPACES = ("RED", "YELLOW", "GREEN", "BLUE")
SPACES = (*BUILD_SPACES, "TEMPLE", "FEAST", *RESOURCE_SPACES)
"""The nine action spaces, one disc each."""

BUILD_FEE: dict[str, int] = {"BUILD1": 0, "BUILD2": 1, "BUILD3": 2}
"""Yellow cubes a build space costs before the building itself."""

TAKE = 2
"""Cubes a resource space gives."""

TEMPLE_COSTS: tuple[tuple[str, ...], ...] = ((), (), ("red",), ("green",), ("blue",), ("blue",))
"""What stepping onto temple step 1..6 costs (the first two steps are free)."""

TEMPLE_POINTS = (1, 3, 6, 10, 15, 21)
"""Points scored on arriving at temple step 1..6."""

TOP_STEP = len(TEMPLE_POINTS)

COLUMN_COSTS: dict[str, tuple[str, ...]] = {"a": ("yellow",), "b": ("yellow", "red"), "c": ("red",),
                                            "d": ("red", "blue")}
ROW_COSTS: dict[int, tuple[str, ...]] = {1: ("green",), 2: (), 3: ("blue",)}


@dataclass(frozen=True)
class HutCell:
    """A cell of the village: a hut there costs ``cost``, gives ``bonus`` (a cube) after
    paying, and scores ``value`` at every night and every FEAST."""

    name: str
    cost: Bag
    value: int
    bonus: str | None = None


def _cell(name: str, value: int, bonus: str | None = None) -> HutCell:
    column, row = name[0], int(name[1])
    return HutCell(name, Bag.of(ROW_COSTS[row] + COLUMN_COSTS[column]), value, bonus)


CELLS: tuple[HutCell, ...] = (
    _cell("a1", 1, "blue"), _cell("b1", 1, "red"), _cell("c1", 2), _cell("d1", 3),
    _cell("a2", 1), _cell("b2", 1, "yellow"), _cell("c2", 1), _cell("d2", 2),
    _cell("a3", 2), _cell("b3", 1, "green"), _cell("c3", 2), _cell("d3", 3),
)
"""The 12 hut cells in reading order (row 1 left to right, then rows 2 and 3).

b3 is worth 1, not the plan's 2: example 19D needs six cells worth 1 (Lucy's
two and Michelle's four) and the plan's card had five."""

CELL_BY_NAME: dict[str, HutCell] = {c.name: c for c in CELLS}


@dataclass(frozen=True)
class Shop:
    """A shop of the town square: each of its ``spaces`` costs ``cost`` and scores ``points`` at once."""

    name: str
    cost: Bag
    points: int
    spaces: int = 2


SHOPS: tuple[Shop, ...] = (
    Shop("FISH", Bag.of(("yellow", "blue")), 8),
    Shop("MARKET", Bag.of(("red", "red", "yellow")), 15),
    Shop("JEWELS", Bag.of(("green", "green", "blue", "blue")), 22),
)
SHOP_BY_NAME: dict[str, Shop] = {s.name: s for s in SHOPS}
