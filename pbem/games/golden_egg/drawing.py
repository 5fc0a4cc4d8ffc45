"""The Sacred Cliffs as a picture, from a view only (see :mod:`pbem.core.svg`).

The six cliffs stand as a pyramid (a, b, c at the bottom, d and e above,
the Golden Egg f on top) joined by their links; on each cliff every group's
adventurers are a disc in the seat's colour with their count. The target has a
gold frame; under the cliffs each group's supply, score and who guides: every
reader's board. The reader's own actions filed in advance (only in a seat's
view, which holds them) are its own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import OWN_PAPER, Canvas, heading, legend, own_line, seat_colour, token

_W = 130.0
_H = 58.0
_PLACES: Mapping[str, tuple[float, float]] = {
    "f": (215.0, 0.0), "d": (130.0, 95.0), "e": (300.0, 95.0),
    "a": (45.0, 190.0), "b": (215.0, 190.0), "c": (385.0, 190.0),
}
"""The top-left corner of each cliff's box, below the heading."""


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the cliffs in ``view``."""
    canvas = Canvas(title="The Great Golden Egg")
    state = "the game is over" if view["over"] else \
        f"round {view['round']}, seat {view['guide']} guides" + (f", target {view['target']}" if view["target"] else "")
    top = heading(canvas, f"The Great Golden Egg: {state}") + 10
    seats = [p["seat"] for p in view["players"]]
    centres = {c: (x + _W / 2, top + y + _H / 2) for c, (x, y) in _PLACES.items()}
    for link in view["links"]:
        one, two = link.split("-")
        canvas.line(*centres[one], *centres[two], stroke="#8a7a5a", width=2.0)
    for cliff in view["cliffs"]:
        x, y = _PLACES[cliff["cliff"]]
        y += top
        if cliff["target"]:
            canvas.rect(x - 4, y - 4, _W + 8, _H + 8, fill="none", stroke="#d4a017", stroke_width=3.0, rx=8)
        canvas.rect(x, y, _W, _H, fill="#f2d9a0" if cliff["cliff"] == "f" else "#d9c8a0", stroke="#8a7a5a", rx=6)
        canvas.text(x + 8, y + 10, f"{cliff['cliff']} ({cliff['value']})", size=12, anchor="start", bold=True)
        for k, piece in enumerate(cliff["pieces"]):
            if piece["count"]:
                token(canvas, x + 22 + k * 42, y + 38, 11, fill=seat_colour(seats, piece["seat"]),
                      label=str(piece["count"]))
    y = top + 190 + _H + 24
    for player in view["players"]:
        guide = ", guide" if player["guide"] and not view["over"] else ""
        token(canvas, 20, y, 7, fill=seat_colour(seats, player["seat"]))
        canvas.text(34, y, f"seat {player['seat']}{guide}: {player['supply']} to place, "
                           f"score {player['score']}", size=11, anchor="start")
        y += 18
    if view["votes"]:
        votes = ", ".join(f"seat {v['seat']} {v['vote']}" for v in view["votes"])
        canvas.text(10, y, f"Votes this round: {votes}", size=11, anchor="start")
        y += 18
    canvas.grow(y)
    legend(canvas, [(seat_colour(seats, s), f"seat {s}") for s in seats] + [("", "gold frame: the target")], x=10, y=y)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of the actions ``seat`` filed in advance (None when it has none)."""
    plans = view["your_plans"]
    filed = [f"if both vote {word}: {plans[key]}" for word, key in (("YES", "if_yes"), ("NO", "if_no"))
             if plans and plans[key]]
    if not filed:
        return None
    canvas = Canvas(title=f"Seat {seat}'s actions filed in advance: {'; '.join(filed)}", background=OWN_PAPER)
    y = own_line(canvas, 18, "Your actions filed in advance:")
    for line in filed:
        canvas.text(24, y, line, size=11, anchor="start")
        y += 16
    canvas.grow(y)
    return canvas.svg()
