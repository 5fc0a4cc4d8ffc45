"""The island of The Great Battle: the hex map, the bases, the two armies and their colours.

The map is ``HexGrid.hexagon(4)`` (61 hexes, rows e1..i1 down to a9..e9). The
bases are the corners of two opposite edges (hosting plan, section 4.15):
the Minutians' red base a9 and blue base e9, the Meanies' green base i1 and
yellow base e1. Seat 1 commands the Minutians, seat 2 the Meanies.
"""

from __future__ import annotations

from pbem.core.hexgrid import BadHexName, HexCell, HexGrid

GRID = HexGrid.hexagon(4)

SIDES = ("Minutians", "Meanies")
"""The armies, by seat index: seat 1 the Minutians, seat 2 the Meanies."""

SIDE_COLOURS: tuple[tuple[str, str], ...] = (("red", "blue"), ("green", "yellow"))
"""Each army's unit colours: the fast colour first."""

COLOURS = tuple(colour for pair in SIDE_COLOURS for colour in pair)

BASES: dict[str, HexCell] = {"red": GRID.parse("a9"), "blue": GRID.parse("e9"),
                             "green": GRID.parse("i1"), "yellow": GRID.parse("e1")}
"""The base of each colour; units of a colour enter play next to it."""

BASE_CELLS = frozenset(BASES.values())

SPEED: dict[str, int] = {"red": 2, "green": 2, "blue": 1, "yellow": 1}
"""Hexes a unit may move in one move."""

ATTACKS: dict[str, int] = {"red": 1, "green": 1, "blue": 2, "yellow": 2}
"""Attacks a unit may make in one ATTACK action."""

RANGE = 2
"""The longest attack: a hex distance of 2, whatever lies between."""

CUBES = 10
"""Cubes of each colour a general has at the start (his supply)."""


def side_of(colour: str) -> int:
    """Return the seat index (0 Minutians, 1 Meanies) whose army has ``colour``."""
    return 0 if colour in SIDE_COLOURS[0] else 1


def base_colour(cell: HexCell) -> str | None:
    """Return the colour of the base on ``cell``, or None."""
    return next((colour for colour, base in BASES.items() if base == cell), None)


def next_to_base(colour: str) -> tuple[HexCell, ...]:
    """Return the hexes next to the base of ``colour`` in name order (where its units enter play)."""
    return tuple(sorted(GRID.neighbours(BASES[colour]), key=hex_name))


def hex_name(cell: HexCell) -> str:
    """Return the map name of a hex, e.g. ``b8``."""
    return GRID.name(cell)


def parse_hex(text: str) -> HexCell:
    """Return the hex a name such as ``b8`` names; raises BadHexName off the island."""
    try:
        return GRID.parse(text)
    except BadHexName:
        raise BadHexName(f"{text.strip().lower()} is not a hex of the island") from None

