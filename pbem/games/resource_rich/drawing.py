"""Resource Rich as a picture, from a view only (see :mod:`pbem.core.svg`).

The die and the three direction spaces (a disc on each covered one), then a
row per player: his hand and his kept pile as cubes, in colour where the view
shows them (the reader's own; every pile once the game is over) and as grey
backs elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, colour_fill, cube, heading, legend, seat_colour

_CUBE = 11.0
_HIDDEN = "#b8b8b8"


def _cubes(canvas: Canvas, x: float, y: float, colours: list[str] | None, count: int, per_row: int = 10) -> float:
    """Draw ``count`` cubes from ``x``: ``colours`` when known, grey backs otherwise; return the y under them."""
    for k in range(count):
        cx = x + (k % per_row) * (_CUBE + 2)
        cy = y + (k // per_row) * (_CUBE + 2)
        if colours is not None:
            cube(canvas, cx, cy, _CUBE, colours[k])
        else:
            canvas.rect(cx, cy, _CUBE, _CUBE, fill=_HIDDEN, stroke="#777777", rx=2)
    rows = max(1, (count + per_row - 1) // per_row)
    return y + rows * (_CUBE + 2)


def draw(view: Mapping[str, Any], seat: str | None) -> str:
    """Return the SVG picture of ``view`` as ``seat`` (None: the public) sees it."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"Resource Rich, round {view['round']}" + (f", seen by seat {seat}" if seat else ""))
    top = "the game is over" if view["over"] else f"the die shows {view['roll']}"
    y = heading(canvas, f"Resource Rich, round {view['round']}: {top}") + 10
    for n, space in enumerate(view["directions"]):
        x = 10 + n * 130
        canvas.rect(x, y, 120, 26, fill="#f4efe2", stroke="#8a7a5a", rx=4)
        canvas.text(x + 60, y + 13, space["words"], size=11)
        if space["covered"]:
            canvas.circle(x + 108, y + 13, 8, fill="#ffffff", stroke="#333333", stroke_width=1.5)
    y += 40
    you = view["you"]
    for p in view["players"]:
        mine = p["you"]
        canvas.rect(10, y - 2, 12, 12, fill=seat_colour(seats, p["seat"]), rx=2)
        canvas.text(28, y + 4, f"seat {p['seat']}{' (you)' if mine else ''}", size=11, anchor="start", bold=mine)
        if view["over"]:
            canvas.text(28, y + 19, f"{p['points']['total']} points", size=10, anchor="start")
        else:
            hand = you["hand"]["list"] if mine and you else None
            canvas.text(110, y + 4, "hand", size=9, anchor="start")
            _cubes(canvas, 136, y - 2, hand, p["hand_size"], per_row=10)
        pile = p["kept"]["list"] if p["kept"] is not None else None
        canvas.text(274, y + 4, "kept", size=9, anchor="start")
        bottom = _cubes(canvas, 300, y - 2, pile, p["kept_size"], per_row=18)
        y = max(bottom, y + 28) + 8
    if view["unused"]:
        canvas.text(10, y + 4, "unused:", size=10, anchor="start")
        _cubes(canvas, 60, y - 2, list(view["unused"]), len(view["unused"]))
        y += 22
    canvas.grow(y)
    legend(canvas, [(colour_fill(c["colour"]), c["text"].split(":")[0]) for c in view["table"]]
           + [(_HIDDEN, "hidden")], x=10, y=y)
    return canvas.svg()
