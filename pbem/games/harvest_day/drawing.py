"""The six territories of Harvest Day as a picture, from a view only (see :mod:`pbem.core.svg`).

The territories stand in a row, 0 to 5, joined by paths (side B adds the
path from 5 back to 0 under them); in each, every farmer's workers as cubes
of his seat colour, and the territory's controller as its border colour.
Sealed reveals are never in the picture: every reader gets this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, heading, legend, seat_colour

_BOX = 78.0
_GAP = 14.0
_CUBE = 9.0


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the island in ``view``."""
    seats = view["seats"]
    canvas = Canvas(title=f"Harvest Day, round {view['round']}")
    when = "the game is over" if view["over"] else f"round {view['round']}"
    y = heading(canvas, f"Harvest Day, side {view['side'].upper()}: {when}") + 12
    height = 110.0
    for i, territory in enumerate(view["territories"]):
        x = 10 + i * (_BOX + _GAP)
        owner = territory["controller"]
        canvas.rect(x, y, _BOX, height, fill="#e4f0d0", stroke=seat_colour(seats, owner) if owner else "#8a9a6a",
                    stroke_width=4.0 if owner else 1.0, rx=6)
        canvas.text(x + _BOX / 2, y + 12, f"{territory['number']}", size=13, bold=True)
        for row, s in enumerate(seats):
            count = territory["workers"][s]
            for k in range(min(count, 12)):
                cube_x = x + 6 + (k % 6) * (_CUBE + 2)
                cube_y = y + 26 + row * 40 + (k // 6) * (_CUBE + 2)
                canvas.rect(cube_x, cube_y, _CUBE, _CUBE, fill=seat_colour(seats, s), rx=1.5)
            if count:
                canvas.text(x + _BOX - 6, y + 30 + row * 40, str(count), size=11, anchor="end")
        if i:
            canvas.line(x - _GAP, y + height / 2, x, y + height / 2, stroke="#8a6a3a", width=3.0)
    bottom = y + height
    if view["ring"]:
        last = 10 + 5 * (_BOX + _GAP) + _BOX / 2
        first = 10 + _BOX / 2
        canvas.line(first, bottom, first, bottom + 12, stroke="#8a6a3a", width=3.0)
        canvas.line(first, bottom + 12, last, bottom + 12, stroke="#8a6a3a", width=3.0)
        canvas.line(last, bottom, last, bottom + 12, stroke="#8a6a3a", width=3.0)
        bottom += 12
    y = bottom + 18
    for farmer in view["farmers"]:
        canvas.text(10, y, f"seat {farmer['seat']}: {farmer['unplaced']} in hand, controls "
                    f"{', '.join(str(t) for t in farmer['controlled']) or 'nothing'}", size=11, anchor="start")
        y += 17
    canvas.grow(y)
    legend(canvas, [*((seat_colour(seats, s), f"seat {s}'s workers") for s in seats),
                    ("", "thick border in a seat's colour: that seat controls the territory")], x=10, y=y)
    return canvas.svg()
