"""The beach of Toe-sap Fungus as a picture, from a view only (see :mod:`pbem.core.svg`).

Sand squares; toe-sap stones fill their square in their colour; shells are
white shells marked S, Cownivores brown discs marked C; each player's piece
is a disc in its toe-sap colour with the seat's name. Nothing is secret:
every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, colour_fill, heading, legend, square_grid, token

_SAND = "#f4e4bc"
_CELL = 54.0


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the beach in ``view``."""
    files: list[str] = list(view["files"])
    ranks = [row["rank"] for row in view["rows"]]  # top row first
    canvas = Canvas(title="Toe-sap Fungus beach")
    top = heading(canvas, f"The beach ({view['stage']}); to move: seat {view['to_move']}")
    sap: Mapping[str, str] = view["toe_sap"]

    def where(square: str) -> tuple[int, int]:
        return files.index(square[0]), ranks.index(int(square[1:]))

    def fill(c: int, r: int) -> str:
        colour = sap.get(f"{files[c]}{ranks[r]}")
        return colour_fill(colour) if colour else _SAND

    layout = square_grid(canvas, x=40, y=top + 20, cell=_CELL, column_labels=files,
                         row_labels=[str(r) for r in ranks], fill=fill)
    for square in view["shells"]:
        cx, cy = layout.centre(*where(square))
        token(canvas, cx, cy, 12, fill="#fffaf0", label="S")
    for square in view["cownivores"]:
        cx, cy = layout.centre(*where(square))
        token(canvas, cx, cy, 14, fill="#7b4a1e", label="C")
    colours = {s["seat"]: s["colours"][0] if s["colours"] else "grey" for s in view["seats"]}
    for owner, square in view["pieces"].items():
        if square:
            cx, cy = layout.centre(*where(square))
            token(canvas, cx, cy, 15, fill=colour_fill(colours.get(owner, "grey")), label=owner)
    items = [
        (colour_fill(colours[s["seat"]]),
         f"seat {s['seat']}: {'/'.join(s['colours'])}, "
         f"{s['collected_total']} collected, {s['stones_left_total']} left")
        for s in view["seats"]
    ]
    legend(canvas, [*items, ("#fffaf0", "S shell"), ("#7b4a1e", "C Cownivore")], x=10, y=layout.bottom + 8)
    return canvas.svg()
