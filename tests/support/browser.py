"""A real browser for tests of what a person looks at: headless chromium over the DevTools protocol.

Debian's ``chromium`` package is used as it is (``.ci/run`` installs it);
tests that need it skip with the reason when it is not installed. The
protocol is spoken over a websocket with aiohttp's client: no driver or
browser download is needed. :class:`Browser` drives one page;
:func:`render` looks at one HTML page at a window width (a screenshot, how
wide the laid-out page is and the text it shows).
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import struct
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from phone_checks import layout_problems

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
START_SECONDS = 30.0
STEP_SECONDS = 30.0
WINDOW = (800, 1000)


def chromium_path() -> str | None:
    """Return the path of an installed chromium, or None."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    """Return chromium's path, or skip the test saying how to get it."""
    path = chromium_path()
    if path is None:
        pytest.skip("browser tests need Debian's chromium: apt-get install -y chromium (.ci/run does it)")
    return path


class Browser:
    """One headless chromium with one page in a window of ``size`` pixels; use as
    ``async with Browser(tmp_path) as page``."""

    def __init__(self, profile: Path, size: tuple[int, int] = WINDOW) -> None:
        self.profile = profile
        self.size = size
        self._process: subprocess.Popen[bytes] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._next_id = 0
        self._events: list[dict[str, Any]] = []

    async def __aenter__(self) -> Browser:
        binary = require_chromium()
        self.profile.mkdir(parents=True, exist_ok=True)
        self._process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
             "--hide-scrollbars", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", f"--window-size={self.size[0]},{self.size[1]}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + START_SECONDS
        while not port_file.is_file() or not port_file.read_text().strip():
            if self._process.poll() is not None or time.monotonic() > deadline:
                await self.__aexit__()
                raise RuntimeError("chromium did not start")
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json(content_type=None)
        page = next(t for t in targets if t["type"] == "page")
        self._ws = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=64 * 2**20)
        await self.call("Page.enable")
        await self.call("Runtime.enable")
        await self.resize(*self.size)
        return self

    async def resize(self, width: int, height: int) -> None:
        """Lay the page out in a window of ``width`` x ``height`` px from now on (screenshots too)."""
        # The page's width is the one asked for: headless chromium keeps a window at least 500 px wide.
        self.size = (width, height)
        await self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                        deviceScaleFactor=1, mobile=False)

    async def __aexit__(self, *_: object) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._session is not None:
            await self._session.close()
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result; raises RuntimeError on a protocol error."""
        assert self._ws is not None
        self._next_id += 1
        ident = self._next_id
        await self._ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        async with asyncio.timeout(STEP_SECONDS):
            while True:
                message = json.loads((await self._ws.receive()).data)
                if message.get("id") == ident:
                    if "error" in message:
                        raise RuntimeError(f"{method}: {message['error']}")
                    return message.get("result", {})
                self._events.append(message)

    async def open(self, url: str) -> int:
        """Load ``url`` and wait for its load event and its images; return the HTTP status (0 for files)."""
        self._events.clear()
        await self.call("Network.enable")
        await self.call("Page.navigate", url=url)
        async with asyncio.timeout(STEP_SECONDS):
            while not any(e.get("method") == "Page.loadEventFired" for e in self._events):
                assert self._ws is not None
                self._events.append(json.loads((await self._ws.receive()).data))
        await self.images_decoded()
        statuses = [e["params"]["response"]["status"] for e in self._events
                    if e.get("method") == "Network.responseReceived" and e["params"].get("type") == "Document"]
        return int(statuses[-1]) if statuses else 0

    async def images_decoded(self) -> None:
        """Wait until every image shown on the page is loaded (or failed); hidden lazy ones never load."""
        await self.evaluate("Promise.all(Array.from(document.images).filter(i => i.offsetParent !== null)"
                            ".map(i => i.decode().catch(() => null)))")

    async def evaluate(self, expression: str) -> Any:
        """Return the value of a JavaScript expression in the page (promises awaited)."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str) -> None:
        """Wait until a JavaScript expression is true in the page (through a navigation a click started)."""
        async with asyncio.timeout(STEP_SECONDS):
            while True:
                try:
                    if await self.evaluate(expression):
                        break
                except RuntimeError:  # the page being left or not yet there
                    pass
                await asyncio.sleep(0.05)
        await self.images_decoded()

    async def images(self) -> list[dict[str, Any]]:
        """Return every image of the page: its src, alt, naturalWidth and whether it is complete."""
        value = await self.evaluate(
            "Array.from(document.images).map(i => ({src: i.currentSrc || i.src, alt: i.alt,"
            " naturalWidth: i.naturalWidth, complete: i.complete}))"
        )
        assert isinstance(value, list)
        return value

    async def text(self) -> str:
        """Return the text the page shows."""
        return str(await self.evaluate("document.body.innerText"))

    async def screenshot(self, path: Path, *, whole_page: bool = True) -> bytes:
        """Save a PNG screenshot at ``path`` (and return it): of the whole page, or of the window only."""
        height = await self.evaluate("Math.ceil(document.documentElement.scrollHeight)") if whole_page else self.size[1]
        shot = await self.call("Page.captureScreenshot", format="png", captureBeyondViewport=whole_page,
                               clip={"x": 0, "y": 0, "width": self.size[0], "height": min(int(height), 8000),
                                     "scale": 1})
        png = base64.b64decode(shot["data"])
        path.write_bytes(png)
        return png


@dataclass(frozen=True)
class Rendering:
    """What the browser made of a page at one width."""

    width: int  # the window's width
    screenshot_size: tuple[int, int]  # width and height of the PNG
    screenshot_bytes: int
    scroll_width: int  # the laid-out page's width (wider than the window = horizontal scrolling)
    inner_width: int
    text: str  # the text the page shows (innerText)
    client_width: int  # the width of the page's viewport (document.scrollingElement.clientWidth)
    problems: list[str]  # what does not read well at this width (phone_checks.layout_problems); none: all is well
    font_size: float  # the computed font size of the body text, in px


RENDER_HEIGHT = 900


def render(page_html: str, width: int, folder: Path) -> Rendering:
    """Open ``page_html`` in a ``width`` x 900 px window: a screenshot of the window, and the page's measures
    (with what does not read well at that width)."""
    require_chromium()
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / f"page-{width}.html"
    page.write_text(page_html, encoding="utf-8")

    async def look() -> Rendering:
        async with Browser(folder / f"profile-{width}", (width, RENDER_HEIGHT)) as browser:
            await browser.open(page.as_uri())
            scroll_width, inner_width, text, client_width, font = await browser.evaluate(
                "[document.scrollingElement.scrollWidth, window.innerWidth, document.body.innerText,"
                " document.scrollingElement.clientWidth, parseFloat(getComputedStyle(document.body).fontSize)]")
            problems, _ = await layout_problems(browser)
            png = await browser.screenshot(folder / f"page-{width}.png", whole_page=False)
        assert png[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG"
        size = struct.unpack(">II", png[16:24])
        return Rendering(width, size, len(png), int(scroll_width), int(inner_width), str(text), int(client_width),
                         problems, float(font))

    return asyncio.run(asyncio.wait_for(look(), timeout=120))
