"""A mail is read once: the one parse of its stored bytes (pbem/mail/handling/incoming.py) carries everything its
handling needs, and no later step (storing it, the DMARC verdict, the password check, the bounce reading)
reads the bytes again. Counted on the bounded MIME reader, which every reading of a mail's bytes goes
through, while a real order mail is stored and handled in one unit (as the daemon does while it keeps up)
or handled after it was stored (as a mail stored by ``pbem deliver`` or another daemon is)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import pytest
from sqlmodel import select

from pbem.budget import OverBudget
from pbem.core import GameRng
from pbem.games import find_game
from pbem.mail.reading import bounded_mime
from pbem.mail.handling.handler import MailFailed, MailHandler
from pbem.mail.reading.mailstore import InboundStore
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.running.daemon import MailDaemon
from pbem.mail.running.retries import troubled_mail
from pbem.sandbox.mailclient import plain_mail, read_mail
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

GM = "gm@pbem.test"
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each reading of a mail's bytes by the bounded MIME reader, wherever pbem imported it, as the number
    of bytes read."""
    counted: list[int] = []
    original = bounded_mime.read_message

    def counting(raw: bytes, policy: object) -> object:
        counted.append(len(raw))
        return original(raw, policy)  # type: ignore[arg-type]

    for name, module in list(sys.modules.items()):
        if name.startswith("pbem.") and getattr(module, "read_message", None) is original:
            monkeypatch.setattr(module, "read_message", counting)
    return counted


class Unwatched:
    """A mail's time budget that never runs out."""

    def __call__(self, named: object) -> None:
        pass

    def hold(self) -> None:
        pass


def order_mail(db: Database, *, trusted: bool) -> tuple[MailHandler, bytes]:
    """A Turkey Chase game, the handler (believing the receiving server's DMARC verdict when ``trusted``), and
    a legal order mail of seat A to its reply address, whose bytes name no password (the reply's do not either)."""
    runner = GameService(db, clock=lambda: NOW)
    game = find_game("turkey-chase")
    info = runner.create_game("turkey-chase", "g", seats={s: f"p{s.lower()}@players.test" for s in "ABCD"}, seed=3)
    handler = MailHandler(runner, address=GM, tokens=ReplyTokens(b"k" * 32), clock=lambda: NOW,
                          trusted_authserv=("mx.pbem.test",) if trusted else ())
    seat = info.seats[0]
    orders = "\n".join(str(order) for order in game.sample_orders(info.state, seat.name, GameRng(1))) + "\n"
    message = plain_mail(seat.address, handler.notifier.reply_address(info.row, seat), "Re: [g] Turn 1", orders)
    message["Authentication-Results"] = "mx.pbem.test; dmarc=pass header.from=players.test"
    return handler, message.as_bytes()


def accepted_reply(db: Database, inbound_id: int) -> str:
    with db.session() as session:
        [sent] = session.exec(select(OutboundMessageRow).where(OutboundMessageRow.inbound_id == inbound_id)).all()
        row = session.get(InboundMessageRow, inbound_id)
        assert row is not None and row.status == "handled" and row.sender == "pa@players.test"
    return read_mail(sent.raw).body


def test_an_order_mail_stored_and_handled_in_one_unit_is_read_once(db: Database, reads: list[int]) -> None:
    handler, raw = order_mail(db, trusted=True)
    reads.clear()
    found = handler.store_and_handle(InboundStore(db), 7, raw, Unwatched())
    assert found is not None
    inbound_id, outcome = found
    assert outcome.status == "handled" and outcome.submitted, outcome
    assert "accepted" in accepted_reply(db, inbound_id)
    assert reads == [len(raw)]


def test_a_stored_order_mail_is_read_once_when_it_is_handled(db: Database, reads: list[int]) -> None:
    handler, raw = order_mail(db, trusted=True)
    inbound_id = InboundStore(db).store(None, raw)  # the intake reads its header fields to store it
    assert inbound_id is not None
    reads.clear()
    outcome = handler.handle(inbound_id)
    assert outcome.status == "handled" and outcome.submitted, outcome
    assert "accepted" in accepted_reply(db, inbound_id)
    assert reads == [len(raw)]


def test_a_mail_set_aside_as_it_is_handled_is_finished_answered_and_listed_from_its_one_parse(
        db: Database, reads: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    handler, raw = order_mail(db, trusted=True)
    daemon = MailDaemon(db, imap=ImapUrl.parse("imap://gm:pw@127.0.0.1:1/INBOX"),
                        smtp=SmtpUrl.parse("smtp://127.0.0.1:1"), address=GM)
    daemon.handler = handler

    def overrun(*_: object, **__: object) -> None:
        raise OverBudget("over the time budget")

    monkeypatch.setattr(MailHandler, "_answer", overrun)
    reads.clear()
    daemon._store_handling(7, raw)  # noqa: SLF001 - the worker's step, as the daemon runs it
    assert reads == [len(raw)]  # stored alone, set aside, answered: from the one parse
    [troubled] = troubled_mail(db)
    assert troubled.status == "set_aside" and troubled.subject == "Re: [g] Turn 1"
    assert reads == [len(raw)]  # listed from what the store kept
    with db.session() as session:
        [told] = session.exec(select(OutboundMessageRow).where(OutboundMessageRow.inbound_id == troubled.id)).all()
    assert "reading it took longer than the game master allows" in read_mail(told.raw).body


def test_a_stored_mail_whose_handling_fails_is_answered_from_its_one_parse(
        db: Database, reads: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    handler, raw = order_mail(db, trusted=True)
    inbound_id = InboundStore(db).store(None, raw)
    assert inbound_id is not None

    def fail(*_: object, **__: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(MailHandler, "_answer", fail)
    reads.clear()
    with pytest.raises(MailFailed) as failed:
        handler.handle(inbound_id)
    with db.session() as session:
        told = handler.tell_unhandled(session, inbound_id, (raw, len(raw)), "Your mail could not be handled.",
                                      failed.value.mail)
    assert told == "told"
    assert reads == [len(raw)]
