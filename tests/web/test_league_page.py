"""The league page of the web archive in a real headless chromium: the standings with points, record and
ratings (mu ± sigma), the tables with links to their games, players by their registered names (else a
stand-in), no player's full address and nobody marked as "you"; and a link to it from the game list."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import Browser, render
from test_browser import in_browser
from web_site import Site

from pbem.reports import environment
from pbem.service import leagues, players

pytestmark = pytest.mark.browser

PLAYERS = [f"player{i}@example.org" for i in range(1, 9)]


def _played_league(site: Site) -> leagues.LeagueView:
    runner = site.runner
    with runner.unit() as unit:
        leagues.create(unit, "autumn", "top-of-the-temple", {"format": "swiss", "rounds": "2", "table": "4"})
        for address in PLAYERS:
            leagues.join(unit, "autumn", address)
        players.register(unit, PLAYERS[0], "Ace")
        games = leagues.start(unit, "autumn")
    for game in games:
        runner.end(game)  # the leaders win; round 2 is seated
    with runner.unit(lock=False) as unit:
        return leagues.view(unit, "autumn")


def test_the_league_page_in_a_browser(site: Site, tmp_path: Path) -> None:
    view = _played_league(site)

    async def scenario(browser: Browser) -> None:
        assert await browser.open(site.url + "/") == 200
        assert await browser.evaluate("document.querySelector('#leagues a').getAttribute('href')") == "/league/autumn"
        assert await browser.open(site.url + "/league/autumn") == 200
        text = await browser.text()
        assert "League autumn" in text and "round 2 of 2" in text
        assert not any(address in text for address in PLAYERS) and "(you)" not in text
        rows = await browser.evaluate(
            "[...document.querySelectorAll('table.standings tbody tr')].map(r => [...r.cells].map(c => c.innerText))")
        assert len(rows) == 8 and "Ace" in [row[1] for row in rows]
        for row, line in zip(rows, view.standings):
            assert row[0] == str(line.rank) and row[1] == line.name and float(row[2]) == line.points
            assert row[11] == f"{line.mu:.1f} ± {line.sigma:.1f}"
        assert float(rows[0][2]) > 0 and [float(r[2]) for r in rows] == sorted((float(r[2]) for r in rows), reverse=True)
        links = await browser.evaluate("[...document.querySelectorAll('table.tables a')].map(a => a.innerText)")
        assert links == ["autumn-1-1", "autumn-1-2", "autumn-2-1", "autumn-2-2"]
        width = await browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert width, "the page scrolls sideways"
        await browser.screenshot(tmp_path / "league.png")
        assert await browser.open(site.url + "/league/nope") == 404

    in_browser(tmp_path, scenario)


@pytest.mark.parametrize("width", [600, 1000])
def test_the_standings_mail_renders_without_horizontal_scrolling(site: Site, tmp_path: Path, width: int) -> None:
    view = _played_league(site)
    html = environment(html=True).get_template("common/league.html.j2").render(league=view, intro="Round 1 is over.")
    page = render(html, width, tmp_path)
    assert page.scroll_width <= page.inner_width == width, f"{page.scroll_width} px wide at {width} px"
    assert "Round 1 is over." in page.text and view.standings[0].name in page.text and "@" not in page.text and "25.0 ± 8.3" not in page.text.split(
        "Tables")[1]
