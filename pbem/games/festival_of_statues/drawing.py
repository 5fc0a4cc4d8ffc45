"""The square of The Festival of Statues as a picture, from a view only (see :mod:`pbem.core.svg`).

The 6 x 6 square with the die's row and column shaded, each statue a disc in
its seat's colour, the spaces the player to play may add on dotted, and a
winning four outlined. Nothing is secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, heading, legend, seat_colour, square_grid, token

_CELL = 52.0
_LINE = "#fff1c4"
_PLAIN = "#f4efe4"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the square in ``view``."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"The Festival of Statues, round {view['round']}")
    if view["over"]:
        top = "Draw" if view["drawn"] else f"Seat {view['winners'][0]} wins"
        y = heading(canvas, f"{top}: the square after round {view['round']}")
    else:
        y = heading(canvas, f"Round {view['round']}: the die shows {view['die']}, seat {view['to_play']} to play")
    size = view["size"]
    rows = view["rows"]
    labels = [str(n) for n in range(1, size + 1)]
    layout = square_grid(canvas, x=40, y=y + 24, cell=_CELL, column_labels=labels, row_labels=labels,
                         fill=lambda c, r: _LINE if rows[r][c]["line"] else _PLAIN)
    for r, row in enumerate(rows):
        for c, space in enumerate(row):
            cx, cy = layout.centre(c, r)
            if space["owner"]:
                token(canvas, cx, cy, _CELL * 0.32, fill=seat_colour(seats, space["owner"]), label=space["owner"])
            elif space["add"]:
                canvas.circle(cx, cy, 4, fill="#777777", stroke=None)
            if space["pattern"] or space["last"]:
                bx, by = layout.box(c, r)
                canvas.rect(bx + 2, by + 2, _CELL - 4, _CELL - 4, fill="none",
                            stroke="#000000" if space["pattern"] else "#888888",
                            stroke_width=3.0 if space["pattern"] else 1.0)
    x = layout.x + size * _CELL + 24
    py = layout.y + 8
    for player in view["players"]:
        canvas.circle(x + 8, py + 8, 8, fill=seat_colour(seats, player["seat"]))
        canvas.text(x + 22, py + 8, f"seat {player['seat']}", size=12, anchor="start", bold=True)
        canvas.text(x + 22, py + 26, f"{player['supply']} in supply", size=11, anchor="start")
        if player["holder"] and not view["over"]:
            canvas.text(x + 22, py + 42, "holds the die", size=11, anchor="start")
        py += 64
    items = [(_LINE, f"row {view['die']} and column {view['die']}")] if not view["over"] else []
    if view["add_spaces"]:
        items.append(("", f"dot: seat {view['to_play']} may ADD there"))
    spaces = [space for row in rows for space in row]
    if any(space["pattern"] for space in spaces):
        items.append(("", "thick black frame: the winning four"))
    if any(space["last"] and not space["pattern"] for space in spaces):
        items.append(("", "grey frame: where the latest play was"))
    legend(canvas, items, x=10, y=layout.bottom + 8)
    return canvas.svg()
