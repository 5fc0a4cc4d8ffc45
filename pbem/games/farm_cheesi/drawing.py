"""The Farm-cheesi race track as a picture, from a view only (see :mod:`pbem.core.svg`).

The 68 squares in rows, safe squares green, each player's entry square in
its colour; maggots are discs in the seat's colour numbered by maggot.
Under the track each player's carcass, home path and HOME. Nothing is
secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, TrackBox, heading, legend, seat_colour, track_row

_SAFE = "#d8f0d0"
_WIDTH = 540.0


def _pale(fill: str) -> str:
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*((v + 3 * 255) // 4 for v in (r, g, b)))


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the track in ``view``."""
    seats: list[str] = list(view["seats"])
    entries = {p["entry"]: p["seat"] for p in view["players"]}
    canvas = Canvas(title="Farm-cheesi race track")
    if view["winners"]:
        line = f"Winner: seat {' and '.join(view['winners'])}"
    else:
        line = f"Seat {view['current']} rolled {' and '.join(str(d) for d in view['roll'])}"
    y = heading(canvas, f"Farm-cheesi. {line}") + 6
    for row in view["rows"]:
        boxes = []
        for cell in row["cells"]:
            fill = _SAFE if cell["safe"] else "#ffffff"
            if cell["square"] in entries:
                fill = _pale(seat_colour(seats, entries[cell["square"]]))
            label = f"{cell['square']}" + ("=" if cell["blockade"] else "")
            boxes.append(TrackBox(label, [(owner, str(m)) for owner, m in cell["maggots"]], fill))
        y = track_row(canvas, boxes, x=10, y=y, width=_WIDTH, seats=seats) + 6
    y += 4
    for p in view["players"]:
        owner = p["seat"]
        canvas.text(10, y + 22, owner, size=12, anchor="start", bold=True)
        boxes = [TrackBox(f"carcass {len(p['carcass'])}", [(owner, str(m)) for m in p["carcass"]], "#eee0d0")]
        boxes += [TrackBox(h["name"], [(owner, str(m)) for m in h["maggots"]]) for h in p["path"]]
        boxes.append(TrackBox(f"HOME {len(p['home'])}", [(owner, str(m)) for m in p["home"]], "#fff4b0"))
        track_row(canvas, boxes, x=70, y=y, width=_WIDTH - 60, seats=seats, height=40)
        y += 46
    items = [(seat_colour(seats, s), f"seat {s}") for s in seats]
    legend(canvas, [*items, (_SAFE, "safe square"), ("", "n= blockade")], x=10, y=y)
    return canvas.svg()
