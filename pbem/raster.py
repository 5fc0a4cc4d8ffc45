"""PNG from the SVG a drawing writes: Pillow paints its shapes in order, with a font shipped in pbem.

The SVG stays the source: this reads the text a drawing returned and paints
each element in document order. It reads exactly what
:class:`pbem.core.svg.Canvas` writes (``rect``, ``circle``, ``line``,
``polygon`` and ``text`` with their fill, stroke and font attributes);
anything else is an :class:`UnsupportedSvg` error, which the shared picture
test of every game turns into a failure, so a drawing that writes SVG of its
own is caught at once.

Why this way: it costs a fraction of a general SVG renderer's CPU (a report
with its picture must cost at most twice one without). The picture is
painted at :data:`SCALE` times its size and reduced, which smooths the
edges; then reduced to a palette of at most :data:`COLOURS` colours, which
makes the PNG several times smaller and quicker to compress than full
colour. Text is set in Liberation Sans (SIL Open Font License), shipped in
``pbem/fonts``, so a machine with no fonts at all makes the same picture;
the text of each label is drawn once per process and kept.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache
from importlib.resources import files
from xml.etree import ElementTree

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from pbem.core import PbemError

SCALE = 2
"""Pictures are painted at this many pixels per SVG unit, then reduced to one: smooth edges."""

COLOURS = 96
"""At most this many colours in a picture's palette (a board has a few flat colours and their edges)."""

FEWER_COLOURS = 16
"""The palette of a picture whose PNG would exceed :data:`MAX_PNG` with :data:`COLOURS`."""

MAX_PNG = 60_000
"""A picture for mail stays under this many bytes."""

_NS = "{http://www.w3.org/2000/svg}"
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}  # baseline left, middle, right
_FONT_FILES = {False: "LiberationSans-Regular.ttf", True: "LiberationSans-Bold.ttf"}


class UnsupportedSvg(PbemError):
    """SVG with an element or attribute the picture renderer does not paint (draw with pbem.core.svg.Canvas)."""


def svg_to_png(svg: str) -> bytes:
    """Return ``svg`` (as :class:`pbem.core.svg.Canvas` writes it) as a PNG of one pixel per SVG unit.

    The same SVG always gives the same bytes. The PNG is under :data:`MAX_PNG`
    bytes for any drawing of a board (its palette shrinks when it would not be).
    Raises :class:`UnsupportedSvg` for SVG this renderer does not paint.
    """
    painted = paint(svg)
    png = _encode(_palette_image(painted, COLOURS))
    if len(png) > MAX_PNG:
        png = _encode(_palette_image(painted, FEWER_COLOURS))
    return png


def _palette_image(image: Image.Image, colours: int) -> Image.Image:
    """``image`` in a palette of at most ``colours`` colours, chosen from every 4th pixel of every 4th row
    (a board's flat colours and their edges are all there, at a sixteenth of the work), each pixel then
    given the nearest colour of the palette."""
    sample = image.resize((max(1, image.width // 4), max(1, image.height // 4)), Image.Resampling.NEAREST)
    palette = sample.quantize(colours, method=Image.Quantize.FASTOCTREE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def paint(svg: str) -> Image.Image:
    """Return ``svg`` painted as an RGB image of one pixel per SVG unit (edges smoothed)."""
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as error:
        raise UnsupportedSvg(f"not SVG: {error}") from None
    if root.tag != f"{_NS}svg":
        raise UnsupportedSvg(f"not an <svg> document but <{root.tag}>")
    width, height = _size(root)
    image = Image.new("RGB", (width * SCALE, height * SCALE), "#ffffff")
    draw = ImageDraw.Draw(image)
    for element in root:
        tag = element.tag.removeprefix(_NS)
        paint_element = _PAINTERS.get(tag)
        if paint_element is None:
            raise UnsupportedSvg(f"<{tag}> is not painted: draw with pbem.core.svg.Canvas")
        paint_element(draw, element)
    return image.reduce(SCALE) if SCALE > 1 else image


def _encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=3)
    return out.getvalue()


def _size(root: ElementTree.Element) -> tuple[int, int]:
    try:
        width, height = int(root.get("width", "")), int(root.get("height", ""))
    except ValueError:
        raise UnsupportedSvg("an <svg> needs a width and height in whole units") from None
    if not (0 < width <= 4000 and 0 < height <= 4000):
        raise UnsupportedSvg(f"an <svg> of {width} x {height} is not a board picture")
    return width, height


def _number(element: ElementTree.Element, name: str, default: float | None = None) -> float:
    text = element.get(name)
    if text is None:
        if default is None:
            raise UnsupportedSvg(f"<{element.tag.removeprefix(_NS)}> without {name}")
        return default
    try:
        return float(text)
    except ValueError:
        raise UnsupportedSvg(f"{name}={text!r} is not a number") from None


def _scaled(element: ElementTree.Element, name: str, default: float | None = None) -> float:
    return _number(element, name, default) * SCALE


def _colour(element: ElementTree.Element, name: str, default: str) -> tuple[int, int, int] | None:
    """The colour of attribute ``name`` (None for ``none``)."""
    text = element.get(name, default)
    return None if text == "none" else _parse_colour(text)


@lru_cache(maxsize=256)
def _parse_colour(text: str) -> tuple[int, int, int]:
    try:
        return ImageColor.getrgb(text)[:3]  # type: ignore[return-value]
    except ValueError:
        raise UnsupportedSvg(f"{text!r} is not a colour") from None


def _stroke(element: ElementTree.Element) -> tuple[tuple[int, int, int] | None, int]:
    """The stroke colour (None: no stroke, as SVG's default) and its width in pixels (at least one)."""
    colour = _colour(element, "stroke", "none")
    return colour, max(1, round(_scaled(element, "stroke-width", 1.0))) if colour else 0


def _rect(draw: ImageDraw.ImageDraw, element: ElementTree.Element) -> None:
    x, y = _scaled(element, "x", 0.0), _scaled(element, "y", 0.0)
    w, h = _scaled(element, "width"), _scaled(element, "height")
    radius = _scaled(element, "rx", 0.0)
    fill, (stroke, width) = _colour(element, "fill", "#000000"), _stroke(element)
    half = width / 2  # an SVG stroke is centred on the edge; Pillow's lies inside the box it is given
    box = (x - half, y - half, x + w + half - 1, y + h + half - 1)
    if radius:
        left, top = round(box[0]), round(box[1])
        ring, inside = _rounded(round(box[2]) - left + 1, round(box[3]) - top + 1, round(radius + half), width)
        if stroke is not None:
            draw.bitmap((left, top), ring, fill=stroke)
        if fill is not None:
            draw.bitmap((left, top), inside, fill=fill)
    else:
        draw.rectangle(box, fill=fill, outline=stroke, width=width)


@lru_cache(maxsize=256)
def _rounded(width: int, height: int, radius: int, stroke: int) -> tuple[Image.Image, Image.Image]:
    """Masks of a rounded box: its edge ``stroke`` pixels wide and the inside within it. Boards repeat the
    same few boxes (cubes, keys), so each is drawn once."""
    outer = Image.new("L", (max(1, width), max(1, height)), 0)
    ImageDraw.Draw(outer).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    inner = Image.new("L", outer.size, 0)
    if width > 2 * stroke and height > 2 * stroke:
        ImageDraw.Draw(inner).rounded_rectangle((stroke, stroke, width - 1 - stroke, height - 1 - stroke),
                                                radius=max(0, radius - stroke), fill=255)
    return ImageChops.subtract(outer, inner), inner


def _circle(draw: ImageDraw.ImageDraw, element: ElementTree.Element) -> None:
    cx, cy, r = _scaled(element, "cx"), _scaled(element, "cy"), _scaled(element, "r")
    fill, (stroke, width) = _colour(element, "fill", "#000000"), _stroke(element)
    r += width / 2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=stroke, width=width)


def _line(draw: ImageDraw.ImageDraw, element: ElementTree.Element) -> None:
    ends = [(_scaled(element, "x1"), _scaled(element, "y1")), (_scaled(element, "x2"), _scaled(element, "y2"))]
    stroke, width = _stroke(element)
    if stroke is None:
        return
    draw.line(ends, fill=stroke, width=width)
    if element.get("stroke-linecap") == "round" and width > 2:
        r = width / 2
        for x, y in ends:
            draw.ellipse((x - r, y - r, x + r - 1, y + r - 1), fill=stroke)


def _polygon(draw: ImageDraw.ImageDraw, element: ElementTree.Element) -> None:
    try:
        points = [(float(x) * SCALE, float(y) * SCALE)
                  for x, y in (pair.split(",") for pair in element.get("points", "").split())]
    except ValueError:
        raise UnsupportedSvg(f"points={element.get('points')!r} are not x,y pairs") from None
    fill, (stroke, width) = _colour(element, "fill", "#000000"), _stroke(element)
    if fill is not None:
        draw.polygon(points, fill=fill)
    if stroke is not None:  # centred on the edges, as in SVG (Pillow's own wide outline lies inside)
        draw.line([*points, points[0]], fill=stroke, width=width, joint="curve")


def _text(draw: ImageDraw.ImageDraw, element: ElementTree.Element) -> None:
    text = element.text or ""
    fill = _colour(element, "fill", "#000000")
    if not text or fill is None:
        return
    anchor = _ANCHORS.get(element.get("text-anchor", "start"))
    if anchor is None:
        raise UnsupportedSvg(f"text-anchor={element.get('text-anchor')!r}")
    size = _scaled(element, "font-size", 16.0)
    mask, left, top = _label(text, size, element.get("font-weight") == "bold", anchor)
    draw.bitmap((round(_scaled(element, "x")) + left, round(_scaled(element, "y")) + top), mask, fill=fill)


@lru_cache(maxsize=4096)
def _label(text: str, size: float, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` set in the shipped font as a grey mask, and where its corner lies from the anchor point."""
    font = _font(size, bold)
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return mask, int(left), int(top)


@lru_cache(maxsize=64)
def _font(size: float, bold: bool) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels (never a system font: the same letters on every machine)."""
    return ImageFont.truetype(io.BytesIO(_font_data(bold)), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=2)
def _font_data(bold: bool) -> bytes:
    return files("pbem").joinpath("fonts", _FONT_FILES[bold]).read_bytes()


def _ignore(draw: ImageDraw.ImageDraw, element: ElementTree.Element) -> None:
    """Elements that are not painted: the title is the picture's alt text."""


_PAINTERS: dict[str, Callable[[ImageDraw.ImageDraw, ElementTree.Element], None]] = {
    "title": _ignore, "rect": _rect, "circle": _circle, "line": _line, "polygon": _polygon, "text": _text,
}
