"""The web archive and a report's HTML part in a real headless chromium (Debian's package).

Each test checks what the page shows, that its images loaded
(naturalWidth > 0), and saves a screenshot under the test's tmp dir.
Without chromium they skip, saying how to install it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from pathlib import Path

import pytest
from browser import Browser, require_chromium
from sqlmodel import select
from phone_checks import DESKTOP, PHONE, layout_problems, mail_html
from web_site import TC_SEATS, TP_SEATS, Site, play_league

from pbem.clock import utcnow
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.service import players
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow

pytestmark = pytest.mark.browser

WHERE = "document.getElementById('where').textContent"
"""The step a history page shows, in words ("after turn 3 of 5", "the opening")."""


def in_browser(tmp_path: Path, scenario: Callable[[Browser], Awaitable[None]]) -> None:
    require_chromium()

    async def run() -> None:
        async with Browser(tmp_path / "profile") as browser:
            await scenario(browser)

    asyncio.run(asyncio.wait_for(run(), timeout=120))


def assert_images_loaded(images: list[dict[str, object]], count: int) -> None:
    assert len(images) >= count, images
    for image in images[:count]:
        assert image["complete"] and isinstance(image["naturalWidth"], int) and image["naturalWidth"] > 0, image
        assert image["alt"], image


def test_the_game_list_in_a_browser(site: Site, tmp_path: Path) -> None:
    async def scenario(browser: Browser) -> None:
        assert await browser.open(site.url + "/") == 200
        text = await browser.text()
        assert "Games" in text and "tc-1" in text and "Three Pyramids (three-pyramids)" in text
        assert "alice@example.org" not in text
        rows = await browser.evaluate("document.querySelectorAll('#games tbody tr').length")
        assert rows == 4
        await browser.screenshot(tmp_path / "games.png")

    in_browser(tmp_path, scenario)
    assert (tmp_path / "games.png").stat().st_size > 1000


def test_a_game_page_in_a_browser_steps_through_the_turns(site: Site, tmp_path: Path) -> None:
    async def scenario(browser: Browser) -> None:
        assert await browser.open(site.url + "/game/tc-1") == 200
        text = await browser.text()
        assert "After turn 3" in text and "The cornfield after turn 3" in text
        assert await browser.evaluate(WHERE) == "after turn 3 of 3"
        visible = "Array.from(document.querySelectorAll('section.step')).filter(s => s.offsetParent).map(s => s.id)"
        assert await browser.evaluate(visible) == ["turn-3"]
        shown = await browser.evaluate("Array.from(document.querySelectorAll('section.current img'))"
                                       ".map(i => ({src: i.src, alt: i.alt, naturalWidth: i.naturalWidth,"
                                       " complete: i.complete}))")
        assert_images_loaded(shown, 1)
        await browser.screenshot(tmp_path / "game-last.png")
        await browser.evaluate("document.getElementById('first').click()")
        assert await browser.evaluate(visible) == ["turn-0"]
        await browser.images_decoded()
        first = await browser.evaluate("(() => { const i = document.querySelector('section.current img');"
                                       " return {src: i.src, alt: i.alt, naturalWidth: i.naturalWidth,"
                                       " complete: i.complete}; })()")
        assert first["src"].endswith("/game/tc-1/0.svg")
        assert_images_loaded([first], 1)
        assert await browser.evaluate(WHERE) == "the opening"
        await browser.screenshot(tmp_path / "game-first.png")

    in_browser(tmp_path, scenario)
    assert (tmp_path / "game-first.png").stat().st_size > 1000


def test_a_long_game_steps_from_page_to_page_in_a_browser(site: Site, tmp_path: Path) -> None:
    played = len(site.runner.history("tp-end"))
    visible = "Array.from(document.querySelectorAll('section.step')).filter(s => s.offsetParent).map(s => s.id)"
    shown = ("Array.from(document.querySelectorAll('section.current img')).map(i => ({src: i.src, alt: i.alt,"
             " naturalWidth: i.naturalWidth, complete: i.complete}))")

    async def scenario(browser: Browser) -> None:
        assert await browser.open(site.url + "/game/tp-end") == 200
        assert await browser.evaluate(WHERE) == f"after turn {played} of {played}"
        assert await browser.evaluate(visible) == [f"turn-{played}"]
        await browser.evaluate("document.getElementById('first').click()")
        await browser.wait_for("location.search === '?page=0' && document.readyState === 'complete'")
        assert await browser.evaluate(visible) == ["turn-0"]
        assert await browser.evaluate(WHERE) == "the opening"
        assert_images_loaded(await browser.evaluate(shown), 1)
        await browser.evaluate("for (let i = 0; i < 19; i++) document.getElementById('next').click()")
        assert await browser.evaluate(visible) == ["turn-19"]
        await browser.evaluate("document.getElementById('next').click()")
        await browser.wait_for("location.search === '?page=1' && document.readyState === 'complete'")
        assert await browser.evaluate(visible) == ["turn-20"]
        assert await browser.evaluate(WHERE) == f"after turn 20 of {played}"
        assert_images_loaded(await browser.evaluate(shown), 1)
        await browser.screenshot(tmp_path / "page-1.png")
        await browser.evaluate("document.getElementById('prev').click()")
        await browser.wait_for("location.search === '?page=0' && document.readyState === 'complete'")
        assert await browser.evaluate(visible) == ["turn-19"]

    in_browser(tmp_path, scenario)
    assert (tmp_path / "page-1.png").stat().st_size > 1000


def test_a_private_seat_page_with_a_valid_link_in_a_browser(site: Site, tmp_path: Path) -> None:
    info = site.runner.info("tp-1")
    hand = info.rules.view(info.state, "2")["hand"]["text"]

    async def scenario(browser: Browser) -> None:
        assert await browser.open(site.link("tp-1", "2")) == 200
        text = await browser.text()
        assert "private page of seat 2" in text and hand in text
        images = await browser.evaluate(
            "Array.from(document.querySelectorAll('section.current img')).map(i => ({src: i.src, alt: i.alt,"
            " naturalWidth: i.naturalWidth, complete: i.complete}))")
        assert_images_loaded(images, 2)  # the board every reader sees, then seat 2's own hand
        assert "/game/tp-1/" in images[0]["src"] and "/seat/" in images[1]["src"]
        assert images[1]["alt"] == f"Seat 2's hand: {hand}, after turn 4"
        await browser.screenshot(tmp_path / "seat.png")

    in_browser(tmp_path, scenario)


@pytest.mark.parametrize("how", ["forged", "expired"])
def test_a_private_seat_page_with_a_bad_link_in_a_browser_is_404_with_no_data(
        site: Site, tmp_path: Path, how: str) -> None:
    good = site.link("tp-1", "2")
    link = good[:-2] + ("zz" if not good.endswith("zz") else "yy") if how == "forged" else \
        site.link("tp-1", "2", issued=date.today() - timedelta(days=90))

    async def scenario(browser: Browser) -> None:
        assert await browser.open(link) == 404
        text = await browser.text()
        assert "Not found" in text and "tp-1" not in text and "seat 2" not in text
        assert await browser.images() == []
        await browser.screenshot(tmp_path / f"seat-{how}.png")

    in_browser(tmp_path, scenario)


@pytest.mark.parametrize(("kind", "seats", "words", "alts"), [
    ("turkey-chase", TC_SEATS, "The cornfield after turn 1", ["Turkey Chase cornfield, after turn 1"]),
    ("three-pyramids", {"1": "alice@example.org", "2": "bob@example.org"}, "Three Pyramids",
     ["Three Pyramids, round 1 of 3", "Seat 1's hand: "]),
])
def test_a_reports_html_part_shows_its_inline_pictures_in_a_browser(
        db: Database, tmp_path: Path, kind: str, seats: dict[str, str], words: str, alts: list[str]) -> None:
    """The board (the same picture in every reader's mail), and in a game with secrets the reader's own
    picture under it (three-pyramids: seat 1's hand), all inline and loaded."""
    require_chromium()
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow)
    runner.on_resolved.append(notifier.on_resolved)
    runner.create_game(kind, "g-1", seats=seats, seed=3)
    runner.resolve("g-1")
    with db.session() as session:
        raw = next(r.raw for r in session.exec(select(OutboundMessageRow)) if r.recipients == ["alice@example.org"])
    page = tmp_path / "report.html"
    page.write_text(mail_html(raw), encoding="utf-8")  # as a mail client shows it: its cid: pictures inline

    async def scenario(browser: Browser) -> None:
        await browser.open(page.as_uri())
        text = await browser.text()
        assert words in text and f"You are seat {next(iter(seats))}" in text
        images = await browser.images()
        assert_images_loaded(images, len(alts))
        assert len(images) == len(alts) and all(i["alt"].startswith(alt) for i, alt in zip(images, alts, strict=True))
        for k in range(len(alts)):
            width = await browser.evaluate(f"document.images[{k}].getBoundingClientRect().width")
            assert 0 < width <= 600
        await browser.screenshot(tmp_path / "report.png")

    in_browser(tmp_path, scenario)


LOOK_JS = """({
  sheets: Array.from(document.styleSheets).map(s => s.href || ''),
  frame: getComputedStyle(document.querySelector('div.frame')).maxWidth,
  family: getComputedStyle(document.body).fontFamily,
  small: Array.from(document.querySelectorAll('body *'))
    .filter(e => !e.closest('pre, code, svg') && e.offsetParent !== null
      && Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim()))
    .map(e => [e.tagName, parseFloat(getComputedStyle(e).fontSize)]).filter(([, size]) => size < 15)
})"""


def test_every_archive_page_has_the_mails_frame_and_reads_well_on_a_phone(site: Site, tmp_path: Path) -> None:
    """Every page of the archive at 375 and 1000 px, in one browser: its own stylesheet is applied (the HTML
    mail's frame: 760 px column, the mail's fonts); no text is smaller than 15 px but the monospace of
    reports; the page never scrolls sideways, no word breaks inside itself, no <pre> line folds (a board
    scrolls in its own box), picture letters are 11 px or more as drawn (phone_checks)."""
    with site.runner.unit() as unit:
        players.register(unit, TP_SEATS["1"], "Ann")
    play_league(site.runner, "spring", [f"player{i}@example.org" for i in range(1, 9)])
    pages = ["/", "/players", "/player/Ann", "/game/tc-1", "/game/tp-end", "/game/tp-1?page=0#turn-0",
             site.link("tp-1", "2"), "/league/spring", f"/unsubscribe/{site.tokens.stop_token(TC_SEATS['A'])}",
             "/game/no-such-game"]
    found: dict[str, object] = {}

    async def scenario(browser: Browser) -> None:
        for width in (PHONE, DESKTOP):
            await browser.resize(width, 900)
            for number, page in enumerate(pages):
                await browser.open(page if page.startswith("http") else site.url + page)
                look: dict[str, object] = await browser.evaluate(LOOK_JS)
                problems, _ = await layout_problems(browser)
                if look["sheets"] != [site.url + "/style.css"] or look["frame"] != "760px" \
                        or "Roboto" not in str(look["family"]) or look["small"] or problems:
                    found[f"{page} at {width} px"] = [look, problems]
                await browser.screenshot(tmp_path / f"page-{number}-{width}.png")

    in_browser(tmp_path, scenario)
    assert found == {}


def test_a_game_page_says_its_game_status_and_turn_in_words(site: Site, tmp_path: Path) -> None:
    async def scenario(browser: Browser) -> None:
        assert await browser.open(site.url + "/game/tp-end") == 200
        facts = await browser.evaluate("Array.from(document.querySelectorAll('table.facts tr'))"
                                       ".map(r => [r.cells[0].innerText, r.cells[1].innerText])")
        info = site.runner.info("tp-end")
        assert facts[:3] == [["Game", "tp-end, a game of The Three Pyramids (three-pyramids)"],
                             ["Status", "finished: the game is over"], ["Turn", f"finished after turn {info.row.turn - 1}"]]
        assert await browser.open(site.url + "/") == 200
        statuses = await browser.evaluate("Object.fromEntries(Array.from(document.querySelectorAll("
                                          "'#games tbody tr')).map(r => [r.cells[0].innerText, r.cells[2].innerText]))")
        assert statuses == {"tc-1": "running", "tp-1": "running", "f-1": "forming", "tp-end": "finished"}

    in_browser(tmp_path, scenario)
