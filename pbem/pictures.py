"""Pictures of a position: each game's drawing found by convention, and PNG made from its SVG.

Convention: a game whose class is in ``pbem.games.<pkg>.<module>`` has a
module ``pbem.games.<pkg>.drawing`` with a function
``draw(view: Mapping[str, Any], seat: str | None) -> str`` returning SVG
text drawn from the view alone. A registered game without one is an error
(:class:`MissingDrawing`), and the shared test of every game fails on it.

PNG for mail is painted from the SVG by :mod:`pbem.raster` (Pillow, with
a font shipped in pbem: no system font or library needed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from pbem import raster
from pbem.core import Game, PbemError

Drawing = Callable[[Mapping[str, Any], "str | None"], str]


class MissingDrawing(PbemError):
    """A registered game kind whose package has no ``drawing`` module with a ``draw`` function."""


@dataclass(frozen=True)
class Picture:
    """One drawn position: its SVG source, the PNG made from it, and the alt text."""

    svg: str
    png: bytes
    alt: str
    width: int
    height: int


def drawing_for(game: Game[Any, Any]) -> Drawing:
    """Return the ``draw`` function of ``game``: ``draw`` of the ``drawing`` module beside its class's module.

    Raises :class:`MissingDrawing` when the game's package has no drawing
    module or it has no ``draw`` function.
    """
    return _drawing_in(type(game).__module__.rpartition(".")[0])


@cache
def _drawing_in(package: str) -> Drawing:
    if not package:
        raise MissingDrawing("a game outside a package has no drawing: put it in a package with drawing.py")
    try:
        module = import_module(f"{package}.drawing")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.drawing":
            raise
        raise MissingDrawing(f"{package} has no drawing: add {package.replace('.', '/')}/drawing.py with "
                             "draw(view, seat)") from None
    draw = getattr(module, "draw", None)
    if not callable(draw):
        raise MissingDrawing(f"{package}.drawing has no draw(view, seat) function")
    return draw  # type: ignore[no-any-return]


def draw_svg(game: Game[Any, Any], view: Mapping[str, Any], seat: str | None) -> str:
    """Return the SVG picture of ``view`` (the view of ``seat``; None = public) of ``game``."""
    return drawing_for(game)(view, seat)


def alt_text(svg: str) -> str:
    """Return the ``<title>`` of a drawing: the alt text of its picture."""
    start, end = svg.find("<title>"), svg.find("</title>")
    if start < 0 or end < start:
        return "picture of the board"
    from xml.sax.saxutils import unescape

    return unescape(svg[start + len("<title>") : end])


def picture(game: Game[Any, Any], view: Mapping[str, Any], seat: str | None) -> Picture:
    """Return the drawn position (SVG, PNG and alt text) of ``view`` for ``seat``."""
    svg = draw_svg(game, view, seat)
    width, height = svg_size(svg)
    return Picture(svg=svg, png=raster.svg_to_png(svg), alt=alt_text(svg), width=width, height=height)


_SIZE = re.compile(r'<svg[^>]*?\swidth="(\d+)"[^>]*?\sheight="(\d+)"')


def svg_size(svg: str) -> tuple[int, int]:
    """Return the width and height a drawing declares (0, 0 when it declares none)."""
    found = _SIZE.match(svg)
    return (int(found[1]), int(found[2])) if found else (0, 0)
