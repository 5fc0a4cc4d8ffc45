"""Turn reports carry the picture of the reader's view inline, and the seat's private link."""

from __future__ import annotations

import email
import email.policy
import re
from html import unescape as html_unescape
from datetime import date
from email.message import EmailMessage

from sqlmodel import select

from pbem.clock import utcnow
from pbem.mail.notices import MailNotifier
from pbem.mail.tokens import ReplyTokens
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow
from pbem.service.api import GameService
from png_check import decode_png

SEATS = {"A": "alice@example.org", "B": "bob@example.org", "C": "carol@example.org", "D": "dave@example.org"}


def reports(db: Database) -> dict[str, EmailMessage]:
    with db.session() as session:
        rows = list(session.exec(select(OutboundMessageRow)))
    parsed = {}
    for row in rows:
        message = email.message_from_bytes(row.raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        parsed[row.recipients[0]] = message
    return parsed


def test_every_report_shows_the_board_inline_and_keeps_the_ascii_board(db: Database) -> None:
    tokens = ReplyTokens(b"k" * 16)
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=tokens, clock=utcnow, web_url="http://127.0.0.1:8080")
    runner.on_resolved.append(notifier.on_resolved)
    runner.create_game("turkey-chase", "tc-1", seats=SEATS, seed=3, gm_address="boss@example.org")
    runner.resolve("tc-1")
    sent = reports(db)
    assert set(sent) == {*SEATS.values(), "boss@example.org"}
    boards = set()
    for address, message in sent.items():
        if address != "boss@example.org":  # a seat owing orders gets its deadline as a calendar attachment
            assert message.get_content_type() == "multipart/mixed"
            message, calendar = message.get_payload()  # type: ignore[misc]
            assert calendar.get_content_type() == "text/calendar"
        assert message.get_content_type() == "multipart/alternative"
        plain, related = message.get_payload()  # type: ignore[misc]
        assert plain.get_content_type() == "text/plain"
        assert "The cornfield, turn 2" in plain.get_content()  # the ASCII board stays in the text part
        assert related.get_content_type() == "multipart/related"
        html, image = related.get_payload()  # no secrets in Turkey Chase: the board alone
        assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
        content_id = image["Content-ID"].strip("<>")
        found = re.search(r'<img src="cid:([^"]+)" alt="([^"]+)" width="(\d+)"', html.get_content())
        assert found is not None and found[1] == content_id
        assert found[2] == "Turkey Chase cornfield, turn 2"
        png = image.get_content()
        assert len(png) < 60_000 and decode_png(png)[0] == int(found[3]) <= 600
        boards.add((content_id, png))
        seat = next((s for s, a in SEATS.items() if a == address), None)
        if seat is None:  # the GM gets the board and no seat link
            assert "/seat/" not in plain.get_content() and "You are seat" not in html.get_content()
            continue
        assert f"You are seat {seat}." in html.get_content()  # the reader, named beside the shared board
        link = re.search(r"http://127\.0\.0\.1:8080/seat/(\S+)", plain.get_content())
        assert link is not None and link[0] in html.get_content()
        lookup = {("tc-1", s.lower()): 1 for s in SEATS}
        assert tokens.verify_link(link[1], lambda g, s: lookup.get((g, s)), date.today()) == ("tc-1", seat.lower())
    assert len(boards) == 1  # one picture, under one Content-ID, in every reader's mail


def test_a_seat_with_secrets_gets_the_shared_board_and_a_picture_of_its_own(db: Database) -> None:
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow)
    runner.on_resolved.append(notifier.on_resolved)
    seats = {str(n): address for n, address in enumerate(SEATS.values(), start=1)}
    runner.create_game("three-pyramids", "tp-1", seats=seats, seed=3, gm_address="boss@example.org")
    runner.resolve("tp-1")
    info = runner.info("tp-1")
    sent = reports(db)
    assert set(sent) == {*seats.values(), "boss@example.org"}
    boards, owns = set(), {}
    for address, message in sent.items():
        html, *images = message.get_body(preferencelist=("related",)).get_payload()  # type: ignore[union-attr]
        found = re.findall(r'<img src="cid:([^"]+)" alt="([^"]+)"', html.get_content())
        assert [content_id for content_id, _ in found] == [image["Content-ID"].strip("<>") for image in images]
        boards.add(images[0].get_content())
        seat = next((s for s, a in seats.items() if a == address), None)
        if seat is None:  # the GM: the board alone
            assert len(images) == 1
            continue
        assert len(images) == 2 and html_unescape(found[1][1]) == f"Seat {seat}'s hand: {info.state.hand(seat).describe()}"
        own = images[1].get_content()
        assert len(own) < 60_000 and decode_png(own)[0] <= 600
        owns[seat] = own
    assert len(boards) == 1 and len(set(owns.values())) == len(seats)
