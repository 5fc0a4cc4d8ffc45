"""Turn reports carry the board and the reader's own picture inline, and the seat's private link; no picture
shows a reader a secret it may not see."""

from __future__ import annotations

import email
import email.policy
import re
from html import unescape as html_unescape
from datetime import date
from email.message import EmailMessage

import pytest
from sqlmodel import select

from pbem.clock import utcnow
from pbem.core import GameRng
from pbem.games import GAMES, find_game
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.preferences import set_preference
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.pictures import board_svg, own_svg
from pbem.raster import svg_to_png
from pbem.service.api import GameService
from pbem.service.observers import observe
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow
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


def clear_outbox(db: Database) -> None:
    with db.session() as session:
        for row in session.exec(select(OutboundMessageRow)):
            session.delete(row)
        session.commit()


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
        assert "The cornfield after turn 1" in plain.get_content()  # the ASCII board stays in the text part
        assert related.get_content_type() == "multipart/related"
        html, image = related.get_payload()  # no secrets in Turkey Chase: the board alone
        assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
        content_id = image["Content-ID"].strip("<>")
        found = re.search(r'<img src="cid:([^"]+)" alt="([^"]+)" width="(\d+)"', html.get_content())
        assert found is not None and found[1] == content_id
        assert found[2] == "Turkey Chase cornfield, after turn 1"
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
        hand = f"Seat {seat}'s hand: {info.state.hand(seat).describe()}, after turn {info.row.turn - 1}"
        assert len(images) == 2 and html_unescape(found[1][1]) == hand
        own = images[1].get_content()
        assert len(own) < 60_000 and decode_png(own)[0] <= 600
        owns[seat] = own
    assert len(boards) == 1 and len(set(owns.values())) == len(seats)


HIDDEN = sorted(kind for kind in GAMES if find_game(kind).facts().has_hidden_information)


def _images(message: EmailMessage) -> tuple[str, list[bytes]]:
    """The HTML part of a report and its inline pictures in order ('' and none for a plain-text mail)."""
    related = message.get_body(preferencelist=("related",))
    if related is None:
        return "", []
    html, *images = related.get_payload()  # type: ignore[union-attr]
    return html.get_content(), [image.get_content() for image in images]


@pytest.mark.parametrize("kind", HIDDEN)
def test_no_picture_in_any_mail_shows_a_secret_its_reader_may_not_see(db: Database, kind: str) -> None:
    """In a game with secrets, each reader's pictures are exactly the public board and, for a seat, its own
    picture: pixel for pixel what the reader's own view draws. The GM and observers get the board alone, an
    address that reads text only no picture; the board and a seat's picture stay the same when every secret
    the seat may not see is redrawn."""
    game = find_game(kind)
    players = min(max(game.min_players, 3), game.max_players)
    seats = dict(zip(game.seat_names(players), SEATS.values()))
    runner = GameService(db)
    runner.on_resolved.append(MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16),
                                           clock=utcnow).on_resolved)
    runner.create_game(kind, "h-1", seats=seats, seed=7, gm_address="boss@example.org",
                       options={"reports": "each"})  # every reader is mailed every step, digest games' too
    text_only = "dave@example.org" if players > 3 else None
    with runner.unit() as unit:
        observe(unit, "h-1", "eve@example.org")
        if text_only is not None:
            set_preference(unit.session, text_only, "textonly", on=True, now=utcnow())
    rng = GameRng(11)
    for _ in range(20):  # played until a seat holds a secret of its own (a plan filed in advance only once filed)
        clear_outbox(db)
        runner.resolve("h-1")
        info = runner.info("h-1")
        state = info.state
        own = {seat: svg_to_png(svg) for seat in seats if (svg := own_svg(game, state, seat)) is not None}
        if own or info.phase is None:
            break
        for seat in info.phase.seats:
            orders = game.sample_orders(state, seat, rng)
            runner.submit("h-1", seat, "\n".join(str(order) for order in orders) or "PASS")
    board = svg_to_png(board_svg(game, state))
    assert own, f"{kind} has secrets: a seat sees its own in a picture of its own"
    sent = reports(db)
    assert set(sent) == {*seats.values(), "boss@example.org", "eve@example.org"}
    for address, message in sent.items():
        html, images = _images(message)
        seat = next((s for s, a in seats.items() if a == address), None)
        if address == text_only:
            assert images == [] and message.get_body(preferencelist=("html",)) is None
            continue
        assert images == ([board, own[seat]] if seat in own else [board]), f"{address} got pictures not its own"
        others = [s for s in seats if s != seat]
        assert not any(f"Seat {other}&#x27;s" in html or f"Seat {other}'s" in html for other in others)
    for seat in seats:
        for _ in range(3):
            variant = game.hidden_variant(state, seat, rng)  # every secret but the seat's own redrawn
            assert svg_to_png(board_svg(game, variant)) == board, "the shared board shows a secret"
            if seat in own:
                assert svg_to_png(own_svg(game, variant, seat) or "") == own[seat], "a seat's picture shows another's"
