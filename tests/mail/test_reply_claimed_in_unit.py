"""A mail handled as it is stored has its reply claimed for the sender in its own unit of work, by the reply's
id (DatabaseOutbox.claim_queued): the claim reads nothing back and needs no transaction of its own, the reply's
lease is this daemon's once the unit committed, and nothing is claimed when the unit rolled back, when the
sender is busy, or under a send rate (which claims by the table's count of mails sent)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event
from sqlmodel import select

from pbem.clock import utcnow
from pbem.core import GameRng
from pbem.games import find_game
from pbem.mail.handling.handler import MailHandler
from pbem.mail.outbound.config import SendRate, SmtpUrl
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.running.daemon import DaemonOptions, MailDaemon
from pbem.sandbox.mailclient import plain_mail
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow

GM = "gm@pbem.test"


def order_mail(daemon: MailDaemon) -> bytes:
    """A legal order mail of seat A of a new Turkey Chase game, to its reply address."""
    info = daemon.service.create_game("turkey-chase", "g", seats={s: f"p{s.lower()}@players.test" for s in "ABCD"},
                                      seed=3)
    seat = info.seats[0]
    orders = "\n".join(str(order) for order in find_game("turkey-chase").sample_orders(info.state, seat.name,
                                                                                        GameRng(1)))
    return plain_mail(seat.address, daemon.handler.notifier.reply_address(info.row, seat), "Re: [g] Turn 1",
                      orders + "\n").as_bytes()


def daemon_for(db: Database, options: DaemonOptions | None = None) -> MailDaemon:
    """A daemon alone on ``db``, every mail stored before handled: it handles each mail as it stores it (on a
    database several daemons share it only stores it, for whichever daemon claims it first)."""
    if db.shared:
        pytest.skip("a daemon handles a mail as it stores it only alone on its database (SQLite)")
    daemon = MailDaemon(db, imap=None, smtp=SmtpUrl.parse("smtp://127.0.0.1:1"), address=GM,
                        options=options or DaemonOptions())
    daemon._in_order = True  # noqa: SLF001 - as after a look that found no mail left to handle
    with daemon.service.unit() as unit:  # the games' creation mails are out of the way
        unit.session.connection().execute(OutboundMessageRow.__table__.update().values(status="sent"))
    return daemon


def replies(db: Database) -> list[OutboundMessageRow]:
    with db.session() as session:
        return list(session.exec(select(OutboundMessageRow).where(OutboundMessageRow.purpose == "reply")).all())


def test_a_handled_mail_s_reply_is_claimed_in_its_unit_by_its_id(db: Database) -> None:
    daemon = daemon_for(db)
    raw = order_mail(daemon)
    seen: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        [took], claimed = daemon._store_and_handle([(7, raw)], 4)  # noqa: SLF001 - the worker's step
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    assert took.outcome is not None and took.outcome.status == "handled"
    [reply] = replies(db)
    assert [(mail.id, mail.recipients, mail.purpose, mail.attempts) for mail in claimed] == [
        (reply.id, ("pa@players.test",), "reply", 0)]
    assert claimed[0].raw == reply.raw
    assert reply.status == "queued" and reply.lease_owner == daemon.outbox.owner
    assert reply.lease_until is not None and reply.lease_until > utcnow() + timedelta(seconds=30)
    assert daemon.outbox.holds(reply.id)
    assert DatabaseOutbox(db).claim_due(utcnow(), 10) == []  # another sender passes it by
    outbound_reads = [sql for sql in seen if sql.startswith("SELECT") and "FROM outbound_message" in sql]
    assert outbound_reads == []  # the claim read nothing back


def test_nothing_is_claimed_while_the_sender_is_busy(db: Database) -> None:
    daemon = daemon_for(db)
    [took], claimed = daemon._store_and_handle([(7, order_mail(daemon))], 0)  # noqa: SLF001
    assert took.outcome is not None and claimed == []
    [reply] = replies(db)
    assert reply.lease_owner is None and reply.lease_until is None
    assert [mail.id for mail in DatabaseOutbox(db).claim_due(utcnow(), 10)] == [reply.id]


def test_nothing_is_claimed_under_a_send_rate(db: Database) -> None:
    daemon = daemon_for(db, DaemonOptions(send_rate=SendRate.parse("10/hour")))
    [took], claimed = daemon._store_and_handle([(7, order_mail(daemon))], 4)  # noqa: SLF001
    assert took.outcome is not None and claimed == []
    [reply] = replies(db)
    assert reply.lease_owner is None


def test_a_unit_rolled_back_claims_nothing(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon = daemon_for(db)
    raw = order_mail(daemon)
    original = MailHandler._handle_stored  # noqa: SLF001

    def queue_then_fail(self: MailHandler, *args: object, **kwargs: object) -> object:
        original(self, *args, **kwargs)  # the reply is queued in the unit...
        raise RuntimeError("a bug")  # ...which then rolls back

    monkeypatch.setattr(MailHandler, "_handle_stored", queue_then_fail)
    [_], claimed = daemon._store_and_handle([(7, raw)], 4)  # noqa: SLF001
    assert claimed == []
    assert not any(daemon.outbox.holds(mail.id) for mail in replies(db))
    assert all(mail.lease_owner is None for mail in replies(db))
