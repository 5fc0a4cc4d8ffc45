"""The three pyramids as a picture, and the reader's hand as his own (see :mod:`pbem.core.svg`).

Each pyramid is seen from above: a square split into four faces (bottom,
left, top, right), each face holding the cubes its seat has built there.
Under them every hand as its size, and the bag's count: every reader's
board. The reader's own hand by colour (only in a seat's view, which holds
it) is his own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import OWN_PAPER, Canvas, colour_fill, cube, heading, legend, own_line, seat_colour
from pbem.core.words import plural

_SIDE = 170.0
_CUBE = 10.0
# Per face: the point where its row of cubes starts and the step along and across the face.
_FACES = {"bottom": ((0.5, 0.86), (1, 0), (0, -1)), "top": ((0.5, 0.14), (1, 0), (0, 1)),
          "left": ((0.14, 0.5), (0, 1), (1, 0)), "right": ((0.86, 0.5), (0, 1), (-1, 0))}


def _pyramid(canvas: Canvas, x: float, y: float, pyramid: Mapping[str, Any], seats: list[str]) -> None:
    s = _SIDE
    corners = [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
    canvas.polygon(corners, fill="#efe3c2", stroke="#8a7a5a", stroke_width=1.5)
    canvas.line(x, y, x + s, y + s, stroke="#8a7a5a")
    canvas.line(x + s, y, x, y + s, stroke="#8a7a5a")
    canvas.text(x + s / 2, y + s + 12, pyramid["name"] + (" (empty)" if pyramid["empty"] else ""), size=12, bold=True)
    for face, side in pyramid["sides"].items():
        if side is None:
            continue
        (fx, fy), (ax, ay), (cx, cy) = _FACES[face]
        cubes = side["cubes"]
        per_row = 6
        for i, colour in enumerate(cubes[:18]):
            along = (i % per_row - (min(len(cubes), per_row) - 1) / 2) * (_CUBE + 2)
            across = (i // per_row) * (_CUBE + 2)
            px = x + fx * s + ax * along + cx * across - _CUBE / 2
            py = y + fy * s + ay * along + cy * across - _CUBE / 2
            cube(canvas, px, py, _CUBE, colour)
        # the face's seat, in its colour, on the outer edge
        lx, ly = x + (fx - 0.5) * 1.2 * s + s / 2, y + (fy - 0.5) * 1.2 * s + s / 2
        canvas.text(lx, ly, side["seat"], size=11, fill=seat_colour(seats, side["seat"]), bold=True)
    canvas.grow(y + s + 20)


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the pyramids in ``view``."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"Three Pyramids, round {view['round']} of {view['rounds']}")
    to_play = f"; to play: seat {view['to_play']}" if view.get("to_play") and not view["over"] else ""
    y = heading(canvas, f"Round {view['round']} of {view['rounds']}{to_play}") + 14
    for i, pyramid in enumerate(view["pyramids"][:3]):
        _pyramid(canvas, 12 + i * (_SIDE + 15), y, pyramid, seats)
    y = canvas.height + 12
    for p in view["players"]:
        canvas.rect(10, y - 7, 14, 14, fill=seat_colour(seats, p["seat"]), rx=3)
        canvas.text(30, y, f"seat {p['seat']} ({p['side']}): score {p['score']}, "
                    f"{plural(p['hand_size'], 'cube')} in hand{', passed' if p['passed'] else ''}", size=11,
                    anchor="start")
        y += 18
    canvas.text(10, y, f"Cubes in the bag: {view['bag_count']}", size=11, anchor="start")
    canvas.grow(y + 8)
    colours = ("red", "blue", "green", "yellow", "black", "white")
    legend(canvas, [(colour_fill(c), c) for c in colours], x=10, y=y + 6)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of ``seat``'s own hand by colour (None when its view holds none)."""
    hand = view.get("hand")
    if not hand:
        return None
    canvas = Canvas(title=f"Seat {seat}'s hand: {hand['text']}", background=OWN_PAPER)
    own_line(canvas, 18, f"Your hand ({hand['size']}):", [c for c, n in hand["cubes"].items() for _ in range(n)])
    return canvas.svg()
