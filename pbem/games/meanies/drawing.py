"""The island card of Meanies in our Midst as a picture, from a view only (see :mod:`pbem.core.svg`).

The two counter tracks with their score cubes, the mission table with the
round's dice as discs on their spaces, the team of the mission, and the
record of the missions so far; the reader's own faction cube and, while he
is on a mission, his own four cubes (only in a seat's view, which holds
them); every faction once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, TrackBox, cube, heading, legend, token, track_row

_TRACKS = (("minutians", "Minutians", "green"), ("meanies", "Meanies", "red"))


def draw(view: Mapping[str, Any], seat: str | None) -> str:
    """Return the SVG picture of ``view`` as ``seat`` (None: the public) sees it."""
    canvas = Canvas(title="Meanies in our Midst" + (f", seen by seat {seat}" if seat else ""))
    state = "the game is over" if view["over"] else f"round {view['round']}, seat {view['guide']} guides"
    y = heading(canvas, f"Meanies in our Midst: {state}") + 8
    seats = [p["seat"] for p in view["players"]]
    for key, label, colour in _TRACKS:
        canvas.text(10, y + 18, label, size=12, anchor="start", bold=True)
        boxes = [TrackBox(str(n), fill="#dff0d8" if colour == "green" else "#f2dede") for n in range(view["goal"] + 1)]
        track_row(canvas, boxes, x=100, y=y, width=200, seats=seats, height=36)
        cube(canvas, 100 + view[key] * 200 / len(boxes) + 200 / len(boxes) / 2 - 7, y + 15, 14, colour)
        y += 42
    y += 6
    canvas.text(10, y, "Mission table:", size=12, anchor="start", bold=True)
    dice = list(view["dice"]) if not view["over"] else []
    for k, row in enumerate(view["mission_table"]):
        x = 110 + k * 72
        canvas.rect(x, y - 10, 66, 44, fill="#f3ead7", stroke="#8a7a5a", rx=4)
        canvas.text(x + 10, y - 1, str(row["die"]), size=11, bold=True)
        for j, colour in enumerate(row["cubes"]):
            cube(canvas, x + 24 + j * 18, y - 7, 13, colour)
        for j in range(dice.count(row["die"])):
            token(canvas, x + 12 + j * 16, y + 22, 6, fill="#555555")
    y += 50
    if not view["over"]:
        team = f"; on the mission: {', '.join([view['guide'], *view['explorers']])}" if view["on_mission"] else ""
        canvas.text(10, y, f"Needed: {view['needed']['text']}{team}", size=11, anchor="start")
        y += 18
    for mission in view["missions"][-4:]:
        result = "Minutians" if mission["success"] else "Meanies"
        canvas.text(10, y, f"Round {mission['round']}: guide {mission['guide']}, explorers "
                           f"{', '.join(mission['explorers'])}; brought back {mission['collected']}: {result}",
                    size=10, anchor="start")
        y += 15
    if view["over"]:
        for player in view["players"]:
            faction = player["faction"]
            cube(canvas, 10, y - 6, 12, faction["cube"])
            canvas.text(28, y, f"seat {player['seat']}{' (you)' if player['you'] else ''}: {faction['name']}",
                        size=11, anchor="start")
            y += 16
    elif view["you"]:
        faction = view["you"]["faction"]
        cube(canvas, 10, y - 7, 14, faction["cube"])
        canvas.text(30, y, f"Your faction: {faction['name']}", size=12, anchor="start", bold=True)
        y += 20
    if view["hand"]:
        canvas.text(10, y, "Your mission cubes:", size=12, anchor="start", bold=True)
        for k, colour in enumerate(view["hand"]["cubes"]):
            cube(canvas, 140 + k * 20, y - 7, 14, colour)
        y += 20
    canvas.grow(y)
    legend(canvas, [("", "discs on the mission table: the round's dice")], x=10, y=y)
    return canvas.svg()
