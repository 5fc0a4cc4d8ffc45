"""Drawing boards as SVG text: the pieces every game's drawing shares.

A game's ``drawing.py`` turns a view dict (what one seat may see) into SVG
text with these helpers: :class:`Canvas` collects shapes and writes the
document; :func:`square_grid` draws a chequer of squares with labels,
:func:`card_grid` cards laid on some cells of a grid (a map with holes),
:func:`fences` the fences between them, :func:`hex_rhombus` a hex rhombus
with labels, :func:`hex_board` hex cells of any shape (a hexagon),
:func:`track_row` a row of numbered track boxes, :func:`cube` and
:func:`card` small pieces, :func:`token` a lettered disc and :func:`legend`
the key under a board, and :func:`own_line` the lines of a reader's own
picture (what only that seat sees, drawn on :data:`OWN_PAPER` under the
board). Every drawing is at most :data:`WIDTH` units wide so that a report
stays readable on a 600-pixel screen, and no letter is smaller than
:data:`MIN_TEXT`, so that a picture shown at its natural size stays legible on a phone.

Pure text building: stdlib only, no I/O, deterministic (same view, same SVG).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import sqrt
from xml.sax.saxutils import escape, quoteattr

WIDTH = 560
"""The width every drawing fits into (SVG user units = PNG pixels)."""

MIN_TEXT = 11.0
"""The smallest letters a drawing writes, in units (= pixels at the natural size, at which a report shows
its pictures): legible on a phone. :meth:`Canvas.text` raises a smaller size to it."""

FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
"""Fill colours of the seats, in seat order."""

CUBE_COLOURS: Mapping[str, str] = {
    "red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "yellow": "#f2d024", "black": "#222222",
    "white": "#f8f8f8", "orange": "#ff7f0e", "purple": "#9467bd", "brown": "#8c564b", "grey": "#888888",
}
"""Colour names used by games, as fills."""

INK = "#222222"
PAPER = "#ffffff"
OWN_PAPER = "#fff8d6"
"""The background of a reader's own picture (its hand, its secret colour): the colour the HTML report marks
the reader's row with."""


def seat_colour(seats: Sequence[str], seat: str) -> str:
    """Return the fill colour of ``seat`` (by its place in ``seats``; grey when it is not there)."""
    if seat not in seats:
        return "#888888"
    return SEAT_COLOURS[list(seats).index(seat) % len(SEAT_COLOURS)]


def colour_fill(name: str) -> str:
    """Return the fill for a game's colour name (``"blue"``), or the name itself when unknown."""
    return CUBE_COLOURS.get(name.lower(), name)


def text_colour_on(fill: str) -> str:
    """Return black or white, whichever reads better on ``fill`` (a ``#rrggbb`` colour)."""
    if len(fill) != 7 or not fill.startswith("#"):
        return INK
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else PAPER


@lru_cache(maxsize=8192)
def _number(value: float) -> str:
    """``value`` with one decimal at most (kept: a board's coordinates come back in every picture of it)."""
    text = f"{value:.1f}"
    return text.removesuffix(".0")


@lru_cache(maxsize=4096)
def _attribute(value: object) -> str:
    """An attribute's value, escaped to go between double quotes (numbers with one decimal at most)."""
    if isinstance(value, float | int):
        return _number(value)
    text = str(value)
    return escape(text, _QUOTE) if _SPECIAL.search(text) else text


_QUOTE = {'"': "&quot;"}
_SPECIAL = re.compile('[&<>"]')


@lru_cache(maxsize=4096)
def _points(points: tuple[tuple[float, float], ...]) -> str:
    """The ``points`` attribute of a polygon (kept: a hex grid's cells come back in every picture of it)."""
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in points)


def _stroke(colour: str | None, width: float) -> str:
    """The stroke attributes of a shape (none without a colour)."""
    return f' stroke="{_attribute(colour)}" stroke-width="{_number(width)}"' if colour else ""


@dataclass
class Canvas:
    """An SVG document being drawn: shapes are appended in painting order.

    ``height`` may grow while drawing (:meth:`grow`); :meth:`svg` writes the
    document with a title (the alt text of the picture).
    """

    title: str
    width: int = WIDTH
    height: int = 0
    background: str = PAPER
    parts: list[str] = field(default_factory=list)

    def grow(self, bottom: float) -> None:
        """Make the canvas at least ``bottom`` units tall."""
        self.height = max(self.height, int(bottom + 0.999))

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none", stroke: str | None = INK,
             stroke_width: float = 1.0, rx: float | None = None) -> None:
        """Draw a rectangle."""
        corner = "" if rx is None else f' rx="{_attribute(rx)}"'
        self.parts.append(f'<rect x="{_number(x)}" y="{_number(y)}" width="{_number(w)}" height="{_number(h)}"'
                          f'{corner} fill="{_attribute(fill)}"{_stroke(stroke, stroke_width)}/>')

    def circle(self, cx: float, cy: float, r: float, *, fill: str, stroke: str | None = INK,
               stroke_width: float = 1.0) -> None:
        """Draw a circle."""
        self.parts.append(f'<circle cx="{_number(cx)}" cy="{_number(cy)}" r="{_number(r)}" '
                          f'fill="{_attribute(fill)}"{_stroke(stroke, stroke_width)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = INK, width: float = 1.0) -> None:
        """Draw a straight line with round ends."""
        self.parts.append(f'<line x1="{_number(x1)}" y1="{_number(y1)}" x2="{_number(x2)}" y2="{_number(y2)}"'
                          f'{_stroke(stroke, width)} stroke-linecap="round"/>')

    def polygon(self, points: Iterable[tuple[float, float]], *, fill: str, stroke: str | None = INK,
                stroke_width: float = 1.0) -> None:
        """Draw a closed polygon through ``points``."""
        text = _points(tuple(points))
        self.parts.append(f'<polygon points="{text}" fill="{_attribute(fill)}"{_stroke(stroke, stroke_width)}/>')

    def text(self, x: float, y: float, text: str, *, size: float = 12, anchor: str = "middle",
             fill: str = INK, bold: bool = False) -> None:
        """Write ``text`` with its baseline centred vertically on ``y`` (anchor start, middle or end), at
        ``size`` or :data:`MIN_TEXT`, whichever is larger."""
        size = max(size, MIN_TEXT)
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(f'<text x="{_number(x)}" y="{_number(y + size * 0.35)}" font-size="{_number(size)}" '
                          f'text-anchor="{_attribute(anchor)}" fill="{_attribute(fill)}"{weight}>'
                          f"{escape(text)}</text>")

    def svg(self) -> str:
        """Return the whole SVG document (UTF-8 text, no XML declaration)."""
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" role="img" font-family={quoteattr(FONT)}>'
            f"<title>{escape(self.title)}</title>"
            f'<rect width="{self.width}" height="{self.height}" fill="{self.background}"/>'
        )
        return head + "".join(self.parts) + "</svg>\n"


@dataclass(frozen=True)
class SquareLayout:
    """Where the squares of a square grid are: column 0, row 0 top left at ``(x, y)``."""

    x: float
    y: float
    cell: float
    columns: int
    rows: int

    def box(self, column: int, row: int) -> tuple[float, float]:
        """Return the top-left corner of the square at ``column``, ``row`` (0-based from the top left)."""
        return self.x + column * self.cell, self.y + row * self.cell

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """Return the centre of the square at ``column``, ``row``."""
        x, y = self.box(column, row)
        return x + self.cell / 2, y + self.cell / 2

    @property
    def bottom(self) -> float:
        """The y below the last row."""
        return self.y + self.rows * self.cell


def square_grid(canvas: Canvas, *, x: float, y: float, cell: float, column_labels: Sequence[str],
                row_labels: Sequence[str], fill: Callable[[int, int], str] | None = None) -> SquareLayout:
    """Draw a grid of ``len(column_labels)`` by ``len(row_labels)`` squares with its labels around it.

    Row 0 is drawn at the top. ``fill(column, row)`` colours each square.
    Labels go above and left of the grid, so ``x`` and ``y`` are the corner
    of the squares themselves; leave about 18 units for the labels.
    """
    layout = SquareLayout(x, y, cell, len(column_labels), len(row_labels))
    for row in range(layout.rows):
        for column in range(layout.columns):
            bx, by = layout.box(column, row)
            canvas.rect(bx, by, cell, cell, fill=fill(column, row) if fill else PAPER, stroke="#999999",
                        stroke_width=0.5)
    _grid_labels(canvas, layout, column_labels, row_labels)
    return layout


def _grid_labels(canvas: Canvas, layout: SquareLayout, column_labels: Sequence[str],
                 row_labels: Sequence[str]) -> None:
    """Write the column labels above a grid and the row labels left of it; grow the canvas to its bottom."""
    for column, label in enumerate(column_labels):
        cx, _ = layout.centre(column, 0)
        canvas.text(cx, layout.y - 9, label, size=11)
    for row, label in enumerate(row_labels):
        _, cy = layout.centre(0, row)
        canvas.text(layout.x - 5, cy, label, size=11, anchor="end")
    canvas.grow(layout.bottom)


def card_grid(canvas: Canvas, cards: Iterable[tuple[int, int]], *, x: float, y: float, cell: float,
              column_labels: Sequence[str], row_labels: Sequence[str],
              fill: Callable[[int, int], str] | None = None, gap: float = 4.0) -> SquareLayout:
    """Draw cards laid side by side on some cells of a grid (a map of cards with holes), with
    the column labels above and the row labels left, like :func:`square_grid`.

    Each of ``cards`` (``(column, row)``, 0-based from the top left) is a
    rounded card ``gap`` units smaller than its cell, coloured ``fill(column,
    row)``. Returns the layout of the whole grid, to place pieces on cards.
    """
    layout = SquareLayout(x, y, cell, len(column_labels), len(row_labels))
    for column, row in cards:
        bx, by = layout.box(column, row)
        canvas.rect(bx + gap / 2, by + gap / 2, cell - gap, cell - gap, fill=fill(column, row) if fill else PAPER,
                    stroke="#555555", stroke_width=1.0, rx=6)
    _grid_labels(canvas, layout, column_labels, row_labels)
    return layout


def fences(canvas: Canvas, layout: SquareLayout, walls: Iterable[tuple[tuple[int, int], tuple[int, int]]],
           *, colour: str = "#6b3e12", width: float = 4.0) -> None:
    """Draw a fence between each pair of orthogonally adjacent squares ``((c1, r1), (c2, r2))``.

    A square outside the grid (column or row -1 or past the end) stands for
    the outer edge, so the border is drawn with the same call.
    """
    for (c1, r1), (c2, r2) in walls:
        if r1 == r2:  # side by side: a vertical fence on the shared edge
            x = layout.x + max(c1, c2) * layout.cell
            y = layout.y + r1 * layout.cell
            canvas.line(x, y, x, y + layout.cell, stroke=colour, width=width)
        else:
            x = layout.x + c1 * layout.cell
            y = layout.y + max(r1, r2) * layout.cell
            canvas.line(x, y, x + layout.cell, y, stroke=colour, width=width)


@dataclass(frozen=True)
class HexLayout:
    """Where the cells of a hex rhombus are (pointy-top hexes, each row half a cell further right)."""

    x: float
    y: float
    radius: float

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """Return the centre of the cell at ``column``, ``row`` (0-based, row 0 on top)."""
        w = sqrt(3) * self.radius
        return self.x + w / 2 + column * w + row * w / 2, self.y + self.radius + row * 1.5 * self.radius

    def corners(self, column: int, row: int, *, inset: float = 0.0) -> list[tuple[float, float]]:
        """Return the six corners of the cell, drawn ``inset`` units smaller."""
        cx, cy = self.centre(column, row)
        r = self.radius - inset
        half = sqrt(3) / 2 * r
        return [(cx, cy - r), (cx + half, cy - r / 2), (cx + half, cy + r / 2), (cx, cy + r),
                (cx - half, cy + r / 2), (cx - half, cy - r / 2)]


def hex_rhombus(canvas: Canvas, *, x: float, y: float, width: float, size: int, column_labels: Sequence[str],
                row_labels: Sequence[str], fill: Callable[[int, int], str] | None = None) -> HexLayout:
    """Draw a ``size`` x ``size`` rhombus of hexes fitting ``width`` units, with labels.

    Column labels run along the top edge, row labels down the left edge.
    Returns the layout, to place pieces on cells.
    """
    radius = (width - 10) / (sqrt(3) * (1.5 * size - 0.5))
    layout = HexLayout(x + 10, y + 8, radius)
    for row in range(size):
        for column in range(size):
            canvas.polygon(layout.corners(column, row), fill=fill(column, row) if fill else "#f3ead7",
                           stroke="#8a7a5a", stroke_width=1.0)
    for column, label in enumerate(column_labels[:size]):
        cx, cy = layout.centre(column, 0)
        canvas.text(cx, cy - radius - 6, label, size=MIN_TEXT)
    for row, label in enumerate(row_labels[:size]):
        cx, cy = layout.centre(0, row)
        canvas.text(cx - sqrt(3) / 2 * radius - 3, cy, label, size=MIN_TEXT, anchor="end")
    canvas.grow(layout.centre(0, size - 1)[1] + radius + 4)
    return layout


def hex_board(canvas: Canvas, *, x: float, y: float, width: float, cells: Sequence[tuple[int, int]],
              fill: Callable[[int, int], str] | None = None,
              label: Callable[[int, int], str] | None = None) -> HexLayout:
    """Draw the hex ``cells`` (axial ``(column, row)`` pairs, as :mod:`pbem.core.hexgrid` has
    them: a hexagon, a rhombus or any shape) fitting ``width`` units from ``x``, the top row
    at ``y``; ``fill(column, row)`` colours a cell and ``label(column, row)`` writes a small
    text in its upper part (its name, say). Returns the layout, to place pieces on cells.

    Raises ValueError for an empty set of cells.
    """
    if not cells:
        raise ValueError("a hex board needs at least one cell")
    across = [column + row / 2 for column, row in cells]
    cell_width = width / (max(across) - min(across) + 1)
    radius = cell_width / sqrt(3)
    top = min(row for _, row in cells)
    layout = HexLayout(x - min(across) * cell_width, y - top * 1.5 * radius, radius)
    for column, row in cells:
        canvas.polygon(layout.corners(column, row), fill=fill(column, row) if fill else "#f3ead7",
                       stroke="#8a7a5a", stroke_width=1.0)
        if label:
            cx, cy = layout.centre(column, row)
            canvas.text(cx, cy - radius * 0.62, label(column, row), size=max(MIN_TEXT, radius * 0.3), fill="#6b5d40")
    canvas.grow(max(layout.centre(column, row)[1] for column, row in cells) + radius + 2)
    return layout


def token(canvas: Canvas, cx: float, cy: float, r: float, *, fill: str, label: str = "") -> None:
    """Draw a round piece with a letter on it."""
    canvas.circle(cx, cy, r, fill=fill, stroke=INK, stroke_width=1.0)
    if label:
        canvas.text(cx, cy, label, size=max(MIN_TEXT, r * 1.1), fill=text_colour_on(fill), bold=True)


def cube(canvas: Canvas, x: float, y: float, size: float, colour: str) -> None:
    """Draw a cube of colour name ``colour`` with its top-left corner at ``x``, ``y``."""
    canvas.rect(x, y, size, size, fill=colour_fill(colour), stroke=INK, stroke_width=1.0, rx=2)


def card(canvas: Canvas, x: float, y: float, *, label: str, w: float = 26, h: float = 36,
         fill: str = PAPER, face_down: bool = False) -> None:
    """Draw a card with ``label`` on it, or its back (``face_down``)."""
    canvas.rect(x, y, w, h, fill="#5a6fa8" if face_down else fill, stroke=INK, stroke_width=1.0, rx=3)
    if not face_down:
        canvas.text(x + w / 2, y + h / 2, label, size=13, fill=text_colour_on(fill), bold=True)


@dataclass(frozen=True)
class TrackBox:
    """One space of a drawn track: its label, background and what stands on it (seat, label) pairs."""

    label: str
    pieces: Sequence[tuple[str, str]] = ()
    fill: str = PAPER


def track_row(canvas: Canvas, boxes: Sequence[TrackBox], *, x: float, y: float, width: float,
              seats: Sequence[str], height: float = 44) -> float:
    """Draw ``boxes`` left to right in ``width`` units, pieces as discs in seat colours.

    A box's label is written at its top; up to four pieces stand in it (with
    more, three stand and the fourth place counts the rest: ``+3``). Returns
    the y under the row.
    """
    if not boxes:
        return y
    w = width / len(boxes)
    r = min(w / 4.6, 7.0)
    for i, box in enumerate(boxes):
        bx = x + i * w
        canvas.rect(bx, y, w, height, fill=box.fill, stroke="#777777", stroke_width=0.8)
        canvas.text(bx + w / 2, y + 7, box.label, size=MIN_TEXT, fill="#555555")
        pieces = list(box.pieces)
        shown = pieces[:4] if len(pieces) <= 4 else pieces[:3]
        for j, (seat, label) in enumerate([*shown, ("", f"+{len(pieces) - 3}")] if len(pieces) > 4 else shown):
            px = bx + w / 2 + (j % 2 - 0.5) * (2 * r + 1) if len(pieces) > 1 else bx + w / 2
            py = y + 21 + (j // 2) * (2 * r + 1)
            if seat:
                token(canvas, px, py, r, fill=seat_colour(seats, seat), label=label)
            else:
                canvas.text(px, py, label, anchor="middle")
    canvas.grow(y + height)
    return y + height


def legend(canvas: Canvas, items: Sequence[tuple[str, str]], *, x: float, y: float,
           width: float = WIDTH - 20) -> float:
    """Write a key of ``(fill, text)`` items in rows under a board; returns the y under it.

    A fill of ``""`` writes the text alone (a note).
    """
    cx, cy = x, y + 8
    for fill, text in items:
        room = 18 + len(text) * 6.2
        if cx > x and cx + room > x + width:
            cx, cy = x, cy + 18
        if fill:
            canvas.rect(cx, cy - 6, 12, 12, fill=fill, stroke=INK, stroke_width=0.8, rx=2)
            canvas.text(cx + 16, cy, text, size=11, anchor="start")
        else:
            canvas.text(cx, cy, text, size=11, anchor="start")
        cx += room + 12
    canvas.grow(cy + 12)
    return cy + 12


def heading(canvas: Canvas, text: str, *, y: float = 14) -> float:
    """Write a bold line across the top of the drawing; returns the y under it."""
    canvas.text(10, y, text, size=14, anchor="start", bold=True)
    canvas.grow(y + 12)
    return y + 12


def own_line(canvas: Canvas, y: float, label: str, cubes: Sequence[str] = ()) -> float:
    """Write one line of a reader's own picture at ``y``: ``label`` in bold, then a cube of each colour
    name in ``cubes`` after it (in rows as long as the width allows) and under them the colours in words
    ("red"; "2 red, 1 blue"), so no cube is a mark the picture leaves unexplained; returns the y of the
    next line."""
    canvas.text(10, y, label, size=12, anchor="start", bold=True)
    left = 10 + len(label) * 6.5 + 12  # about the width of a bold 12-unit letter, and a gap
    per_row = max(1, int((WIDTH - 10 - left) // 18))
    for k, colour in enumerate(cubes):
        cube(canvas, left + (k % per_row) * 18, y - 7 + (k // per_row) * 18, 14, colour)
    rows = max(1, -(-len(cubes) // per_row))
    if cubes:
        canvas.text(left, y + 18 * rows - 2, colour_words(cubes), size=11, anchor="start")
        rows += 1
    canvas.grow(y + 18 * rows - 4)
    return y + 18 * rows + 4


def colour_words(cubes: Sequence[str]) -> str:
    """Return colour names in words, in the order they first come: "red", "blue, green" (one of each),
    "2 red, 1 blue"."""
    counts = {colour: cubes.count(colour) for colour in dict.fromkeys(cubes)}
    if len(counts) == len(cubes):
        return ", ".join(counts)
    return ", ".join(f"{n} {colour}" for colour, n in counts.items())
