"""The Shelloker table as a picture, from a view only (see :mod:`pbem.core.svg`).

The cliffs table (12 spaces, the drawn cubes on them), the bet spaces 1..12
with every player's bet cube (a folded one drawn on the beach under its
space), every player's shells, and every hand as its count of cube backs:
every reader's board. The reader's own hand (only in a seat's view, which
holds it) is his own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import (OWN_PAPER, Canvas, TrackBox, colour_fill, cube, heading, legend, own_line, seat_colour, token,
                           track_row)

_SAND = "#f3e6c4"
_SEA = "#cfe6f7"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the table in ``view``."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"Shelloker, round {view['round']}")
    state = "the game is over" if view["over"] else (
        f"top bet {view['top_bet']}" if view["raised"] else "nobody has raised")
    y = heading(canvas, f"Shelloker, round {view['round']}: {state}") + 10
    canvas.text(10, y + 2, "Cliffs", size=11, anchor="start", bold=True)
    cliffs = {c["space"]: c["colour"] for c in view["cliffs"]}
    for space in range(1, view["cliff_spaces"] + 1):
        x = 60 + (space - 1) * 40
        canvas.rect(x, y - 10, 36, 30, fill="#d9cdb4", stroke="#8a7a5a", rx=3)
        canvas.text(x + 6, y - 3, str(space), size=11, anchor="start")
        if space in cliffs:
            cube(canvas, x + 12, y + 2, 14, cliffs[space])
    y += 34
    folded = [p for p in view["players"] if p["folded"]]
    boxes = [TrackBox(str(bet), [(p["seat"], p["seat"]) for p in view["players"]
                                 if p["bet"] == bet and not p["folded"]], _SEA)
             for bet in range(1, 13)]
    y = track_row(canvas, boxes, x=10, y=y, width=540, seats=seats, height=44)
    if folded:
        width = 540 / 12
        for bet in sorted({p["bet"] for p in folded}):
            here = [p for p in folded if p["bet"] == bet]
            left = 10 + (bet - 1) * width
            canvas.rect(left, y, width, 18, fill=_SAND, stroke="#b8a77a", stroke_width=0.5)
            step = width / (len(here) + 1)
            for k, p in enumerate(here):
                token(canvas, left + step * (k + 1), y + 9, 5, fill=seat_colour(seats, p["seat"]), label=p["seat"])
    y += 30
    for p in view["players"]:
        canvas.rect(10, y - 7, 14, 14, fill=seat_colour(seats, p["seat"]), rx=3)
        flags = [w for w, on in (("checked", p["checked"] and not p["folded"]), ("first player", p["first"]),
                                 ("folded", p["folded"]), ("to play", p["to_play"])) if on]
        canvas.text(30, y, f"seat {p['seat']}: {p['shells']} shells, bet {p['bet']}"
                    + (f" ({', '.join(flags)})" if flags else ""), size=11, anchor="start")
        for k in range(p["hand_size"]):
            canvas.rect(330 + k * 14, y - 6, 11, 11, fill="#b8b8b8", stroke="#777777", rx=2)
        y += 18
    canvas.text(10, y + 2, f"Cubes in the bag: {view['bag_count']}", size=11, anchor="start")
    canvas.grow(y + 10)
    legend(canvas, [(colour_fill(v["colour"]), f"{v['colour']} {v['value']}") for v in view["cube_values"]],
           x=10, y=y + 10)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of ``seat``'s own hand (None when its view holds none)."""
    hand = view.get("hand")
    if not hand:
        return None
    canvas = Canvas(title=f"Seat {seat}'s hand, worth {hand['worth']}: {', '.join(hand['cubes'])}",
                    background=OWN_PAPER)
    own_line(canvas, 18, f"Your hand (worth {hand['worth']}):", hand["cubes"])
    return canvas.svg()
