"""The three pyramids and the reader's hand as a picture, from a view only (see :mod:`pbem.core.svg`).

Each pyramid is seen from above: a square split into four faces (bottom,
left, top, right), each face holding the cubes its seat has built there.
Under them the reader's own hand by colour (only in a seat's view, which
holds it), every other hand as its size, and the bag's count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, colour_fill, cube, heading, legend, seat_colour

_SIDE = 170.0
_CUBE = 10.0
# Per face: the point where its row of cubes starts and the step along and across the face.
_FACES = {"bottom": ((0.5, 0.86), (1, 0), (0, -1)), "top": ((0.5, 0.14), (1, 0), (0, 1)),
          "left": ((0.14, 0.5), (0, 1), (1, 0)), "right": ((0.86, 0.5), (0, 1), (-1, 0))}


def _pyramid(canvas: Canvas, x: float, y: float, pyramid: Mapping[str, Any], seats: list[str],
             seat: str | None) -> None:
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
        mark = side["seat"] + ("*" if side["seat"] == seat else "")
        canvas.text(lx, ly, mark, size=10, fill=seat_colour(seats, side["seat"]), bold=True)
    canvas.grow(y + s + 20)


def draw(view: Mapping[str, Any], seat: str | None) -> str:
    """Return the SVG picture of the pyramids (and the reader's hand) in ``view``."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"Three Pyramids, round {view['round']} of {view['rounds']}"
                    + (f", seen by seat {seat}" if seat else ""))
    to_play = f"; to play: seat {view['to_play']}" if view.get("to_play") and not view["over"] else ""
    y = heading(canvas, f"Round {view['round']} of {view['rounds']}{to_play}") + 14
    for i, pyramid in enumerate(view["pyramids"][:3]):
        _pyramid(canvas, 12 + i * (_SIDE + 15), y, pyramid, seats, seat)
    y = canvas.height + 12
    hand = view.get("hand")
    if hand:
        canvas.text(10, y, f"Your hand ({hand['size']}):", size=12, anchor="start", bold=True)
        x = 130
        for colour, count in hand["cubes"].items():
            for _ in range(min(count, 12)):
                cube(canvas, x, y - 7, 14, colour)
                x += 17
            x += 8
        y += 24
    for p in view["players"]:
        canvas.rect(10, y - 7, 14, 14, fill=seat_colour(seats, p["seat"]), rx=3)
        canvas.text(30, y, f"seat {p['seat']}{' (you)' if p['you'] else ''} ({p['side']}): score {p['score']}, "
                    f"{p['hand_size']} cubes in hand{', passed' if p['passed'] else ''}", size=11, anchor="start")
        y += 18
    canvas.text(10, y, f"Cubes in the bag: {view['bag_count']}", size=11, anchor="start")
    canvas.grow(y + 8)
    colours = ("red", "blue", "green", "yellow", "black", "white")
    legend(canvas, [(colour_fill(c), c) for c in colours], x=10, y=y + 6)
    return canvas.svg()
