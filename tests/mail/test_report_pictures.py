"""Turn reports carry the picture of the reader's view inline, and the seat's private link."""

from __future__ import annotations

import email
import email.policy
import re
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


def test_every_report_shows_its_readers_picture_inline_and_keeps_the_ascii_board(db: Database) -> None:
    tokens = ReplyTokens(b"k" * 16)
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=tokens, clock=utcnow, web_url="http://127.0.0.1:8080")
    runner.on_resolved.append(notifier.on_resolved)
    runner.create_game("turkey-chase", "tc-1", seats=SEATS, seed=3, gm_address="boss@example.org")
    runner.resolve("tc-1")
    sent = reports(db)
    assert set(sent) == {*SEATS.values(), "boss@example.org"}
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
        html, image = related.get_payload()
        assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
        content_id = image["Content-ID"].strip("<>")
        found = re.search(r'<img src="cid:([^"]+)" alt="([^"]+)" width="(\d+)"', html.get_content())
        assert found is not None and found[1] == content_id
        png = image.get_content()
        assert len(png) < 60_000 and decode_png(png)[0] == int(found[3]) <= 600
        seat = next((s for s, a in SEATS.items() if a == address), None)
        if seat is None:  # the GM gets the public picture and no seat link
            assert found[2] == "Turkey Chase cornfield, turn 2" and "/seat/" not in plain.get_content()
            continue
        assert found[2] == f"Turkey Chase cornfield, turn 2, seen by seat {seat}"
        link = re.search(r"http://127\.0\.0\.1:8080/seat/(\S+)", plain.get_content())
        assert link is not None and link[0] in html.get_content()
        lookup = {("tc-1", s.lower()): 1 for s in SEATS}
        assert tokens.verify_link(link[1], lambda g, s: lookup.get((g, s)), date.today()) == ("tc-1", seat.lower())
