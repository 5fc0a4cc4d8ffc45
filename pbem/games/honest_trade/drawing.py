"""The traders' tables as a picture, from a view only (see :mod:`pbem.core.svg`).

One band per trader: his five action-cube places in the order red, white, yellow, green, blue,
a cube in the starting row drawn on the line, a pushed cube drawn forward (lower), a discarded
cube as an empty crossed place; then his black cubes and discs, and his secret colour once it is
no secret (a trader who is out; everybody's at the end). The supply and the action under way are
written on top. That is every reader's board; the reader's own secret colour and sealed orders
(his TARGET, his REACT still to come) are his own picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.svg import OWN_PAPER, Canvas, colour_fill, cube, heading, legend, own_line, seat_colour, token

_COLOURS = ("red", "white", "yellow", "green", "blue")
_CUBE = 16.0
_SLOT = 24.0
_BAND = 50.0
_TABLE = "#efe4c8"
_OUT = "#dddddd"


def _goods(canvas: Canvas, x: float, y: float, blacks: int, discs: int) -> None:
    """Draw ``blacks`` black cubes and ``discs`` discs in a row from ``x`` (counted beyond six)."""
    for k in range(min(blacks, 6)):
        cube(canvas, x + k * 11, y - 5, 9, "black")
    if blacks > 6:
        canvas.text(x + 68, y, f"x{blacks}", size=11, anchor="start")
    for k in range(min(discs, 6)):
        canvas.circle(x + 4.5 + k * 11, y + 12, 4.5, fill="#8fb3d9", stroke="#333333", stroke_width=0.8)
    if discs > 6:
        canvas.text(x + 68, y + 12, f"x{discs}", size=11, anchor="start")


def _band(canvas: Canvas, player: Mapping[str, Any], seats: list[str], over: bool, y: float) -> None:
    """Draw one trader's band with its top at ``y``."""
    canvas.rect(10, y, 540, _BAND - 4, fill=_OUT if player["out"] else _TABLE, stroke="#8a7a5a",
                stroke_width=2.0 if player["to_play"] else 0.8, rx=4)
    token(canvas, 30, y + 23, 11, fill=seat_colour(seats, player["seat"]), label=player["seat"])
    if player["out"]:
        canvas.text(52, y + 16, f"seat {player['seat']} is out of the game", size=11, anchor="start")
    for k, colour in enumerate(_COLOURS):
        x = 52 + k * _SLOT
        if colour in player["row"]:
            cube(canvas, x, y + 6, _CUBE, colour)
        elif colour in player["pushed"]:
            cube(canvas, x, y + 26, _CUBE, colour)
        elif not player["out"]:
            canvas.rect(x, y + 6, _CUBE, _CUBE, fill="none", stroke="#aaaaaa", stroke_width=0.8, rx=2)
            canvas.line(x + 2, y + 8, x + _CUBE - 2, y + 4 + _CUBE, stroke="#aaaaaa")
    _goods(canvas, 180, y + 14, player["blacks"], player["discs"])
    notes = []
    if player["not_secret"]:
        notes.append(f"not {', '.join(player['not_secret'])}")
    if player["to_play"]:
        notes.append("to play")
    if notes:
        canvas.text(260, y + 14, "; ".join(notes), size=11, anchor="start")
    if player["secret"] and (player["out"] or over):  # no secret any more: on every reader's board
        canvas.text(488, y + 23, "secret", size=11, anchor="end")
        cube(canvas, 494, y + 15, _CUBE, player["secret"])


def draw(view: Mapping[str, Any]) -> str:
    """Return the SVG picture of the tables in ``view``."""
    seats = [p["seat"] for p in view["players"]]
    canvas = Canvas(title=f"An Honest Trade, action {view['turn']}")
    state = "the game is over" if view["over"] else f"seat {view['to_play']}'s turn"
    y = heading(canvas, f"An Honest Trade, action {view['turn']}: {state}") + 8
    supply = view["supply"]
    canvas.text(10, y, f"Supply: {supply['blacks']} black cubes, {supply['discs']} discs", size=11, anchor="start")
    y += 16
    action, reactor = view["action"], view["reactor"]
    notes = [(action["colour"], f"seat {action['seat']} pushed {action['colour']} to {action['text']}")] \
        if action else []
    if reactor:
        notes.append((reactor["colour"], f"seat {reactor['seat']} reacted with {reactor['colour']} to cancel it"))
    for colour, text in notes:
        cube(canvas, 10, y - 6, 12, colour)
        canvas.text(28, y, text, size=11, anchor="start")
        y += 16
    y += 4
    for player in view["players"]:
        _band(canvas, player, seats, view["over"], y)
        y += _BAND
    canvas.grow(y)
    legend(canvas, [(colour_fill(c), c) for c in _COLOURS] + [("", "lower cube: pushed forward")], x=10, y=y)
    return canvas.svg()


def draw_own(view: Mapping[str, Any], seat: str) -> str | None:
    """Return the SVG picture of ``seat``'s secret colour and sealed orders while the game goes on (None
    once it is over: every secret is then on the board)."""
    you = view["you"]
    if you is None or view["over"]:
        return None
    lines = [f"You named seat {you['target']} in advance (TARGET)."] if you["target"] else []
    if you["react"]:
        lines.append("Your REACT stands.")
    canvas = Canvas(title=f"Seat {seat}'s secret colour: {you['secret']}" + "".join(f". {line}" for line in lines),
                    background=OWN_PAPER)
    y = own_line(canvas, 18, "Your secret colour:", [you["secret"]])
    for line in lines:
        y = own_line(canvas, y, line)
    return canvas.svg()
