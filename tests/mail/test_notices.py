"""Reports and notices queued by the notifier, on a real SQLite file."""

from __future__ import annotations

from sqlmodel import select

from pbem.clock import utcnow
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow


def test_a_stored_address_no_mail_can_reach_is_skipped_and_the_turn_still_resolves(
        tiny_game: str, db: Database) -> None:
    runner = GameService(db)
    notifier = MailNotifier(address="gm@pbem.test", tokens=ReplyTokens(b"k" * 16), clock=utcnow)
    runner.on_resolved.append(notifier.on_resolved)
    runner.create_game("tiny", "t1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3,
                       gm_address="boss@example.org")
    with runner.unit() as unit:  # an address stored before addresses were checked
        seat = unit.seat(unit.game("t1"), "1")
        seat.address = "alice"
        unit.add(seat)
    runner.resolve("t1")
    assert runner.info("t1").row.turn == 2
    with db.session() as session:
        recipients = sorted(r for row in session.exec(select(OutboundMessageRow)) for r in row.recipients)
    assert recipients == ["b@example.org", "boss@example.org"]
