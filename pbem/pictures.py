"""Pictures of a position: each game's drawing found by convention, and PNG made from its SVG.

Convention: a game whose class is in ``pbem.games.<pkg>.<module>`` has a
module ``pbem.games.<pkg>.drawing`` with

- ``draw(view: Mapping[str, Any]) -> str``: SVG text of the board, drawn
  from the public view (``game.view(state, None)``): what every reader sees
  alike. Drawn from any seat's own view it must come out the same (the
  shared picture test checks it), so one picture is every reader's board.
- optionally ``draw_own(view: Mapping[str, Any], seat: str) -> str | None``:
  SVG text of what only ``seat``'s own view holds (its hand, its secret
  colour, its faction), a small picture shown under the board; None when
  the view holds nothing of its own. Games with secrets have one.

A registered game without ``draw`` is an error (:class:`MissingDrawing`),
and the shared test of every game fails on it.

A report's pictures are made by :class:`ReportPictures`: the board once for
all its readers, each seat's own picture from its own view, and every
distinct SVG made PNG once. PNG is painted by :mod:`pbem.raster` (Pillow,
with a font shipped in pbem: no system font or library needed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any
from xml.sax.saxutils import escape, unescape

from pbem import raster
from pbem.core import Game, PbemError

Board = Callable[[Mapping[str, Any]], str]
Own = Callable[[Mapping[str, Any], str], "str | None"]


class MissingDrawing(PbemError):
    """A registered game kind whose package has no ``drawing`` module with a ``draw`` function."""


@dataclass(frozen=True)
class Drawing:
    """A game's drawing functions: ``board`` (its ``draw``) and ``own`` (its ``draw_own``, or None)."""

    board: Board
    own: Own | None


@dataclass(frozen=True)
class Picture:
    """One drawn picture: its SVG source, the PNG made from it, and the alt text."""

    svg: str
    png: bytes
    alt: str
    width: int
    height: int


def drawing_for(game: Game[Any, Any]) -> Drawing:
    """Return the drawing of ``game``: ``draw`` (and ``draw_own``) of the ``drawing`` module beside its class's module.

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
                             "draw(view)") from None
    draw = getattr(module, "draw", None)
    if not callable(draw):
        raise MissingDrawing(f"{package}.drawing has no draw(view) function")
    own = getattr(module, "draw_own", None)
    return Drawing(board=draw, own=own if callable(own) else None)


def board_svg(game: Game[Any, Any], state: Any, *, moment: str | None = None) -> str:
    """Return the SVG picture of the board of ``state``, drawn from its public view: every reader's board.
    With ``moment`` (:func:`pbem.numbering.board_moment`, "after turn 3") its title ends with it."""
    return titled(drawing_for(game).board(game.view(state, None)), moment)


def own_svg(game: Game[Any, Any], state: Any, seat: str | None, *, moment: str | None = None) -> str | None:
    """Return the SVG picture of what only ``seat`` sees of ``state``, drawn from its own view (None for the
    public, for a game without ``draw_own`` and when the seat's view holds nothing of its own); with
    ``moment`` its title ends with it."""
    own = drawing_for(game).own
    if seat is None or own is None:
        return None
    svg = own(game.view(state, seat), seat)
    return None if svg is None else titled(svg, moment)


def titled(svg: str, moment: str | None) -> str:
    """Return ``svg`` with ``moment`` (plain words) added to the end of its ``<title>``: the one place a
    picture is told which turn it shows, so its title agrees with the report it goes with."""
    end = svg.find("</title>")
    if moment is None or end < 0:
        return svg
    return f"{svg[:end]}, {escape(moment)}{svg[end:]}"


class ReportPictures:
    """The pictures of one report for all its readers: the board drawn once and made PNG once for every
    reader, each seat's own picture drawn from that seat's view, and every distinct SVG made PNG once.

    ``moment`` ("after turn 3") ends every picture's title. Raises :class:`MissingDrawing` (when first
    asked for a picture) for a game without a drawing.
    """

    def __init__(self, game: Game[Any, Any], state: Any, *, moment: str | None = None) -> None:
        self.game = game
        self.state = state
        self.moment = moment
        self._board: Picture | None = None
        self._made: dict[str, Picture] = {}

    @property
    def rendered(self) -> int:
        """How many PNG pictures were made so far (one per distinct SVG)."""
        return len(self._made)

    def board(self) -> Picture:
        """Return the board, the same picture for every reader."""
        if self._board is None:
            self._board = self._picture(board_svg(self.game, self.state, moment=self.moment))
        return self._board

    def own(self, seat: str | None) -> Picture | None:
        """Return the picture of what only ``seat`` sees (None: nothing of its own, or the public)."""
        svg = own_svg(self.game, self.state, seat, moment=self.moment)
        return None if svg is None else self._picture(svg)

    def _picture(self, svg: str) -> Picture:
        made = self._made.get(svg)
        if made is None:
            width, height = svg_size(svg)
            made = self._made[svg] = Picture(svg=svg, png=raster.svg_to_png(svg), alt=alt_text(svg),
                                             width=width, height=height)
        return made


def alt_text(svg: str) -> str:
    """Return the ``<title>`` of a drawing: the alt text of its picture."""
    start, end = svg.find("<title>"), svg.find("</title>")
    if start < 0 or end < start:
        return "picture of the board"
    return unescape(svg[start + len("<title>") : end])


_SIZE = re.compile(r'<svg[^>]*?\swidth="(\d+)"[^>]*?\sheight="(\d+)"')


def svg_size(svg: str) -> tuple[int, int]:
    """Return the width and height a drawing declares (0, 0 when it declares none)."""
    found = _SIZE.match(svg)
    return (int(found[1]), int(found[2])) if found else (0, 0)
