"""The Feaster Island table as a picture, from a view only (see :mod:`pbem.core.svg`).

The six table columns as stacks of dish cubes (bottom up), the cubes just
drawn, then every player's dishes colour by colour with the score they would
give now, and the dish values of the card side as the legend. Nothing is
secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, colour_fill, cube, heading, legend, seat_colour

_COLUMN_WIDTH = 86.0
_TABLE = "#f3ead7"


def _headline(view: Mapping[str, Any]) -> str:
    if view["over"]:
        return "Feaster Island, the final table"
    if view["stage"] == "last-take":
        return f"Feaster Island, last round: seat {view['current']} may take a column"
    return f"Feaster Island: seat {view['current']} rolled {view['rolled']}"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the table in ``view``."""
    canvas = Canvas(title=_headline(view))
    y = heading(canvas, _headline(view)) + 8
    height = max(view["height"], 1)
    size = min(14.0, 150.0 / height)
    top = y + 4
    bottom = top + height * (size + 2) + 8
    for i, column in enumerate(view["columns"]):
        x = 10 + i * (_COLUMN_WIDTH + 4)
        canvas.rect(x, top, _COLUMN_WIDTH, bottom - top, fill=_TABLE, stroke="#8a7a5a", rx=4)
        for level, colour in enumerate(column["cubes"]):
            cube(canvas, x + _COLUMN_WIDTH / 2 - size / 2, bottom - 6 - (level + 1) * (size + 2), size, colour)
        canvas.text(x + _COLUMN_WIDTH / 2, bottom + 10, f"column {column['column']}", size=11)
    y = bottom + 32
    if view["drawn"]:
        canvas.text(10, y, f"Drawn for seat {view['current']}:", size=12, anchor="start")
        for k, colour in enumerate(view["drawn"]):
            cube(canvas, 150 + k * 20, y - 7, 14, colour)
        y += 22
    canvas.text(10, y, f"Bag: {view['bag']} cubes; discarded: {view['discarded']}", size=11, anchor="start")
    y += 20
    seats = view["seats"]
    for player in view["players"]:
        canvas.rect(10, y - 7, 14, 14, fill=seat_colour(seats, player["seat"]), rx=3)
        label = f"seat {player['seat']}" + (" (to play)" if player["to_play"] else "")
        canvas.text(30, y, label, size=12, anchor="start", bold=player["to_play"])
        for k, dish in enumerate(view["values"]):
            x = 170 + k * 52
            cube(canvas, x, y - 7, 14, dish["colour"])
            canvas.text(x + 18, y, str(player["plate"][dish["colour"]]), size=12, anchor="start")
        canvas.text(550, y, f"{player['score']:+d}", size=12, anchor="end", bold=True)
        y += 22
    items = [(colour_fill(dish["colour"]), f"{dish['colour']} {dish['value']}") for dish in view["values"]]
    legend(canvas, [*items, ("", f"side {view['side']}")], x=10, y=y)
    return canvas.svg()
