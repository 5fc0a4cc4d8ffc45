"""The HTML of the mails a player gets, looked at in a real browser (headless Chromium): an
order-check reply, a turn report and a reminder, each taken from the player's mailbox and
rendered 375, 600 and 1000 px wide: a full-size screenshot, no horizontal scrolling of the page (long
lines such as the seed commitment wrap between words; boards scroll in their own box), and the things a
player looks for are on the page. And every game's mails (reports, refusal, reminder, invitation) and the
league standings, made offline by the notifier, read well on a phone and a desktop (phone_checks)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from browser import Browser, render, require_chromium
from mail_games import open_game
from mail_harness import running_service
from phone_checks import DESKTOP, PHONE, layout_problems
from phone_mails import every_games_mails

from pbem.games import GAMES
from pbem.store import Database

WIDTHS = (PHONE, 600, DESKTOP)


@pytest.fixture(scope="module")
def mails(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The HTML parts of a check reply and a turn report as alice received them, and of the
    reminder bob (no orders sent) received."""
    require_chromium()  # skip at once, with the reason, when there is no browser
    folder = tmp_path_factory.mktemp("mails")

    async def scenario() -> dict[str, str]:
        async with running_service(folder) as service:
            game = await open_game(service)
            alice = game.players["A"]
            await alice.reply(game.reports["A"], "FEED F1\nMOVE F7-F77\nFEDE K6\n")
            reply = await alice.last()
            service.clock.advance(hours=37)  # 11 hours before the 48-hour deadline: reminders go out
            reminder = await game.players["B"].last()
            assert reminder.subject == "[tc-1] Reminder: turn 1 orders due"
            assert reply.html and reminder.html and game.reports["A"].html
            return {"reply": reply.html, "report": game.reports["A"].html, "reminder": reminder.html}

    return asyncio.run(scenario())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", ["reply", "report", "reminder"])
def test_a_mail_renders_at_full_size_without_horizontal_scrolling(
        mails: dict[str, str], kind: str, width: int, tmp_path: Path) -> None:
    page = render(mails[kind], width, tmp_path)
    assert page.screenshot_size == (width, 900)
    assert page.screenshot_bytes > 3000, "the screenshot shows something, not an empty page"
    assert page.scroll_width <= page.client_width == page.inner_width == width, \
        f"{kind} is {page.scroll_width} px wide at {width} px"
    assert page.problems == [], f"{kind} at {width} px"
    assert page.font_size >= 15
    assert "Reply to this mail with your orders" in page.text
    assert "HELP turkey-chase" in page.text


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_check_reply_keeps_the_caret_under_the_bad_column(mails: dict[str, str], tmp_path: Path,
                                                              width: int) -> None:
    page = render(mails["reply"], width, tmp_path)
    for order, word in (("MOVE F7-F77", "F77"), ("FEDE K6", "FEDE")):
        lines = page.text.split("\n")
        at = next(i for i, line in enumerate(lines) if line.rstrip() == order)
        assert lines[at + 1].index("^") == order.index(word), page.text
    assert re.search(r'found "FEDE"; did you mean FEED\?', page.text)
    assert "REFUSED" in page.text and "ok" in page.text


def test_the_report_shows_the_scores_and_the_readers_pieces_near_the_top(mails: dict[str, str], tmp_path: Path) -> None:
    text = render(mails["report"], 1000, tmp_path).text
    assert text.index("Scores") < text.index("Your pieces") < text.index("The cornfield")
    assert "A (you)" in text and "Farmers\tF7" in text and "Birds\tF1, F1" in text
    assert re.search(r"Seed commitment for game tc-1 \(SHA-256\): [0-9a-f]{64}", text)  # wrapped, not cut


SHOWN = ("turkey-chase report in the middle", "turkey-chase refusal", "three-pyramids final report",
         "league standings")
"""The mails whose screenshots are kept (under the test's tmp dir), to look at."""


@pytest.mark.browser
def test_every_games_mails_read_well_on_a_phone_and_a_desktop(db: Database, tmp_path: Path) -> None:
    """Each game's opening, middle and final report, a refusal reply, a reminder and an invitation, and the
    standings mail, at 375 and 1000 px in one browser: the page never scrolls sideways, no word is broken
    inside itself, no <pre> line is folded, every caret stands under its column, picture letters are 11 px
    or more as drawn."""
    require_chromium()
    mails = every_games_mails(db, "http://127.0.0.1:8080")
    assert len(mails) == 6 * len(GAMES) + 1
    files = {}
    for number, (what, html) in enumerate(mails.items()):
        files[what] = tmp_path / f"mail-{number}.html"
        files[what].write_text(html, encoding="utf-8")

    async def look() -> tuple[dict[str, list[str]], int]:
        found: dict[str, list[str]] = {}
        carets = 0
        async with Browser(tmp_path / "profile", (PHONE, 900)) as browser:
            for width in (PHONE, DESKTOP):
                await browser.resize(width, 900)
                for what, path in files.items():
                    await browser.open(path.as_uri())
                    problems, checked = await layout_problems(browser)
                    carets += checked
                    if problems:
                        found[f"{what} at {width} px"] = problems
                    if what in SHOWN:
                        await browser.screenshot(tmp_path / f"{what.replace(' ', '-')}-{width}.png")
        return found, carets

    found, carets = asyncio.run(asyncio.wait_for(look(), timeout=900))
    assert found == {}
    assert carets >= 2 * len(GAMES), "every game's refusal shows a caret under a refused column, at both widths"
