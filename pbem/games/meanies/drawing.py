"""The island card of Meanies in our Midst as a picture, from a view only (see :mod:`pbem.core.svg`).

The two counter tracks with their score cubes, the mission table with the
round's dice as discs on their spaces, the team of the mission, and the
record of the missions so far, and every faction once the game is over:
every reader's board. The reader's own faction cube and, while he is on a
mission, his own four cubes (only in a seat's view, which holds them) are
his own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import OWN_PAPER, Canvas, TrackBox, cube, heading, legend, own_line, token, track_row

_TRACKS = (("minutians", "Minutians", "green"), ("meanies", "Meanies", "red"))


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of ``view``."""
    canvas = Canvas(title="Meanies in our Midst")
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
                    size=11, anchor="start")
        y += 15
    if view["over"]:
        for player in view["players"]:
            faction = player["faction"]
            cube(canvas, 10, y - 6, 12, faction["cube"])
            canvas.text(28, y, f"seat {player['seat']}: {faction['name']}", size=11, anchor="start")
            y += 16
    canvas.grow(y)
    legend(canvas, [("", "discs on the mission table: the round's dice")], x=10, y=y)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of ``seat``'s faction and, on a mission, its own cubes while the game goes on
    (None once it is over: every faction is then on the board)."""
    if view["over"] or not view["you"]:
        return None
    faction = view["you"]["faction"]
    hand = view["hand"]["cubes"] if view["hand"] else []
    canvas = Canvas(title=f"Seat {seat}'s faction: {faction['name']}"
                    + (f"; mission cubes: {', '.join(hand)}" if hand else ""), background=OWN_PAPER)
    y = own_line(canvas, 18, f"Your faction: {faction['name']}", [faction["cube"]])
    if hand:
        own_line(canvas, y, "Your mission cubes:", hand)
    return canvas.svg()
