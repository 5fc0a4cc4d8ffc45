"""The players' pages of the web archive in headless chromium: the list and one player's record and
games, with no address anywhere; an unknown or malformed name is the archive's plain 404."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from browser import Browser, require_chromium
from web_site import TP_SEATS, Site

from pbem.service import players

pytestmark = pytest.mark.browser


def test_the_player_list_and_a_players_page_show_no_address(site: Site, tmp_path: Path) -> None:
    require_chromium()
    with site.runner.unit() as unit:
        players.register(unit, TP_SEATS["1"], "Ann")
    outcome = site.runner.state_json("tp-end")
    assert (outcome["outcome"], outcome["winners"]) == ("shared", ["1", "2"])  # the pyramids: built together

    async def scenario() -> None:
        async with Browser(tmp_path / "profile") as browser:
            assert await browser.open(site.url + "/players") == 200
            listing = await browser.text()
            assert "Ann" in listing and "@" not in listing, listing
            assert await browser.evaluate("document.querySelectorAll('#players tbody tr').length") == 1
            await browser.evaluate("document.querySelector('#players a').click()")
            await browser.wait_for("location.pathname == '/player/Ann'")
            page = await browser.text()
            assert "2 played, 1 finished" in page, page  # tp-1 under way, tp-end over
            rows = await browser.evaluate("Array.from(document.querySelectorAll('#player-games tbody tr'))"
                                          ".map(r => r.innerText.replace(/\\s+/g, ' ').trim())")
            assert rows == ["tp-end three-pyramids finished shared the win", "tp-1 three-pyramids active -"], rows
            html = await browser.evaluate("document.documentElement.outerHTML")
            assert "@" not in html and "example.org" not in html
            await browser.screenshot(tmp_path / "player.png")
            assert await browser.open(site.url + "/player/nobody") == 404
            assert await browser.open(site.url + "/player/a%40b") == 404

    asyncio.run(asyncio.wait_for(scenario(), timeout=120))
