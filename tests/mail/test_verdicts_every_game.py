"""Every game, one honest mistake: a seat that owes nothing now mails well-formed orders (the orders the
owing seat could play). The real mail handler reads the mail from the real database and queues its
reply; the reply refuses each line on that line with the reason, shows no ``ok`` for any of them, counts
them all as refused in one verdict for the whole mail that agrees with the lines, and asks for no orders
(no request to send corrected orders, no HTML banner, no deadline calendar)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlmodel import select

from pbem.core import GameRng
from pbem.core.game import TurnShape
from pbem.games import GAMES, find_game
from pbem.mail.handling.handler import MailHandler
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.reading.mailstore import InboundStore
from pbem.sandbox.mailclient import plain_mail, read_mail
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow

GM = "gm@pbem.test"
MAX_STEPS = 60
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def to_a_seat_not_owed(runner: GameService, kind: str) -> tuple[str, list[str], str]:
    """Play the game ``g`` with random legal orders until a seat owes nothing while another owes a choice;
    return that idle seat, the orders the owing seat could send now, and why the idle seat may not. In a
    game where every seat owes orders at every step (to its end, or for :data:`MAX_STEPS`), end it (the GM's
    END, unless it ended): then nobody owes orders, and the orders are those of its first step."""
    game = find_game(kind)
    first: tuple[str, list[str]] | None = None
    robots = GameRng(5)
    for _ in range(MAX_STEPS):
        info = runner.info("g")
        if info.outcome is not None:
            break
        assert info.phase is not None
        choosing = [seat for seat in info.phase.seats if game.forced_orders(info.state, seat) is None]
        idle = [seat for seat in info.seat_names if seat not in info.phase.seats]
        orders = [str(order) for order in game.sample_orders(info.state, choosing[0], robots)] if choosing else []
        if orders and idle:
            return idle[0], orders, "it is not your turn: waiting for seat"
        first = first or ((choosing[0], orders) if orders else None)
        for seat in choosing:
            runner.submit("g", seat, "\n".join(str(o) for o in game.sample_orders(info.state, seat, robots)))
        runner.resolve("g")
    assert game.facts().turn_shape is TurnShape.SIMULTANEOUS and first is not None, \
        f"{kind}: no step within {MAX_STEPS} where a seat owes nothing"
    if runner.info("g").outcome is None:
        runner.end("g")
    return first[0], first[1], "game g is finished; it takes no orders now"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_orders_from_a_seat_that_owes_none_are_refused_on_each_line_with_one_agreeing_verdict(
        db: Database, kind: str) -> None:
    game = find_game(kind)
    runner = GameService(db, clock=lambda: NOW)
    seats = game.seat_names(max(game.min_players, 2))
    addresses = {seat: f"p{seat.lower()}@players.test" for seat in seats}
    runner.create_game(kind, "g", seats=addresses, seed=3, options={"turn_hours": "48"})
    passwords = runner.issue_passwords("g")
    idle, orders, why = to_a_seat_not_owed(runner, kind)
    body = f"SIGNON g {idle} {passwords[idle]}\n" + "\n".join(orders) + "\n"
    raw = plain_mail(addresses[idle], GM, "[g] orders", body).as_bytes()
    inbound = InboundStore(db).store(None, raw)
    assert inbound is not None
    MailHandler(runner, address=GM, tokens=ReplyTokens(b"k" * 32), clock=lambda: NOW).handle(inbound)
    with db.session() as session:
        [sent] = session.exec(select(OutboundMessageRow).where(OutboundMessageRow.inbound_id == inbound)).all()
        reply = read_mail(sent.raw)
    text = reply.body
    assert not re.search(r"^\s+ok$", text, re.MULTILINE), text
    assert "Send corrected orders" not in text and "of them also refused" not in text, text
    if why.startswith("game g is finished"):  # the mail as a whole is refused, with its one reason
        assert text.count("REFUSED") == 1 and f"line 1: REFUSED: {why}" in text and "accepted" not in text, text
    else:
        for number in range(2, len(orders) + 2):
            assert f"REFUSED (line {number}): {why}" in text, text
        assert f"0 line(s) accepted, {len(orders)} refused." in text, text
        assert "REFUSED: " not in text and "Nothing was stored: you owe no orders now." in text, text
    assert reply.html is None and b"text/calendar" not in sent.raw, text
    assert runner.current_orders("g", idle) is None
