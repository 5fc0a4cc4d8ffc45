"""PNG from the SVG a drawing writes: Pillow paints its shapes in order, with a font shipped in pbem.

The SVG stays the source: this reads the text a drawing returned and paints
each element in document order. It reads exactly what
:class:`pbem.core.svg.Canvas` writes (``rect``, ``circle``, ``line``,
``polygon`` and ``text`` with their fill, stroke and font attributes);
anything else is an :class:`UnsupportedSvg` error, which the shared picture
test of every game turns into a failure, so a drawing that writes SVG of its
own is caught at once.

Why this way: it costs a fraction of a general SVG renderer's CPU (a report
with its picture must cost little more than one without). Pictures are
painted at one pixel per SVG unit. Squares, boxes and straight fences are
laid on whole pixels, crisp as a board should be. Discs, polygons, slanted
lines, rounded boxes and letters are pasted from masks with smooth edges
(shapes drawn four times larger and reduced, letters set by FreeType); a
board repeats the same few of them, so each mask is made once per process
and kept. Each element is read once per process too: what it paints (boxes
to fill, sprites and letters to paste, at their pixels) is kept by its
attributes, and a board's grid, labels and legend come back the same turn
after turn. How much of a pixel an edge covers is rounded to
:data:`EDGE_SHADES` steps, so a picture has a few hundred colours. The PNG
is written here: full colour, no filter, deflated by ISA-L (the ``isal``
package, with wheels for every common platform) at a tenth of zlib's CPU for
the same size; a picture with so many colours that it would be too big for
mail is stored in a palette instead. Letters are set in Liberation Sans (SIL
Open Font License), shipped in ``pbem/fonts`` and read from there, never from
the system: a machine with no fonts at all makes the same picture.
"""

from __future__ import annotations

import io
import math
import re
import struct
import threading
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib.resources import files
from typing import Any
from xml.etree import ElementTree

from isal import isal_zlib
from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from pbem.core import PbemError

COLOURS = 96
"""The palette of a picture whose PNG would exceed :data:`MAX_PNG` in full colour."""

FEWER_COLOURS = 16
"""The palette of a picture whose PNG would exceed :data:`MAX_PNG` even with :data:`COLOURS`."""

MAX_PNG = 60_000
"""A picture for mail stays under this many bytes."""

SMOOTH = 4
"""Masks of round and slanted shapes are drawn this many times larger and reduced: smooth edges."""

EDGE_SHADES = 5
"""How much of a pixel a smooth edge or a letter covers is rounded to this many steps (none, a quarter,
half, three quarters, all): smooth to the eye at a board's sizes, and a picture has a few hundred colours
instead of thousands, so its palette holds them closely and it compresses well."""

_COVERAGE = [round(round(v * (EDGE_SHADES - 1) / 255) * 255 / (EDGE_SHADES - 1)) for v in range(256)]

_NS = "{http://www.w3.org/2000/svg}"
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}  # baseline left, middle, right
_FONT_FILES = {False: "LiberationSans-Regular.ttf", True: "LiberationSans-Bold.ttf"}
_MAX_SIDE = 4000

Colour = tuple[int, int, int]
Point = tuple[float, float]


class UnsupportedSvg(PbemError):
    """SVG with an element or attribute the picture renderer does not paint (draw with pbem.core.svg.Canvas)."""


def svg_to_png(svg: str) -> bytes:
    """Return ``svg`` (as :class:`pbem.core.svg.Canvas` writes it) as a PNG of one pixel per SVG unit.

    The same SVG always gives the same bytes. The PNG is in full colour; one
    that would be over :data:`MAX_PNG` bytes gets a palette of
    :data:`COLOURS` colours, or of :data:`FEWER_COLOURS` if that is still too
    big. Raises :class:`UnsupportedSvg` for SVG this renderer does not paint.
    """
    painted = paint(svg)
    png = _encode(painted)
    for colours in (COLOURS, FEWER_COLOURS):
        if len(png) <= MAX_PNG:
            break
        png = _encode(_palette_image(painted, colours))
    return png


def _palette_image(image: Image.Image, colours: int) -> Image.Image:
    """``image`` in a palette of at most ``colours`` colours, chosen from every 4th pixel of every 4th row
    (a board's flat colours and their edges are all there, at a sixteenth of the work), each pixel then
    given the nearest colour of the palette."""
    sample = image.resize((max(1, image.width // 4), max(1, image.height // 4)), Image.Resampling.NEAREST)
    palette = sample.quantize(colours, method=Image.Quantize.FASTOCTREE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _encode(image: Image.Image) -> bytes:
    """``image`` (RGB, or a palette image) as PNG: 8 bits a sample, no filter (a board's flat colours
    compress well without), deflated by ISA-L at its fastest level: several times quicker than zlib,
    and as small. A board in full colour is 5-30 KB. The rows go to the compressor in bands of
    :data:`_BAND` bytes: a whole picture's bytes at once, twice over, cost more in the memory system's
    time (fresh pages for each copy) than the copying itself."""
    width, height = image.size
    palette = image.mode == "P"
    row = width if palette else 3 * width
    rows = max(1, _BAND // (row + 1))
    deflate = isal_zlib.compressobj(1)
    data = []
    for top in range(0, height, rows):
        samples = memoryview(image.crop((0, top, width, min(height, top + rows))).tobytes())
        # each row after a 0: PNG's "no filter" byte
        data.append(deflate.compress(b"\x00" + b"\x00".join([samples[i : i + row] for i in range(0, len(samples), row)])))
    data.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 3 if palette else 2, 0, 0, 0)  # deflate, no interlace
    chunks = [_chunk(b"IHDR", header)]
    if palette:
        chunks.append(_chunk(b"PLTE", bytes(image.getpalette() or [])))
    chunks += [_chunk(b"IDAT", b"".join(data)), _chunk(b"IEND", b"")]
    return _PNG_SIGNATURE + b"".join(chunks)


_BAND = 64 * 1024
"""The rows of a picture go to the compressor this many bytes at a time, at most (and one row at least)."""

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: its length, kind, data and the CRC of kind and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def paint(svg: str) -> Image.Image:
    """Return ``svg`` painted as an RGB image of one pixel per SVG unit."""
    head, elements = _elements(svg)
    image = Image.new("RGB", _size(head), "#ffffff")
    # Pillow's own drawing calls, with the colours and corners worked out beforehand (_compiled): what
    # ImageDraw.rectangle and .bitmap and Image.paste call after reading their arguments, each time.
    canvas, draw = image.im, ImageDraw.Draw(image).draw
    for element in elements:
        for kind, where, what, ink in _compiled(element):
            if kind is _FILL:
                draw.draw_rectangle(where, ink, 1)
            elif kind is _SPRITE:
                canvas.paste(what, where, what)
            elif kind is _LETTERS:
                draw.draw_bitmap(where, what, ink)
            else:  # a frame: ``what`` is its width
                draw.draw_rectangle(where, ink, 0, what)
    return image


_ELEMENT = re.compile(r"<[^<>]*/>|<[^<>]*>[^<>]*</[^<>]*>")
"""One element as Canvas writes it: empty (``<rect .../>``), or with text and no child (``<text ...>A</text>``);
that its end tag is its own is checked when it is read (:func:`_compiled`)."""


def _elements(svg: str) -> tuple[str, list[str]]:
    """The ``<svg ...>`` start tag of ``svg`` and the text of each element in it, in order: the document
    must be that start tag, elements with no children one after the other, and ``</svg>``."""
    start = svg.find(">") + 1
    end = svg.rfind("</svg>")
    if not 0 < start <= end or svg[end:].rstrip() != "</svg>":
        raise UnsupportedSvg("not an <svg> document as pbem.core.svg.Canvas writes it")
    body = svg[start:end]
    elements = _ELEMENT.findall(body)
    if sum(map(len, elements)) != len(body):
        raise UnsupportedSvg("an <svg> with nested elements or text between them: draw with pbem.core.svg.Canvas")
    return svg[:start], elements


_FILL, _FRAME, _SPRITE, _LETTERS = "fill", "frame", "sprite", "letters"

Step = tuple[str, tuple[int, ...], Any, int]
"""One thing an element paints: (kind, where, what, ink): a box to fill or to frame (``what``: the frame's
width) with ``ink`` (Pillow's number for a colour), a sprite (``what``: its core image, its alpha the
coverage) to lay over a box, or letters (``what``: the core image of their mask) to lay at a corner."""

_INK = ImageDraw.Draw(Image.new("RGB", (1, 1))).draw.draw_ink
"""Pillow's number for a colour in an RGB picture."""


class _Picture:
    """What the elements of a picture paint, in order (:data:`Step` s)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def fill(self, box: tuple[int, int, int, int], colour: Colour) -> None:
        """Fill ``box`` (left, top, right, bottom, all inside) with ``colour``."""
        self.steps.append((_FILL, box, None, _INK(colour)))

    def frame(self, box: tuple[int, int, int, int], colour: Colour, width: int) -> None:
        """Draw a frame ``width`` pixels wide inside ``box`` in ``colour``."""
        self.steps.append((_FRAME, box, width, _INK(colour)))

    def sprite(self, sprite: Image.Image, corner: tuple[int, int]) -> None:
        """Lay ``sprite`` (RGBA: its alpha is its coverage) with its corner at ``corner``."""
        left, top = corner
        self.steps.append((_SPRITE, (left, top, left + sprite.width, top + sprite.height), sprite.im, 0))

    def letters(self, corner: tuple[int, int], mask: Image.Image, colour: Colour) -> None:
        """Lay letters (their grey ``mask``) in ``colour`` with the mask's corner at ``corner``."""
        self.steps.append((_LETTERS, corner, mask.im, _INK(colour)))


@lru_cache(maxsize=4096)
def _compiled(text: str) -> tuple[Step, ...]:
    """What one element (its text, as in the SVG) paints, worked out once per process: a board's grid,
    labels and legend come back the same in every picture of it."""
    try:
        element = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise UnsupportedSvg(f"not SVG: {error}") from None
    paint_element = _PAINTERS.get(element.tag)
    if paint_element is None:
        raise UnsupportedSvg(f"<{element.tag}> is not painted: draw with pbem.core.svg.Canvas")
    picture = _Picture()
    paint_element(picture, element)
    return tuple(picture.steps)


@lru_cache(maxsize=64)
def _size(head: str) -> tuple[int, int]:
    """The width and height of an ``<svg ...>`` start tag (whole units, at most :data:`_MAX_SIDE`)."""
    try:
        root = ElementTree.fromstring(head + "</svg>")
    except ElementTree.ParseError as error:
        raise UnsupportedSvg(f"not SVG: {error}") from None
    if root.tag != f"{_NS}svg":
        raise UnsupportedSvg(f"not an <svg> document but <{root.tag}>")
    try:
        width, height = int(root.get("width", "")), int(root.get("height", ""))
    except ValueError:
        raise UnsupportedSvg("an <svg> needs a width and height in whole units") from None
    if not (0 < width <= _MAX_SIDE and 0 < height <= _MAX_SIDE):
        raise UnsupportedSvg(f"an <svg> of {width} x {height} is not a board picture")
    return width, height


# --- attributes ---------------------------------------------------------------------------------


def _number(element: ElementTree.Element, name: str, default: float | None = None) -> float:
    text = element.get(name)
    if text is None:
        if default is None:
            raise UnsupportedSvg(f"<{element.tag.removeprefix(_NS)}> without {name}")
        return default
    try:
        value = float(text)
    except ValueError:
        raise UnsupportedSvg(f"{name}={text!r} is not a number") from None
    if not -_MAX_SIDE <= value <= 2 * _MAX_SIDE:
        raise UnsupportedSvg(f"{name}={text!r} is off the picture")
    return value


def _colour(element: ElementTree.Element, name: str, default: str) -> Colour | None:
    """The colour of attribute ``name`` (None for ``none``)."""
    text = element.get(name, default)
    return None if text == "none" else _parse_colour(text)


@lru_cache(maxsize=256)
def _parse_colour(text: str) -> Colour:
    try:
        red, green, blue = ImageColor.getrgb(text)[:3]
    except ValueError:
        raise UnsupportedSvg(f"{text!r} is not a colour") from None
    return red, green, blue


def _fill(element: ElementTree.Element) -> Colour | None:
    return _colour(element, "fill", "#000000")  # SVG's default fill is black


def _stroke(element: ElementTree.Element) -> tuple[Colour | None, float]:
    """The stroke colour (None: no stroke, SVG's default) and its width."""
    colour = _colour(element, "stroke", "none")
    return colour, _number(element, "stroke-width", 1.0) if colour else 0.0


def _pixel(value: float) -> int:
    """The pixel edge nearest to ``value`` (halves round up, the same way everywhere)."""
    return math.floor(value + 0.5)


@lru_cache(maxsize=256)
def _blend(under: Colour, over: Colour, share: float) -> Colour:
    """``over`` laid on ``under`` with ``share`` (0 to 1) of its strength: how a line thinner than a pixel looks."""
    r, g, b = (round(u + (o - u) * share) for u, o in zip(under, over, strict=True))
    return r, g, b


# --- shapes laid on whole pixels ----------------------------------------------------------------


def _rect(picture: _Picture, element: ElementTree.Element) -> None:
    x, y = _number(element, "x", 0.0), _number(element, "y", 0.0)
    w, h = _number(element, "width"), _number(element, "height")
    fill, (stroke, width) = _fill(element), _stroke(element)
    if element.get("rx") is not None:
        if w > 0 and h > 0:
            _rounded_rect(picture, (x, y, w, h), _number(element, "rx"), fill, stroke, width)
    else:
        _box(picture, (x, y, w, h), fill, stroke, width)


def _box(picture: _Picture, box: tuple[float, float, float, float], fill: Colour | None, stroke: Colour | None,
         width: float) -> None:
    x, y, w, h = box
    if w <= 0 or h <= 0:
        return
    left, top, right, bottom = _pixel(x), _pixel(y), _pixel(x + w), _pixel(y + h)  # right, bottom: past it
    if fill is not None:
        picture.fill((left, top, right - 1, bottom - 1), fill)
    if stroke is not None:
        # On the edges as in SVG: a one-pixel edge on the first column and row and the ones just past the
        # box, so boxes side by side share one line; a stroke thinner than a pixel is a paler pixel.
        pixels = max(1, _pixel(width))
        colour = stroke if width >= 1 else _blend(fill or (255, 255, 255), stroke, width)
        inside, outside = pixels // 2, pixels - 1 - pixels // 2
        picture.frame((left - inside, top - inside, right + outside, bottom + outside), colour, pixels)


def _line(picture: _Picture, element: ElementTree.Element) -> None:
    start = (_number(element, "x1"), _number(element, "y1"))
    end = (_number(element, "x2"), _number(element, "y2"))
    stroke, width = _stroke(element)
    if stroke is None:
        return
    round_ends = element.get("stroke-linecap") == "round"
    if start[0] == end[0] or start[1] == end[1]:  # straight across or down: whole pixels, ends squared
        cap = width / 2 if round_ends else 0.0
        (x1, x2), (y1, y2) = sorted((start[0], end[0])), sorted((start[1], end[1]))
        if x1 == x2:
            x1, x2, y1, y2 = x1 - width / 2, x2 + width / 2, y1 - cap, y2 + cap
        else:
            x1, x2, y1, y2 = x1 - cap, x2 + cap, y1 - width / 2, y2 + width / 2
        right, bottom = max(_pixel(x1) + 1, _pixel(x2)), max(_pixel(y1) + 1, _pixel(y2))
        picture.fill((_pixel(x1), _pixel(y1), right - 1, bottom - 1), stroke)
        return
    _path(picture, [start, end], None, stroke, width, closed=False, round_ends=round_ends)


# --- shapes pasted from smooth masks ------------------------------------------------------------
#
# A round or slanted shape is pasted from two grey masks: its inside (painted in the fill) and its
# edge (painted in the stroke, over the fill, centred on the outline as in SVG). The masks are drawn
# SMOOTH times larger and reduced, keyed by the shape's size and where its corner falls within a
# pixel (to a quarter pixel), so a board's many equal discs, hexes and cubes share them.

Masks = tuple[Image.Image | None, Image.Image | None]


def _circle(picture: _Picture, element: ElementTree.Element) -> None:
    cx, cy, r = _number(element, "cx"), _number(element, "cy"), _number(element, "r")
    fill, (stroke, width) = _fill(element), _stroke(element)
    outer = r + width / 2
    left, top, dx, dy = _corner(cx - outer, cy - outer)
    _paste(picture, left, top, ("disc", dx, dy, r, width), fill, stroke)


def _rounded_rect(picture: _Picture, box: tuple[float, float, float, float], radius: float,
                  fill: Colour | None, stroke: Colour | None, width: float) -> None:
    x, y, w, h = box
    left, top, dx, dy = _corner(x - width / 2, y - width / 2)
    _paste(picture, left, top, ("box", dx, dy, _quarter(w), _quarter(h), _quarter(radius), width), fill, stroke)


def _polygon(picture: _Picture, element: ElementTree.Element) -> None:
    try:
        points = [(float(x), float(y)) for x, y in (pair.split(",") for pair in element.get("points", "").split())]
    except ValueError:
        raise UnsupportedSvg(f"points={element.get('points')!r} are not x,y pairs") from None
    if len(points) < 2:
        return
    fill, (stroke, width) = _fill(element), _stroke(element)
    xs, ys = sorted({x for x, _ in points}), sorted({y for _, y in points})
    upright = all(a[0] == b[0] or a[1] == b[1] for a, b in zip(points, [*points[1:], points[0]], strict=True))
    if len(points) == 4 and len(xs) == 2 and len(ys) == 2 and upright:  # a box after all: on whole pixels
        _box(picture, (xs[0], ys[0], xs[1] - xs[0], ys[1] - ys[0]), fill, stroke, width)
    else:
        _path(picture, points, fill, stroke, width, closed=True, round_ends=False)


def _path(picture: _Picture, points: Sequence[Point], fill: Colour | None, stroke: Colour | None,
          width: float, *, closed: bool, round_ends: bool) -> None:
    """Paste an area through ``points`` (when ``closed``) and the line along them."""
    x0, y0 = min(x for x, _ in points), min(y for _, y in points)
    left, top, dx, dy = _corner(x0 - width / 2, y0 - width / 2)
    relative = tuple((_quarter(x - x0), _quarter(y - y0)) for x, y in points)
    shape = ("path", dx, dy, relative, width, closed, round_ends)
    _paste(picture, left, top, shape, fill if closed else None, stroke)


def _corner(x: float, y: float) -> tuple[int, int, float, float]:
    """The pixel a shape's corner falls in, and how far into it (to a quarter pixel)."""
    left, top = math.floor(x), math.floor(y)
    return left, top, _quarter(x - left), _quarter(y - top)


def _quarter(value: float) -> float:
    return round(value * 4) / 4


Shape = tuple[object, ...]
"""A shape pasted from masks: ("disc", ...), ("box", ...) or ("path", ...) and the arguments of its masks."""


def _paste(picture: _Picture, left: int, top: int, shape: Shape, fill: Colour | None,
           stroke: Colour | None) -> None:
    core, parts = _parts(shape, fill, stroke)
    if core is not None and fill is not None:
        x0, y0, x1, y1 = core
        picture.fill((left - 1 + x0, top - 1 + y0, left - 2 + x1, top - 2 + y1), fill)
    for dx, dy, part in parts:
        picture.sprite(part, (left - 1 + dx, top - 1 + dy))


SOLID_CORE = 400
"""A sprite whose inside holds a box of at least this many pixels of solid fill is laid as that box,
filled, and the sprite's parts around it: blending a pixel costs several times filling one."""


@lru_cache(maxsize=512)
def _parts(shape: Shape, fill: Colour | None,
           stroke: Colour | None) -> tuple[tuple[int, int, int, int] | None, tuple[tuple[int, int, Image.Image], ...]]:
    """The sprite of ``shape`` as laid: the box of its solid fill (left, top, right, bottom past it, from
    the sprite's corner; None when it has none worth filling apart) and the parts to paste around it,
    each with its place in the sprite."""
    sprite = _sprite(shape, fill, stroke)
    if sprite is None:
        return None, ()
    width, height = sprite.size
    core = _solid_core(shape, fill, stroke) if fill is not None else None
    if core is None:
        around = [(0, 0, width, height)]
    else:
        x0, y0, x1, y1 = core
        around = [(0, 0, width, y0), (0, y1, width, height), (0, y0, x0, y1), (x1, y0, width, y1)]
    return core, tuple(part for box in around if box[2] > box[0] and box[3] > box[1] for part in _trimmed(sprite, box))


TRIM_ROWS = 8
"""A large sprite is pasted in bands of this many rows, each cut to what it covers: a slanted line's
sprite is a big square that it crosses thinly."""


def _trimmed(sprite: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, Image.Image]]:
    """The part ``box`` of ``sprite`` as pieces to paste, each with its place in the sprite: itself when
    small, else a band of :data:`TRIM_ROWS` rows at a time cut to the pixels it covers (none when empty)."""
    left, top, right, bottom = box
    if (right - left) * (bottom - top) <= 1024:
        return [(left, top, sprite.crop(box))]
    pieces = []
    for band in range(top, bottom, TRIM_ROWS):
        piece = sprite.crop((left, band, right, min(bottom, band + TRIM_ROWS)))
        covered = piece.getchannel("A").getbbox()
        if covered is not None:
            pieces.append((left + covered[0], band + covered[1], piece.crop(covered)))
    return pieces


def _solid_core(shape: Shape, fill: Colour | None, stroke: Colour | None) -> tuple[int, int, int, int] | None:
    """The largest box about the middle of the shape's sprite whose every pixel is its fill alone (fully
    inside, no edge on it), found row by row outward from the middle row (the shapes are convex)."""
    kind, *arguments = shape
    inside, edge = _MASKS[str(kind)](*arguments)
    solid = inside.point(_FULL)
    if edge is not None and stroke is not None:
        solid = ImageChops.subtract(solid, edge.point(_ANY))
    width, height = solid.size
    pixels = solid.tobytes()

    def span(row: int) -> tuple[int, int]:
        line = pixels[row * width : (row + 1) * width]
        first, last = line.find(255), line.rfind(255) + 1
        return (first, last) if first >= 0 and line.count(255, first, last) == last - first else (0, 0)

    middle = height // 2
    left, right = span(middle)
    best, top, bottom = None, middle, middle + 1
    while right - left > 0:
        area = (right - left) * (bottom - top)
        if best is None or area > (best[2] - best[0]) * (best[3] - best[1]):
            best = (left, top, right, bottom)
        if top == 0 or bottom == height:
            break
        (a, b), (c, d) = span(top - 1), span(bottom)
        left, right, top, bottom = max(left, a, c), min(right, b, d), top - 1, bottom + 1
    if best is None or (best[2] - best[0]) * (best[3] - best[1]) < SOLID_CORE:
        return None
    return best


_FULL = [255 if v == 255 else 0 for v in range(256)]
_ANY = [255 if v else 0 for v in range(256)]


@lru_cache(maxsize=512)
def _sprite(shape: Shape, fill: Colour | None, stroke: Colour | None) -> Image.Image | None:
    """The shape in its colours, ready to lay over the picture in one paste: the inside in ``fill``, the
    edge in ``stroke`` over it, and their coverage as its alpha (None: nothing to paint)."""
    kind, *arguments = shape
    inside, edge = _MASKS[str(kind)](*arguments)
    painted_inside = inside if fill is not None else None
    painted_edge = edge if stroke is not None else None
    some = painted_inside or painted_edge
    if some is None:
        return None
    sprite = Image.new("RGBA", some.size, (*(fill or stroke or (0, 0, 0)), 0))
    if painted_inside is not None:
        sprite.putalpha(painted_inside)
    if painted_edge is not None and stroke is not None:
        sprite.paste((*stroke, 255), (0, 0), painted_edge)
    return sprite


Painter = Callable[[ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]]], None]


def _smooth(dx: float, dy: float, size: Point, how: Painter) -> Image.Image:
    """A grey mask of a shape of ``size`` whose corner lies ``dx``, ``dy`` into its first pixel, with a
    pixel of margin all round: ``how`` draws it at SMOOTH times the size through the position function
    it is given (shape units from the corner to mask pixels), then it is reduced."""
    columns, rows = math.ceil(dx + size[0]) + 2, math.ceil(dy + size[1]) + 2
    big = Image.new("L", (columns * SMOOTH, rows * SMOOTH), 0)
    how(ImageDraw.Draw(big), lambda x, y: ((1 + dx + x) * SMOOTH, (1 + dy + y) * SMOOTH))
    return big.reduce(SMOOTH).point(_COVERAGE)


@lru_cache(maxsize=256)
def _disc_masks(dx: float, dy: float, r: float, width: float) -> Masks:
    """A disc of radius ``r``; its edge ``width`` wide (none for 0) is centred on the circle."""
    outer = r + width / 2

    def disc(radius: float) -> Painter:
        return lambda canvas, at: canvas.ellipse((*at(outer - radius, outer - radius),
                                                  *at(outer + radius, outer + radius)), fill=255)

    size = (2 * outer, 2 * outer)
    inside = _smooth(dx, dy, size, disc(r))
    if not width:
        return inside, None
    edge = _smooth(dx, dy, size, disc(outer))
    if r > width / 2:
        edge = ImageChops.subtract(edge, _smooth(dx, dy, size, disc(r - width / 2)))
    return inside, edge


@lru_cache(maxsize=256)
def _box_masks(dx: float, dy: float, w: float, h: float, radius: float, width: float) -> Masks:
    """A ``w`` x ``h`` box with corners rounded to ``radius``; its edge ``width`` wide is centred on the outline."""
    half = width / 2

    def box(grow: float) -> Painter:
        return lambda canvas, at: canvas.rounded_rectangle(
            (*at(half - grow, half - grow), *at(half + w + grow, half + h + grow)),
            radius=max(0.0, radius + grow) * SMOOTH, fill=255)

    size = (w + width, h + width)
    inside = _smooth(dx, dy, size, box(0.0))
    if not width:
        return inside, None
    edge = _smooth(dx, dy, size, box(half))
    if w > width and h > width:
        edge = ImageChops.subtract(edge, _smooth(dx, dy, size, box(-half)))
    return inside, edge


@lru_cache(maxsize=256)
def _path_masks(dx: float, dy: float, points: tuple[Point, ...], width: float, closed: bool,
                round_ends: bool) -> Masks:
    """The area within ``points`` (when ``closed``) and the line along them, ``width`` wide with round
    joins (and round ends when asked)."""
    half = width / 2
    size = (max(x for x, _ in points) + width, max(y for _, y in points) + width)

    def area(canvas: ImageDraw.ImageDraw, at: Callable[[float, float], tuple[float, float]]) -> None:
        canvas.polygon([at(x + half, y + half) for x, y in points], fill=255)

    def line(canvas: ImageDraw.ImageDraw, at: Callable[[float, float], tuple[float, float]]) -> None:
        drawn = [at(x + half, y + half) for x, y in ((*points, points[0]) if closed else points)]
        canvas.line(drawn, fill=255, width=max(1, round(width * SMOOTH)), joint="curve")
        if round_ends:
            r = width * SMOOTH / 2
            for x, y in (drawn[0], drawn[-1]):
                canvas.ellipse((x - r, y - r, x + r, y + r), fill=255)

    return (_smooth(dx, dy, size, area) if closed else None), (_smooth(dx, dy, size, line) if width else None)


_MASKS: dict[str, Callable[..., Masks]] = {"disc": _disc_masks, "box": _box_masks, "path": _path_masks}


# --- letters --------------------------------------------------------------------------------------


def _text(picture: _Picture, element: ElementTree.Element) -> None:
    text = element.text or ""
    fill = _fill(element)
    if not text or fill is None:
        return
    anchor = _ANCHORS.get(element.get("text-anchor", "start"))
    if anchor is None:
        raise UnsupportedSvg(f"text-anchor={element.get('text-anchor')!r}")
    size = _number(element, "font-size", 16.0)
    if not 1 <= size <= 200:
        raise UnsupportedSvg(f"font-size={size} is not a board's")
    mask, left, top = _label(text, size, element.get("font-weight") == "bold", anchor)
    picture.letters((_pixel(_number(element, "x")) + left, _pixel(_number(element, "y")) + top), mask, fill)


@lru_cache(maxsize=2048)
def _label(text: str, size: float, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` set in the shipped font as a grey mask, and where its corner lies from the anchor point."""
    with _FREETYPE:
        font = _font(size, bold)
        left, top, right, bottom = font.getbbox(text, anchor=anchor)
        mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return mask.point(_COVERAGE), int(left), int(top)


_FREETYPE = threading.Lock()
"""A FreeType face is not safe to use from two threads at once; letters are set once each, so this costs nothing."""


@lru_cache(maxsize=64)
def _font(size: float, bold: bool) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels (never a system font: the same letters on every machine)."""
    return ImageFont.truetype(io.BytesIO(_font_data(bold)), size, layout_engine=ImageFont.Layout.BASIC)


def preload_fonts() -> None:
    """Read the shipped fonts now (they are kept): drawing later reads no file."""
    for bold in (False, True):
        _font_data(bold)


@lru_cache(maxsize=2)
def _font_data(bold: bool) -> bytes:
    return files("pbem").joinpath("fonts", _FONT_FILES[bold]).read_bytes()


def _ignore(picture: _Picture, element: ElementTree.Element) -> None:
    """Elements that are not painted: the title is the picture's alt text."""


_PAINTERS: dict[str, Callable[[_Picture, ElementTree.Element], None]] = {
    "title": _ignore, "rect": _rect, "circle": _circle, "line": _line, "polygon": _polygon, "text": _text,
}
