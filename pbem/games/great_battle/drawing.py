"""The island of The Great Battle as a picture, from a view only (see :mod:`pbem.core.svg`).

The hexagon of 61 hexes with every hex's name, the four bases in their
colours, each unit a disc of its colour with its level on it; under the map
the six action spaces with the generals' discs and each army's supply.
Nothing is secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, colour_fill, cube, heading, hex_board, token

_LAND = "#e9dfc4"
_BASE_TINT = {"red": "#f3b8b8", "blue": "#b9d3ee", "green": "#bfe3bf", "yellow": "#f7e7a1"}


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the island in ``view``."""
    canvas = Canvas(title="The Great Battle")
    if view["over"]:
        top = "Draw" if view["drawn"] else f"Seat {view['winners'][0]} wins"
        y = heading(canvas, f"{top}: the island at the end of the battle")
    elif view["stage"] == "setup":
        y = heading(canvas, f"Setup: seat {view['to_play']} places units")
    else:
        y = heading(canvas, f"Action {view['action']} of at most {view['turn_limit']}: seat {view['to_play']} to act")
    hexes = {(h["column"], h["row"]): h for row in view["map"] for h in row}
    layout = hex_board(canvas, x=60, y=y + 6, width=440, cells=list(hexes),
                       fill=lambda c, r: _BASE_TINT.get(hexes[(c, r)]["base"] or "", _LAND),
                       label=lambda c, r: hexes[(c, r)]["name"])
    for (column, row), hex_ in hexes.items():
        cx, cy = layout.centre(column, row)
        unit = hex_["unit"]
        if unit:
            token(canvas, cx, cy + layout.radius * 0.15, layout.radius * 0.5, fill=colour_fill(unit["colour"]),
                  label=str(unit["level"]))
        elif hex_["base"]:
            canvas.text(cx, cy + layout.radius * 0.15, "base", size=11, bold=True)
    y = canvas.height + 10
    for i, space in enumerate(view["spaces"]):
        x = 10.0 + i * 91
        canvas.rect(x, y, 85, 30, fill="#f3ead7", stroke="#8a7a5a", rx=4)
        canvas.text(x + 5, y + 15, space["name"], size=11, anchor="start", bold=True)
        if space["disc"]:
            owner = next(a for a in view["armies"] if a["seat"] == space["disc"])
            token(canvas, x + 76, y + 15, 6, fill=colour_fill("white" if owner["side"] == "Minutians" else "black"))
    y += 44
    for army in view["armies"]:
        canvas.text(10, y + 6, f"{army['side']}, seat {army['seat']}: total level {army['strength']}",
                    size=11, anchor="start", bold=army["to_play"])
        x = 280.0
        for colour in army["colours"]:
            for k in range(army["supply"][colour]):
                cube(canvas, x + k * 11, y + 1, 9, colour)
            x += 130
        y += 20
    canvas.grow(y)
    return canvas.svg()
