"""The buttons of a seat's few choices, through real mail and a real browser: the HTML report (and the
reminder) a player receives is opened in headless chromium at 400 and 1000 px; each button is a mailto:
link as chromium reads it, to the mail's own Reply-To; each one, sent as a mail with the link's address,
subject and body through the embedded servers, is accepted as that seat's orders (stored as the button
says)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from browser import Browser, require_chromium
from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join, newest_report

from pbem.sandbox.mailclient import ReceivedMail

MAIL_TIMEOUT = 10.0
WIDTHS = (400, 1000)
BUTTONS_JS = """({
  scroll: document.scrollingElement.scrollWidth, client: document.scrollingElement.clientWidth,
  buttons: Array.from(document.querySelectorAll('a.choice')).map(a => {
    const box = a.getBoundingClientRect();
    return {href: a.href, label: a.innerText.trim(), right: box.right, height: box.height};
  })})"""


async def buttons_in_chromium(page_html: str, folder: Path) -> list[tuple[str, str]]:
    """Open the report at each width; check nothing scrolls sideways and every button lies within the
    window and is big enough to tap; return the (label, href) of each button as chromium reads them."""
    folder.mkdir(parents=True, exist_ok=True)
    seen: list[list[tuple[str, str]]] = []
    for width in WIDTHS:
        page = folder / f"report-{width}.html"
        page.write_text(page_html, encoding="utf-8")
        async with Browser(folder / f"profile-{width}", (width, 900)) as browser:
            await browser.open(page.as_uri())
            found: dict[str, Any] = await browser.evaluate(BUTTONS_JS)
        assert found["scroll"] <= found["client"], f"the report scrolls sideways at {width} px: {found['scroll']}"
        for button in found["buttons"]:
            assert button["right"] <= found["client"] and button["height"] >= 32, (width, button)
        seen.append([(button["label"], button["href"]) for button in found["buttons"]])
    assert seen[0] == seen[1]
    return seen[0]


def read_mailto(href: str) -> tuple[str, str, str]:
    """The address, subject and body of a mailto: link, read as RFC 6068 says."""
    parts = urlsplit(href)
    assert parts.scheme == "mailto", href
    fields = {name: unquote(value) for name, value in (field.split("=", 1) for field in parts.query.split("&"))}
    assert set(fields) == {"subject", "body"}, href
    return unquote(parts.path), fields["subject"], fields["body"]


async def press(person: Person, report: ReceivedMail, href: str) -> str:
    """Send the mail a button writes, as the player's mail program would, and return the answer."""
    address, subject, body = read_mailto(href)
    replying = report.subject if report.subject.startswith("Re: ") else f"Re: {report.subject}"
    assert address == report.reply_to and subject == replying
    await person.send(body, subject=subject, to=address, in_reply_to=report.message_id)
    answer = await mail_titled(person, subject)  # past the mails before it (invitation, password, reports)
    return answer.body.replace("\r\n", "\n")


async def mail_titled(person: Person, subject: str) -> ReceivedMail:
    """The next mail to ``person`` with ``subject`` (mails before it are passed over)."""
    while True:
        mail = await person.last(timeout=MAIL_TIMEOUT)
        if mail.subject == subject:
            return mail


async def started(service: MailHarness, kind: str, name: str, players: int) -> dict[str, Person]:
    """A game of ``kind`` created, joined and started by mail; return its players by seat."""
    opened = await create_and_join(service, kind, name, players, "seed=5")
    await opened.gm.send(f"GM {name} {opened.gm_password}\nSTART\n")
    await eventually(lambda: service.runner.info(name).phase is not None)
    return {seat: person for seat, (person, _) in opened.seats.items()}


def test_every_bid_button_of_a_race_report_sends_that_bid_as_the_seats_orders(tmp_path: Path) -> None:
    require_chromium()

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            people = await started(service, "race-on-the-river", "river", 2)
            report = await newest_report(service, people["1"], "river", 1)
            assert report.html is not None
            buttons = await buttons_in_chromium(report.html, tmp_path)
            assert [label for label, _ in buttons] == [f"BID {n}" for n in range(10)]
            for label, href in buttons:
                answer = await press(people["1"], report, href)
                assert "1 line(s) accepted, 0 refused." in answer and "REFUSED" not in answer, answer
                stored = service.runner.current_orders("river", "1")
                assert stored is not None and stored.orders == [label]
            service.clock.advance(hours=37)  # 11 hours before the deadline: seat 2, silent, is reminded
            reminder = await mail_titled(people["2"], "[river] Reminder: turn 1 orders due")
            assert reminder.html is not None and reminder.reply_to not in (None, report.reply_to)
            buttons = await buttons_in_chromium(reminder.html, tmp_path / "2")
            assert [label for label, _ in buttons] == [f"BID {n}" for n in range(10)]
            assert "1 line(s) accepted" in await press(people["2"], reminder, buttons[4][1])
            resolved = await newest_report(service, people["1"], "river", 2)  # both bids in: the round resolved
            assert "seat 1 bid 9, seat 2 bid 4" in resolved.body  # the last button each seat sent
            assert service.runner.info("river").row.turn == 2

    asyncio.run(scenario())


def test_a_button_of_two_orders_sends_both_lines(tmp_path: Path) -> None:
    """Honest Trade's window: REACT and ACCUSE together are one button, a body of two lines."""
    require_chromium()

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            people = await started(service, "honest-trade", "trade", 3)
            phase = service.runner.info("trade").phase
            assert phase is not None
            (actor,) = phase.seats
            report = await newest_report(service, people[actor], "trade", 1)
            assert report.html is not None
            buttons = dict(await buttons_in_chromium(report.html, tmp_path))
            assert "ACT RED" in buttons and "ACT YELLOW CUBES" in buttons, buttons
            assert "1 line(s) accepted" in await press(people[actor], report, buttons["ACT YELLOW CUBES"])
            answered = False
            await eventually(lambda: service.runner.info("trade").row.turn == 2)
            window_phase = service.runner.info("trade").phase
            assert window_phase is not None and window_phase.name == "window", window_phase
            for seat in window_phase.seats:  # every other trader
                window = await newest_report(service, people[seat], "trade", 2)
                assert window.html is not None
                choices = dict(await buttons_in_chromium(window.html, tmp_path / seat))
                assert {"PASS", "ACCUSE"} <= set(choices), choices
                if not answered and "REACT; ACCUSE" in choices:
                    answer = await press(people[seat], window, choices["REACT; ACCUSE"])
                    assert "2 line(s) accepted, 0 refused." in answer, answer
                    stored = service.runner.current_orders("trade", seat)
                    assert stored is not None and stored.orders == ["REACT", "ACCUSE"]
                    answered = True
            assert answered, "a trader with a white cube can cancel yellow"

    asyncio.run(scenario())


def test_a_refused_order_is_answered_with_the_buttons_of_the_legal_ones(tmp_path: Path) -> None:
    """A bid the seat cannot pay is refused; the reply asking for corrected orders offers every bid it
    can pay, and one click sends one that is stored."""
    require_chromium()

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            people = await started(service, "race-on-the-river", "river", 2)
            report = await newest_report(service, people["1"], "river", 1)
            await people["1"].reply(report, "BID 99\n")
            refused = await mail_titled(people["1"], f"Re: {report.subject}")
            assert "REFUSED" in refused.body and refused.html is not None
            buttons = dict(await buttons_in_chromium(refused.html, tmp_path))
            assert list(buttons) == [f"BID {n}" for n in range(10)]
            assert "1 line(s) accepted, 0 refused." in await press(people["1"], refused, buttons["BID 2"])
            stored = service.runner.current_orders("river", "1")
            assert stored is not None and stored.orders == ["BID 2"]

    asyncio.run(scenario())
