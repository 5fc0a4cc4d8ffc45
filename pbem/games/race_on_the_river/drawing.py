"""The river of Race on the River as a picture, from a view only (see :mod:`pbem.core.svg`).

The spaces from the start to the finish as a track of water, each jockey a
disc in its seat's colour; under it every jockey's stamina cubes in hand
(public; sealed bids never appear before they are revealed). Every reader
gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, TrackBox, cube, heading, legend, seat_colour, track_row

_WATER = "#cfe6f7"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the river in ``view``."""
    seats = [j["seat"] for j in view["jockeys"]]
    canvas = Canvas(title=f"Race on the River, round {view['round']}")
    roll = f"; the die shows {view['roll']}" if view.get("roll") else ""
    y = heading(canvas, f"The river, round {view['round']}{roll}") + 8
    boxes = [
        TrackBox(space["label"], [(s, s) for s in space["seats"]],
                 "#fff4b0" if space["space"] >= view["finish"] else "#e8e0c8" if space["space"] == 0 else _WATER)
        for space in view["river"]
    ]
    y = track_row(canvas, boxes, x=10, y=y, width=540, seats=seats, height=56) + 16
    for jockey in view["jockeys"]:
        owner = jockey["seat"]
        canvas.rect(10, y, 14, 14, fill=seat_colour(seats, owner), rx=3)
        bid = f", last bid {jockey['last_bid']}" if jockey.get("last_bid") is not None else ""
        canvas.text(30, y + 7, f"seat {owner}: space {jockey['position']}"
                    f"{' (crossed)' if jockey['crossed'] else ''}, {jockey['in_hand']} in hand, "
                    f"{jockey['discarded']} discarded{bid}", size=11, anchor="start")
        for i in range(min(jockey["in_hand"], 16)):
            cube(canvas, 330 + i * 14, y, 11, "brown")
        y += 26
    legend(canvas, [(_WATER, "river"), ("#fff4b0", "finish"), ("#8c564b", "stamina cube in hand")], x=10, y=y)
    return canvas.svg()
