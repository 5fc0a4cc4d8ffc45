"""The PNG renderer of pictures: letters from the shipped font on a machine without fonts, what it
refuses, and the size guard for mail."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from png_check import decode_png

from pbem.core.svg import Canvas
from pbem.raster import COLOURS, FEWER_COLOURS, MAX_PNG, UnsupportedSvg, _parts, _sprite, paint, svg_to_png

# Run in a fresh interpreter whose font lookup points at an empty folder (fontconfig's file and
# path, XDG data dirs, HOME): it records every font file opened and prints how many dark pixels
# the letters "WM" make, set large on white, against the same picture without its text.
_WITHOUT_SYSTEM_FONTS = r"""
import io, json, sys
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and
                 str(args[0]).lower().endswith((".ttf", ".otf", ".ttc", ".pfb", ".woff", ".woff2")) else None)
from PIL import Image
from pbem.core.svg import Canvas
from pbem.raster import svg_to_png

def dark_pixels(with_text):
    canvas = Canvas(title="letters", width=200, height=80)
    canvas.rect(10, 10, 20, 20, fill="#1f77b4")
    if with_text:
        canvas.text(120, 40, "WM", size=48, bold=True)
    image = Image.open(io.BytesIO(svg_to_png(canvas.svg()))).convert("L")
    return sum(1 for value in image.crop((60, 0, 200, 80)).getdata() if value < 100)

print(json.dumps({"with": dark_pixels(True), "without": dark_pixels(False), "opened": opened}))
"""


def test_a_png_has_its_letters_on_a_machine_without_any_font(tmp_path: Path) -> None:
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    config = tmp_path / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?><fontconfig><dir>{empty}</dir><cachedir>{empty}</cachedir></fontconfig>')
    env = {**os.environ, "FONTCONFIG_FILE": str(config), "FONTCONFIG_PATH": str(empty), "HOME": str(empty),
           "XDG_DATA_HOME": str(empty), "XDG_DATA_DIRS": str(empty), "XDG_CONFIG_HOME": str(empty)}
    done = subprocess.run([sys.executable, "-c", _WITHOUT_SYSTEM_FONTS], env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    found = json.loads(done.stdout)
    assert found["without"] == 0
    assert found["with"] > 500, "the letters are drawn"
    fonts_folder = str(Path(__file__).parent.parent / "pbem" / "fonts")
    assert found["opened"] and all(path.startswith(fonts_folder) for path in found["opened"]), found["opened"]


def test_the_same_svg_gives_the_same_png() -> None:
    canvas = Canvas(title="board")
    canvas.circle(100, 50, 20, fill="#d62728")
    canvas.text(100, 50, "A", size=14, bold=True, fill="#ffffff")
    canvas.line(10, 90, 300, 95, width=4)
    canvas.polygon([(400, 10), (450, 80), (350, 80)], fill="#2ca02c")
    canvas.rect(20, 20, 30, 30, fill="#f2d024", rx=3)
    canvas.grow(100)
    svg = canvas.svg()
    png = svg_to_png(svg)
    assert png == svg_to_png(svg)
    assert decode_png(png) == (560, 100)


@pytest.mark.parametrize("svg", [
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M0 0L5 5"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g><rect width="1" height="1"/></g></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">x<rect width="1" height="1"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="1">a</title></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="1" height="1"/><!-- --></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="x" height="1"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="1" height="1" fill="nocolour"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="99999" height="10"></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    '<html/>',
    'not xml',
])
def test_svg_a_canvas_does_not_write_is_refused(svg: str) -> None:
    with pytest.raises(UnsupportedSvg):
        svg_to_png(svg)


def test_a_picture_too_big_for_mail_gets_a_smaller_palette() -> None:
    rng = random.Random(5)
    canvas = Canvas(title="confetti", height=1200)
    for _ in range(2500):
        colour = f"#{rng.randrange(1 << 24):06x}"
        canvas.circle(rng.uniform(0, 560), rng.uniform(0, 1200), rng.uniform(2, 9), fill=colour, stroke=None)
    svg = canvas.svg()
    with_all_colours = io.BytesIO()
    paint(svg).quantize(COLOURS, method=Image.Quantize.FASTOCTREE).save(with_all_colours, "PNG", compress_level=3)
    assert len(with_all_colours.getvalue()) > MAX_PNG  # the case the guard is for
    png = svg_to_png(svg)
    assert len(png) < len(with_all_colours.getvalue())
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and len(image.getpalette() or []) // 3 <= FEWER_COLOURS
    assert decode_png(png) == (560, 1200)


def test_shapes_land_where_the_svg_puts_them_in_their_colours() -> None:
    canvas = Canvas(title="shapes", width=300, height=120)
    canvas.rect(10, 10, 40, 40, fill="#2ca02c", stroke="#222222", stroke_width=2)
    canvas.circle(100, 30, 20, fill="#d62728", stroke="#222222", stroke_width=2)
    canvas.polygon([(150, 50), (190, 50), (170, 10)], fill="#1f77b4", stroke=None)
    canvas.line(210, 10, 290, 90, stroke="#222222", width=3)
    canvas.rect(20, 70, 30, 30, fill="#f2d024", stroke="#222222", stroke_width=2, rx=6)
    canvas.text(120, 95, "W", size=30, bold=True)
    image = Image.open(io.BytesIO(svg_to_png(canvas.svg()))).convert("RGB")

    def near(x: int, y: int, colour: str) -> bool:
        want = Image.new("RGB", (1, 1), colour).getpixel((0, 0))
        got = image.getpixel((x, y))
        return all(abs(a - b) <= 24 for a, b in zip(got, want, strict=True))  # type: ignore[arg-type]

    assert near(30, 30, "#2ca02c") and near(10, 30, "#222222") and near(7, 30, "#ffffff")  # box, its edge, outside
    assert near(100, 30, "#d62728") and near(100, 10, "#222222") and near(100, 6, "#ffffff")  # disc and ring
    assert near(170, 40, "#1f77b4") and near(152, 15, "#ffffff")  # triangle, and beside its slope
    assert near(250, 50, "#222222") and near(270, 30, "#ffffff")  # the slanted line, and off it
    assert near(35, 85, "#f2d024") and near(20, 70, "#ffffff") and near(35, 70, "#222222")  # the rounded box, and its cut corner
    assert sum(1 for x in range(100, 140) for y in range(70, 100) if near(x, y, "#222222")) > 60  # the letter


def test_a_png_holds_exactly_the_painted_pixels() -> None:
    canvas = Canvas(title="board", height=90)
    canvas.circle(100, 50, 20, fill="#d62728")
    canvas.text(200, 50, "Turn 3", size=14, bold=True)
    canvas.polygon([(400, 10), (450, 80), (350, 80)], fill="#2ca02c")
    painted = paint(canvas.svg())
    decoded = Image.open(io.BytesIO(svg_to_png(canvas.svg())))
    assert decoded.mode == "RGB" and decoded.tobytes() == painted.tobytes()


@pytest.mark.parametrize(("shape", "fill", "stroke"), [
    (("path", 0.25, 0.5, ((40.0, 0.0), (80.0, 23.0), (80.0, 69.0), (40.0, 92.0), (0.0, 69.0), (0.0, 23.0)), 1.0,
      True, False), (243, 234, 215), (138, 122, 90)),  # a hex of a hex board
    (("disc", 0.5, 0.25, 16.5, 1.0), (31, 119, 180), (34, 34, 34)),  # a token
    (("box", 0.0, 0.0, 130.0, 58.0, 6.0, 1.0), (217, 200, 160), (138, 122, 90)),  # a card
    (("path", 0.0, 0.0, ((0.0, 0.0), (170.0, 170.0)), 1.0, False, True), None, (138, 122, 90)),  # a slanted line
])
def test_a_sprite_laid_in_parts_paints_what_it_paints_whole(shape: tuple[object, ...], fill: tuple[int, int, int] | None,
                                                           stroke: tuple[int, int, int]) -> None:
    """A sprite is laid as a filled box of its solid inside and its parts around it, each cut to what
    it covers: the same pixels as pasting it whole, on any background."""
    sprite = _sprite(shape, fill, stroke)
    assert sprite is not None
    core, parts = _parts(shape, fill, stroke)
    whole = Image.new("RGB", (sprite.width + 4, sprite.height + 4), (250, 240, 200))
    laid = whole.copy()
    whole.paste(sprite, (2, 2), sprite)
    if core is not None and fill is not None:
        laid.paste(fill, (core[0] + 2, core[1] + 2, core[2] + 2, core[3] + 2))
    for dx, dy, part in parts:
        laid.paste(part, (dx + 2, dy + 2), part)
    assert laid.tobytes() == whole.tobytes()
    assert (core is not None) == (fill is not None)  # a filled shape's solid inside is filled, not blended
    pasted = sum(part.width * part.height for _, _, part in parts)
    assert pasted < sprite.width * sprite.height * (0.7 if core is not None else 0.1)  # blending less
