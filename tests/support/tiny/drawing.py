"""Tiny's picture, from the public view (see :mod:`pbem.core.svg`): the running total as a
marker on a track from 0 to the target, and whose turn it is. Tiny has no secrets, so it has no
``draw_own``: every reader gets this one picture."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, TrackBox, heading, legend, track_row

_GOAL = "#fff4b0"
_SPACE = "#e8e0c8"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of ``view``."""
    canvas = Canvas(title=f"Tiny: the total is {view['total']} of {view['target']}")
    y = heading(canvas, f"The total is {view['total']}; who reaches {view['target']} wins") + 8
    marker = [(view["last"], "T")] if view["last"] else [(view["seats"][0], "T")]
    boxes = [TrackBox(str(n), marker if n == view["total"] else [], _GOAL if n == view["target"] else _SPACE)
             for n in range(view["target"] + 1)]
    y = track_row(canvas, boxes, x=10, y=y, width=540, seats=view["seats"]) + 12
    if view["to_move"]:
        canvas.text(10, y + 6, f"Next: seat {view['to_move']} adds 1, 2 or 3.", size=12, anchor="start")
        y += 18
    legend(canvas, [(_GOAL, "the target"), ("", "T: the total, in the colour of the seat that last added")], x=10, y=y)
    return canvas.svg()
