"""The Kentucksea Derby as a picture, from a view only (see :mod:`pbem.core.svg`).

The speed column with the speed table beside it; the race as one bar per
racer (laps marked, finishers with their place); then every player's racer,
rival, shells, bet and score, and the turn order. Sealed bets and bids are
never in the picture: every reader gets this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, colour_fill, cube, heading
from pbem.core.words import plural

_TRACK = "#e8e0c8"


_STAGES = {"bid": "sealed bids for the turn order", "rebid": "tie re-bids", "speed": "speed moves"}
"""Each stage of a round in the words of the text report."""


def _headline(view: Mapping[str, Any]) -> str:
    if view["over"]:
        return "The Kentucksea Derby, final order"
    if view["stage"] == "bet":
        return "The Kentucksea Derby, before the race: sealed bets"
    return f"The Kentucksea Derby, round {view['round']}: {_STAGES[view['stage']]}"


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the derby in ``view``."""
    canvas = Canvas(title=_headline(view))
    y = heading(canvas, _headline(view)) + 10
    canvas.text(10, y, "speed column", size=11, anchor="start", bold=True)
    for die in range(1, 7):
        canvas.text(140 + die * 18, y, str(die), size=11, fill="#555555")
    y += 14
    for r in view["column"]:
        cube(canvas, 10, y - 6, 12, r["colour"])
        owner = f" (seat {r['owner']})" if r["owner"] else ""
        canvas.text(28, y, f"{r['row']}. {r['colour']}{owner}", size=11, anchor="start")
        for die, steps in enumerate(r["speeds"], start=1):
            canvas.text(140 + die * 18, y, str(steps), size=11)
        y += 16
    y += 8
    canvas.text(10, y, f"race: {view['laps']} laps of {view['lap']} spaces", size=11, anchor="start", bold=True)
    y += 14
    left, width = 110.0, 400.0
    for racer in view["racers"]:
        canvas.text(10, y, f"{racer['rank']}. {racer['colour']}", size=11, anchor="start")
        canvas.rect(left, y - 6, width, 12, fill=_TRACK, stroke="#8a7a5a", stroke_width=0.6)
        run = min(racer["progress"], view["finish"]) / view["finish"]
        canvas.rect(left, y - 6, width * run, 12, fill=colour_fill(racer["colour"]), stroke="#555555",
                    stroke_width=0.6)
        for lap in range(1, view["laps"]):
            x = left + width * lap / view["laps"]
            canvas.line(x, y - 8, x, y + 8, stroke="#555555", width=1.0)
        label = f"finished {racer['finished']}" if racer["finished"] else f"{racer['progress']}"
        canvas.text(left + width + 6, y, label, size=11, anchor="start")
        y += 18
    y += 6
    for player in view["players"]:
        cube(canvas, 10, y - 6, 12, player["colour"])
        canvas.text(28, y, f"seat {player['seat']}", size=11, anchor="start")
        bet = f"bet {player['bet']}" if view["betting"] else "no bet"
        canvas.text(130, y, f"rival {player['rival']}; {player['shells']} shells; {bet}", size=11, anchor="start")
        canvas.text(550, y, plural(player['score'], 'point'), size=11, anchor="end", bold=True)
        y += 17
    # Until the first bids are in there is no turn order; while later bids are awaited it is last round's.
    before_bids = view["stage"] in ("bet", "bid") and not view["over"]
    if not (before_bids and view["round"] == 1):
        order = "last round's order" if before_bids else "turn order"
        canvas.text(10, y + 4, f"{order}: {', '.join(view['order'])}", size=11, anchor="start")
    canvas.grow(y + 16)
    return canvas.svg()
