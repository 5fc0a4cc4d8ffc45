"""The Epic Quest as a picture, from a view only (see :mod:`pbem.core.svg`).

The map of cards (entrance, forest, the three portals with their goals),
the adventurers as lettered discs in their cube colours, invaders as black cubes and the Magic Meanie as a black disc with
his life; under it the status card: every adventurer's life cubes,
backpack and actions, the Magic Meanie's track, the bag and the supply.
Nothing is secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import Canvas, card_grid, colour_fill, cube, heading, legend, token
from pbem.core.words import plural

_ENTRANCE = "#e8dcc0"
_FOREST = "#b5d99c"
_PORTAL = {"green": "#7fc97f", "blue": "#8fb8e0", "yellow": "#f5e27a"}
_SEALED = "#bbbbbb"
_MEANIE = "#222222"
_MAX_CELL = 100.0


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the quest in ``view``."""
    canvas = Canvas(title=f"The Epic Quest, round {view['round']} of {view['max_rounds']}")
    state = {"victory": "the quest is won", "defeat": "the quest is lost"}.get(view["result"], f"step {view['step']}")
    y = heading(canvas, f"Round {view['round']} of {view['max_rounds']}, {state}; "
                        f"portals sealed {view['sealed']} of 3") + 24
    y = _map(canvas, view, y) + 14
    y = _adventurers(canvas, view, y) + 6
    y = _enemies(canvas, view, y) + 4
    legend(canvas, [(_ENTRANCE, "entrance"), (_FOREST, "forest"), (_SEALED, "sealed portal"),
                    (colour_fill("black"), "invader / Magic Meanie"), (colour_fill("white"), "potion")], x=10, y=y)
    return canvas.svg()


def _map(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    board = view["map"]
    cell = min(_MAX_CELL, 520 / board["width"])
    by_place = {(card["col"], card["row"]): card for card in board["cards"]}

    def fill(column: int, row: int) -> str:
        card = by_place[(column, row)]
        if card["kind"] == "portal":
            return _SEALED if card["sealed"] else _PORTAL[card["colour"]]
        return _ENTRANCE if card["kind"] == "entrance" else _FOREST

    layout = card_grid(canvas, list(by_place), x=30, y=y, cell=cell, column_labels=board["columns"],
                       row_labels=[str(n) for n in range(1, board["height"] + 1)], fill=fill)
    colours = {a["key"]: a["colour"] for a in view["adventurers"]}
    portals = {p["letter"]: p for p in view["portals"]}
    scale = cell / _MAX_CELL
    for card in board["cards"]:
        x, top = layout.box(card["col"], card["row"])
        canvas.text(x + 8, top + 12, card["name"], size=10 * max(scale, 0.7), anchor="start", fill="#333333")
        label = "entrance" if card["kind"] == "entrance" else ""
        if card["portal"]:
            portal = portals[card["portal"]]
            label = "sealed" if portal["sealed"] else portal["short"]
        if label:
            canvas.text(x + cell - 8, top + 12, label, size=10 * max(scale, 0.7), anchor="end", bold=True)
        radius = 9 * scale
        for i, key in enumerate(card["adventurers"]):
            token(canvas, x + 14 * scale + i * (2 * radius + 3 * scale), top + cell / 2, radius,
                  fill=colour_fill(colours[key]), label=key)
        bottom = top + cell - 14 * scale
        for i in range(min(card["invaders"], 6)):
            cube(canvas, x + 8 * scale + i * 13 * scale, bottom - 5 * scale, 10 * scale, "black")
        if card["invaders"] > 6:
            canvas.text(x + 8 * scale + 6 * 13 * scale, bottom, f"+{card['invaders'] - 6}", size=11, anchor="start")
        if card["meanie"]:
            token(canvas, x + cell - 16 * scale, bottom - 2 * scale, 10 * scale, fill=_MEANIE,
                  label=str(view["meanie"]["life"]))
    return layout.bottom


def _adventurers(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    for adventurer in view["adventurers"]:
        token(canvas, 18, y + 7, 8, fill=colour_fill(adventurer["colour"]), label=adventurer["key"])
        actions = plural(adventurer["actions"], "action")
        where = "escaped" if adventurer["escaped"] else f"on {adventurer['card']}, {actions} left"
        canvas.text(32, y + 7, f"{adventurer['name']} (seat {adventurer['seat']}) {where}", size=11, anchor="start")
        x = 262.0
        for colour, have, start in adventurer["life"]:
            for n in range(start):
                if n < have:
                    cube(canvas, x, y, 12, colour)
                else:
                    canvas.rect(x, y, 12, 12, fill="none", stroke="#aaaaaa", stroke_width=1.0, rx=2)
                x += 14
        x += 12
        canvas.text(x, y + 7, "backpack:", size=11, anchor="start", fill="#555555")
        x += 52
        for item in adventurer["backpack"]:
            cube(canvas, x, y, 12, "white" if item == "potion" else item)
            x += 14
        y += 20
    canvas.grow(y)
    return y


def _enemies(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    meanie = view["meanie"]
    canvas.text(10, y + 9, "Magic Meanie:", size=11, anchor="start")
    x = 100.0
    for space in meanie["spaces"]:
        canvas.rect(x, y, 28, 18, fill="#f0f0f0", stroke="#777777", stroke_width=0.8, rx=3)
        if meanie["space"] == space:
            token(canvas, x + 14, y + 9, 7, fill=_MEANIE, label=str(meanie["life"]))
        else:
            canvas.text(x + 14, y + 9, space, size=11, fill="#777777")
        x += 32
    where = f"in the forest on {meanie['card']}, " if meanie["card"] else ""
    defeats = f"; defeated {plural(meanie['defeats'], 'time')}" if meanie["defeats"] else ""
    canvas.text(x + 4, y + 9, f"{where}{meanie['life']} of {meanie['max_life']} life discs{defeats}", size=11,
                anchor="start")
    y += 24
    bag = view["bag"]
    canvas.text(10, y + 7, f"Equipment bag: {plural(bag['potion'], 'potion')}, upgrades: {bag['red']} red, "
                           f"{bag['blue']} blue, {bag['green']} green, {bag['yellow']} yellow.", size=11,
                anchor="start")
    canvas.text(10, y + 23, f"Invaders: {view['invaders']['on_map']} on the map, {view['invaders']['supply']} in the "
                            "supply.", size=11, anchor="start")
    canvas.grow(y + 32)
    return y + 32
