"""Tiny's picture, from a view only (see :mod:`pbem.core.svg`): the running total as a
marker on a track from 0 to the target, and whose turn it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, TrackBox, heading, legend, seat_label, track_row

_GOAL = "#fff4b0"
_SPACE = "#e8e0c8"


def draw(view: Mapping[str, Any], seat: str | None) -> str:
    """Return the SVG picture of ``view`` as ``seat`` (None: the public) sees it."""
    seen = f", seen by {seat_label(seat, None)}" if seat else ""
    canvas = Canvas(title=f"Tiny: the total is {view['total']} of {view['target']}{seen}")
    y = heading(canvas, f"The total is {view['total']}; who reaches {view['target']} wins") + 8
    marker = [(view["last"], "T")] if view["last"] else [(view["seats"][0], "T")]
    boxes = [TrackBox(str(n), marker if n == view["total"] else [], _GOAL if n == view["target"] else _SPACE)
             for n in range(view["target"] + 1)]
    y = track_row(canvas, boxes, x=10, y=y, width=540, seats=view["seats"], you=seat) + 12
    if view["to_move"]:
        canvas.text(10, y + 6, f"Next: {seat_label(view['to_move'], seat)} adds 1, 2 or 3.", size=12, anchor="start")
        y += 18
    legend(canvas, [(_GOAL, "the target"), ("", "T: the total, in the colour of the seat that last added")], x=10, y=y)
    return canvas.svg()
