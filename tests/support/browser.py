"""A real browser for tests of what a person looks at: headless Chromium (Debian's ``chromium``).

:func:`render` opens an HTML page at a window width, takes a screenshot and measures the page
from inside the browser: how wide the laid-out page is (``scrollWidth``) against the window,
and the text the page shows. Tests skip with the reason when no chromium is installed.
"""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

_MEASURE = """<script>
document.body.setAttribute("data-measure", [document.documentElement.scrollWidth, window.innerWidth,
  document.body.scrollWidth].join(" "));
document.body.setAttribute("data-text", document.body.innerText);
</script>"""


@dataclass(frozen=True)
class Rendering:
    """What the browser made of a page at one width."""

    width: int  # the window's width
    screenshot_size: tuple[int, int]  # width and height of the PNG
    screenshot_bytes: int
    scroll_width: int  # the laid-out page's width (wider than the window = horizontal scrolling)
    inner_width: int
    text: str  # the text the page shows (innerText)


def chromium() -> str:
    """The chromium binary; skips the test, saying why, when there is none."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("chromium is not installed (Debian: apt-get install -y chromium); .ci/run installs it")
    return found


def _run(page: Path, width: int, *args: str) -> str:
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--disable-dev-shm-usage", f"--window-size={width},900", *args, page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def render(page_html: str, width: int, folder: Path) -> Rendering:
    """Render ``page_html`` in a ``width`` px wide window: a screenshot, and the page's measures."""
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / f"page-{width}.html"
    page.write_text(page_html, encoding="utf-8")
    shot = folder / f"page-{width}.png"
    _run(page, width, f"--screenshot={shot}")
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG"
    size = struct.unpack(">II", png[16:24])
    measured = folder / f"measured-{width}.html"
    measured.write_text(page_html.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    dom = _run(measured, width, "--dump-dom")
    found = re.search(r'data-measure="(\d+) (\d+) (\d+)"', dom)
    text = re.search(r'data-text="([^"]*)"', dom)
    assert found is not None and text is not None, "the page was laid out and measured"
    return Rendering(width, size, len(png), int(found[1]), int(found[2]), html.unescape(text[1]))
