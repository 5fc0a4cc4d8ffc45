"""The card of All in a Day's Work as a picture, from a view only (see :mod:`pbem.core.svg`).

From the top: the nine action spaces with this round's discs, the temple
track with both players' cubes, the village (costs of rows and columns as
cubes, each cell's value and bonus, the huts built) beside the town square,
and a line per player with score, resources and what is left to place.
Nothing is secret: every reader gets this one picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.svg import Canvas, colour_fill, cube, heading, square_grid, token
from pbem.core.words import plural

_ROW_COSTS = (("green",), (), ("blue",))
_COLUMN_COSTS = (("yellow",), ("yellow", "red"), ("red",), ("red", "blue"))
_CARD = "#efe6cf"
_SPACE_CUBES: dict[str, tuple[str, ...]] = {
    "BUILD2": ("yellow",), "BUILD3": ("yellow", "yellow"), "RED": ("red", "red"), "YELLOW": ("yellow", "yellow"),
    "GREEN": ("green", "green"), "BLUE": ("blue", "blue")}
"""Cubes drawn on an action space: the yellow a build space costs, the two cubes a resource space gives."""
_CELL = 54.0


def _cubes(canvas: Canvas, x: float, y: float, colours: Sequence[str], size: float = 9.0) -> float:
    """Draw a row of small cubes from ``x``; return the x after them."""
    for colour in colours:
        cube(canvas, x, y, size, colour)
        x += size + 2
    return x


def _disc(canvas: Canvas, cx: float, cy: float, colour: str, r: float = 8.0) -> None:
    token(canvas, cx, cy, r, fill=colour_fill(colour))


def _spaces(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    w = 540 / len(view["spaces"])
    for i, space in enumerate(view["spaces"]):
        x = 10 + i * w
        canvas.rect(x, y, w - 4, 54, fill=_CARD, stroke="#8a7a5a", rx=4)
        canvas.text(x + (w - 4) / 2, y + 9, space["name"], size=11, bold=True)
        effect = _SPACE_CUBES.get(space["name"], ())
        _cubes(canvas, x + (w - 4) / 2 - len(effect) * 4.5, y + 16, effect, 7)
        if space["disc"]:
            _disc(canvas, x + (w - 4) / 2, y + 40, space["disc"], 9)
    canvas.grow(y + 54)
    return y + 54


def _temple(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    canvas.text(10, y + 6, "Temple", size=12, anchor="start", bold=True)
    boxes = [{"label": "start", "cost": [], "cubes": view["temple"]["start"]}] + [
        {"label": f"{step['points']}", "cost": step["cost"], "cubes": step["cubes"]} for step in view["temple"]["steps"]]
    w = 480 / len(boxes)
    for i, box in enumerate(boxes):
        x = 70 + i * w
        canvas.rect(x, y - 4, w - 4, 40, fill="#f7f1e1" if i else "#d9cfb5", stroke="#8a7a5a", rx=3)
        canvas.text(x + 12, y + 5, box["label"], size=11, anchor="start", bold=bool(i))
        _cubes(canvas, x + w - 17, y + 1, box["cost"])
        _cubes(canvas, x + 6, y + 18, box["cubes"], 12)
    canvas.grow(y + 36)
    return y + 36


def _village(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    canvas.text(10, y + 6, "Village", size=12, anchor="start", bold=True)
    layout = square_grid(canvas, x=50, y=y + 40, cell=_CELL, column_labels=["a", "b", "c", "d"],
                         row_labels=["1", "2", "3"], fill=lambda c, r: _CARD)
    for column, costs in enumerate(_COLUMN_COSTS):
        cx, _ = layout.centre(column, 0)
        _cubes(canvas, cx - len(costs) * 5.5, y + 14, costs)
    for row, costs in enumerate(_ROW_COSTS):
        _, cy = layout.centre(0, row)
        _cubes(canvas, 12, cy + 4, costs)
    for index, cell in enumerate(view["village"]):
        column, row = index % 4, index // 4
        bx, by = layout.box(column, row)
        canvas.text(bx + 8, by + 10, str(cell["value"]), size=11, anchor="start", bold=True)
        if cell["bonus"]:
            canvas.text(bx + _CELL - 20, by + 10, "+", size=11, anchor="end")
            cube(canvas, bx + _CELL - 18, by + 5, 9, cell["bonus"])
        if cell["owner"]:
            cube(canvas, bx + _CELL / 2 - 10, by + _CELL / 2 - 4, 20, cell["owner"])
    return layout.bottom


def _shops(canvas: Canvas, view: Mapping[str, Any], x: float, y: float) -> None:
    canvas.text(x, y + 6, "Town square", size=12, anchor="start", bold=True)
    for k, shop in enumerate(view["shops"]):
        sy = y + 22 + k * 52
        canvas.rect(x, sy, 290, 44, fill=_CARD, stroke="#8a7a5a", rx=4)
        canvas.text(x + 8, sy + 11, f"{shop['name']}: {shop['points']} points a space", size=11, anchor="start",
                    bold=True)
        canvas.text(x + 8, sy + 30, shop["cost"], size=11, anchor="start")
        for j, colour in enumerate(shop["spaces"]):
            sx = x + 200 + j * 42
            canvas.rect(sx, sy + 8, 32, 28, fill="#ffffff", stroke="#8a7a5a", rx=3)
            if colour:
                cube(canvas, sx + 6, sy + 12, 20, colour)
    canvas.grow(y + 22 + 3 * 52)


def _players(canvas: Canvas, view: Mapping[str, Any], y: float) -> float:
    for player in view["players"]:
        cube(canvas, 10, y, 14, player["colour"])
        temple = "start" if player["temple"] == 0 else f"step {player['temple']}"
        text = (f"{player['colour']}, seat {player['seat']}: {plural(player['score'], 'point')}, temple {temple}, "
                f"{plural(player['buildings_left'], 'building')} left, {plural(player['discs_left'], 'disc')} to place")
        canvas.text(30, y + 7, text, size=11, anchor="start", bold=player["to_play"])
        x = 30.0
        for colour, count in player["resources"].items():
            x = _cubes(canvas, x, y + 18, [colour] * min(count, 12), 10) + 8
        y += 40
    canvas.grow(y)
    return y


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the card in ``view``."""
    canvas = Canvas(title=f"All in a Day's Work, round {view['round']}")
    if view["over"]:
        top = f"The card at the end of the game (round {view['round']})"
    else:
        top = f"Round {view['round']}: {view['to_play_colour']} (seat {view['to_play']}) to place a disc"
    y = heading(canvas, top) + 6
    y = _spaces(canvas, view, y) + 16
    y = _temple(canvas, view, y) + 16
    bottom = _village(canvas, view, y)
    _shops(canvas, view, 265, y)
    y = max(bottom, y + 22 + 3 * 52) + 18
    _players(canvas, view, y)
    return canvas.svg()
