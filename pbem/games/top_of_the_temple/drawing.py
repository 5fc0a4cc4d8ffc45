"""The temple's stairway as a picture, from a view only (see :mod:`pbem.core.svg`).

Steps 0..12 rise from left to right, each believer a cube of its colour on
its step; under them the five offer spaces with the last offer's cubes, and
every secret colour once the game is over: every reader's board. The
reader's own secret colour (only in a seat's view, which holds it) is his
own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import OWN_PAPER, Canvas, colour_fill, cube, heading, legend, own_line

_STEP_W = 40.0
_RISE = 9.0
_CUBE = 13.0


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the stairway in ``view``."""
    canvas = Canvas(title="The Top of the Temple")
    state = "the game is over" if view["over"] else f"seat {view['to_play']} to offer"
    y = heading(canvas, f"The Top of the Temple: {state}") + 8
    top = view["top"]
    by_step = {row["step"]: row["colours"] for row in view["stairway"]}
    # The floor line sits just low enough for the highest point drawn: a step's rise and its stack.
    base = y + 4 + max(step * _RISE + len(by_step.get(step, [])) * (_CUBE + 1) for step in range(top + 1))
    for step in range(top + 1):
        x = 10 + step * _STEP_W
        floor = base - step * _RISE
        canvas.rect(x, floor, _STEP_W, base - floor + 14, fill="#f2d9a0" if step == top else "#d9c8a0",
                    stroke="#8a7a5a", stroke_width=0.8)
        canvas.text(x + _STEP_W / 2, base + 7, "TOP" if step == top else str(step), size=11)
        for k, colour in enumerate(by_step.get(step, [])):
            cube(canvas, x + (_STEP_W - _CUBE) / 2, floor - (k + 1) * (_CUBE + 1), _CUBE, colour)
    y = base + 28
    canvas.text(10, y, "Offer spaces:", size=12, anchor="start", bold=True)
    last = {i: o["colour"] for i, o in enumerate(view["last_offer"])}
    for i, value in enumerate(view["offer_values"]):
        x = 110 + i * 60
        canvas.rect(x, y - 12, 50, 40, fill="#fbf4e0", stroke="#8a7a5a")
        canvas.text(x + 25, y - 3, f"{value:+d}", size=11, bold=True)
        if i in last:
            cube(canvas, x + 18, y + 8, _CUBE, last[i])
    if view["last_player"]:
        canvas.text(420, y + 8, f"last offer: seat {view['last_player']}", size=11, anchor="start")
    y += 44
    if view["over"]:
        for p in view["players"]:
            canvas.text(10, y, f"seat {p['seat']}: {p['colour']}, step {p['step']}",
                        size=11, anchor="start")
            cube(canvas, 200, y - 6, 12, p["colour"])
            y += 17
        if view["undrawn"]:
            canvas.text(10, y, f"nobody drew: {', '.join(view['undrawn'])}", size=11, anchor="start")
            y += 17
    canvas.grow(y)
    legend(canvas, [(colour_fill(b["colour"]), b["colour"]) for b in view["believers"]], x=10, y=y)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of ``seat``'s secret colour while the game goes on (None once it is over:
    every colour is then on the board)."""
    if view["over"] or not view["you"]:
        return None
    colour = view["you"]["colour"]
    canvas = Canvas(title=f"Seat {seat}'s secret colour: {colour}", background=OWN_PAPER)
    own_line(canvas, 18, "Your secret colour:", [colour])
    return canvas.svg()
