"""The cornfield as a picture, from a view only (see :mod:`pbem.core.svg`).

Each square is shaded by its corn and shows the number; farmers are discs
with a capital letter, birds triangles with a small letter, in the seat's
colour. Fences are brown bars; the outer fence has its gaps at A6, F1, F11
and K6. Nothing is secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, fences, heading, legend, seat_colour, square_grid, text_colour_on, token

COLUMNS = "ABCDEFGHIJK"
SIZE = 11
GAPS = ("A6", "F1", "F11", "K6")
_CELL = 44.0


def _cell(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def _corn_fill(corn: int) -> str:
    shade = min(corn, 10) / 10
    r, g, b = (int(250 - shade * 20), int(246 - shade * 70), int(220 - shade * 170))
    return f"#{r:02x}{g:02x}{b:02x}"


def _outer_walls() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    gaps = {_cell(g) for g in GAPS}
    walls = []
    for i in range(SIZE):
        for inside, outside in (((i, 0), (i, -1)), ((i, SIZE - 1), (i, SIZE)),
                                ((0, i), (-1, i)), ((SIZE - 1, i), (SIZE, i))):
            if inside not in gaps:
                walls.append((inside, outside))
    return walls


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the cornfield in ``view``."""
    seats = list(view["farmers"])
    canvas = Canvas(title="Turkey Chase cornfield")
    top = heading(canvas, "The cornfield")
    corn: Mapping[str, int] = view["corn"]
    layout = square_grid(
        canvas, x=30, y=top + 20, cell=_CELL, column_labels=list(COLUMNS),
        row_labels=[str(r) for r in range(1, SIZE + 1)],
        fill=lambda c, r: _corn_fill(corn[f"{COLUMNS[c]}{r + 1}"]),
    )
    pieces: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for owner, squares in view["farmers"].items():
        for square in squares:
            pieces.setdefault(_cell(square), []).append(("farmer", owner))
    for owner, squares in view["birds"].items():
        for square in squares:
            pieces.setdefault(_cell(square), []).append(("bird", owner))
    for (c, r), name in ((_cell(n), n) for n in corn):
        x, y = layout.box(c, r)
        canvas.text(x + 3, y + 8, str(corn[name]), anchor="start", fill="#6b5a1e")
    for (c, r), here in pieces.items():
        x, y = layout.box(c, r)
        for i, (what, owner) in enumerate(here[:4]):
            px, py = x + 19 + (i % 2) * 17, y + (26 if len(here) <= 2 else 19 + (i // 2) * 16)
            fill = seat_colour(seats, owner)
            if what == "farmer":
                token(canvas, px, py, 8, fill=fill, label=owner)
            else:
                canvas.polygon([(px, py - 9), (px + 8, py + 7), (px - 8, py + 7)], fill=fill)
                canvas.text(px, py + 2, owner.lower(), fill=text_colour_on(fill), bold=True)
    walls = [tuple(_cell(side) for side in f.split("/")) for f in view["fences"]]
    fences(canvas, layout, [*walls, *_outer_walls()])  # type: ignore[list-item]
    items = [(seat_colour(seats, s), f"{s}/{s.lower()}") for s in seats]
    legend(canvas, [*items, ("", "disc: farmer  triangle: bird  number: corn  bar: fence")],
           x=10, y=layout.bottom + 8)
    return canvas.svg()
