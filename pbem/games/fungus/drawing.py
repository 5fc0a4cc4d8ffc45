"""The Fungus hex rhombus as a picture, from a view only (see :mod:`pbem.core.svg`).

Row 1 on top, each row half a cell further right, as in the text board;
each gem is a disc in its seat's colour marked with the seat. Nothing is
secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, heading, hex_rhombus, legend, seat_colour, token


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the board in ``view``."""
    size: int = view["size"]
    columns: list[str] = list(view["columns"])
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"Fungus board, {size} x {size} hex rhombus")
    to_move = f"; to move: seat {view['to_move']}" if view["to_move"] else ""
    top = heading(canvas, f"Fungus ({view['variant']}), {view['phase']} phase{to_move}")
    layout = hex_rhombus(canvas, x=10, y=top + 14, width=540, size=size, column_labels=columns,
                         row_labels=[str(r) for r in range(1, size + 1)])
    r = layout.radius * 0.62
    for name, owner in view["gems"].items():
        cx, cy = layout.centre(columns.index(name[0]), int(name[1:]) - 1)
        token(canvas, cx, cy, r, fill=seat_colour(seats, owner), label=owner)
    items = [
        (seat_colour(seats, p["seat"]),
         f"seat {p['seat']}: score {p['score']}, {p['gems_left']} left"
         + (f", keeps {p['kept']}" if p["kept"] else ""))
        for p in view["players"]
    ]
    legend(canvas, items, x=10, y=canvas.height + 6)
    return canvas.svg()
