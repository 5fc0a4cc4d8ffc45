"""Resource Rich as a picture, from a view only (see :mod:`pbem.core.svg`).

The die and the three direction spaces (a disc on each covered one), then a
row per player: his hand and his kept pile as grey cube backs (every pile in
colour once the game is over): every reader's board. The reader's own hand
and kept pile in colour (only in a seat's view, which holds them) are his
own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import OWN_PAPER, Canvas, colour_fill, cube, heading, legend, own_line, seat_colour
from pbem.core.words import plural

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


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of ``view``."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"Resource Rich, round {view['round']}")
    top = "the game is over" if view["over"] else f"the die shows {view['roll']}"
    y = heading(canvas, f"Resource Rich, round {view['round']}: {top}") + 10
    for n, space in enumerate(view["directions"]):
        x = 10 + n * 130
        canvas.rect(x, y, 120, 26, fill="#f4efe2", stroke="#8a7a5a", rx=4)
        canvas.text(x + 60, y + 13, space["words"], size=11)
        if space["covered"]:
            canvas.circle(x + 108, y + 13, 8, fill="#ffffff", stroke="#333333", stroke_width=1.5)
    y += 40
    for p in view["players"]:
        canvas.rect(10, y - 2, 12, 12, fill=seat_colour(seats, p["seat"]), rx=2)
        canvas.text(28, y + 4, f"seat {p['seat']}", size=11, anchor="start")
        if view["over"]:
            canvas.text(28, y + 19, plural(p["points"]["total"], "point"), anchor="start")
        else:
            canvas.text(132, y + 4, "hand", anchor="end")
            _cubes(canvas, 136, y - 2, None, p["hand_size"], per_row=10)
        pile = p["kept"]["list"] if view["over"] else None  # a reader's own pile is in his own picture
        canvas.text(296, y + 4, "kept", anchor="end")
        bottom = _cubes(canvas, 300, y - 2, pile, p["kept_size"], per_row=18)
        y = max(bottom, y + 28) + 8
    if view["unused"]:
        canvas.text(10, y + 4, "unused:", anchor="start")
        _cubes(canvas, 60, y - 2, list(view["unused"]), len(view["unused"]))
        y += 22
    canvas.grow(y)
    legend(canvas, [(colour_fill(c["colour"]), c["text"].split(":")[0]) for c in view["table"]]
           + [(_HIDDEN, "hidden")], x=10, y=y)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of ``seat``'s hand and kept pile in colour while the game goes on (None once
    it is over: every pile is then on the board, and the hands are discarded unseen)."""
    you = view["you"]
    if you is None or view["over"]:
        return None
    hand, kept = you["hand"], you["kept"]
    canvas = Canvas(title=f"Seat {seat}'s hand: {hand['text']}; kept: {kept['text']}", background=OWN_PAPER)
    y = own_line(canvas, 18, "Your hand:", hand["list"])
    own_line(canvas, y, "Your kept pile:", kept["list"])
    return canvas.svg()
