"""The Great Regatta course as a picture, from a view only (see :mod:`pbem.core.svg`).

The start and spaces 1..18 as one row of boxes (points = space), every boat a
disc in its seat's colour, the boat being sailed marked with a star; under it
the six result circles (covered ones filled) and every player's supply and points.
Nothing is secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, TrackBox, cube, heading, legend, seat_colour, track_row
from pbem.core.words import plural

_WATER = "#cfe6f7"
_START = "#e8e0c8"
_DISC = "#555555"


def _headline(view: Mapping[str, Any]) -> str:
    if view["over"]:
        return "The Great Regatta, final positions"
    if view["stage"] == "push":
        return f"The Great Regatta: seat {view['current']}'s boat sails on {view['moving']}"
    return f"The Great Regatta: seat {view['current']}'s voyage {view['seat_turn']} of {view['turns']}"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the course in ``view``."""
    seats = view["seats"]
    canvas = Canvas(title=_headline(view))
    y = heading(canvas, _headline(view)) + 8
    boxes = [
        TrackBox("start" if c["space"] == 0 else str(c["space"]),
                 [(owner, "*" if c["moving"] and owner == view["current"] and k == len(c["boats"]) - 1 else "")
                  for k, owner in enumerate(c["boats"])],
                 _START if c["space"] == 0 else _WATER)
        for c in view["course"]
    ]
    y = track_row(canvas, boxes, x=10, y=y, width=540, seats=seats, height=50) + 18
    canvas.text(10, y, "Result circles:", size=12, anchor="start")
    for k, result in enumerate(view["results"]):
        cx = 120 + k * 30
        canvas.circle(cx, y, 11, fill=_DISC if result["covered"] else "#ffffff")
        canvas.text(cx, y, str(result["number"]), size=11, fill="#ffffff" if result["covered"] else "#222222")
    if view["stage"] == "push" and not view["over"]:
        canvas.text(310, y, f"rolled {', '.join(str(r) for r in view['rolls'])}", size=11, anchor="start")
    y += 26
    for player in view["players"]:
        canvas.rect(10, y - 7, 14, 14, fill=seat_colour(seats, player["seat"]), rx=3)
        label = f"seat {player['seat']}" + (" (to play)" if player["to_play"] else "")
        canvas.text(30, y, label, size=12, anchor="start", bold=player["to_play"])
        for k in range(player["supply"]):
            cube(canvas, 170 + k * 16, y - 6, 12, seat_colour(seats, player["seat"]))
        boats = ", ".join(str(b) for b in player["boats"])
        canvas.text(260, y, f"boats on {boats}" if boats else "no boat at rest", size=11, anchor="start")
        canvas.text(550, y, plural(player['score'], 'point'), size=12, anchor="end", bold=True)
        y += 22
    legend(canvas, [(_START, "start (0 points)"), (_WATER, "space = points"), (_DISC, "covered result"),
                    ("", "* the boat being sailed")], x=10, y=y)
    return canvas.svg()
