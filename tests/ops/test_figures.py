"""The database's figures: stored mail by every status there is, the outbox queue and the ages of what
waits, read through the indexes; the full count by status only as often as asked."""

from __future__ import annotations

from datetime import timedelta

from pbem.clock import utcnow
from pbem.mail.outbound.compose import ComposedMail
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.reading.mailstore import InboundStore
from pbem.ops.figures import StatusCounts, read_figures
from pbem.sandbox.mailclient import plain_mail
from pbem.store import Database


def stored(db: Database, count: int, status: str | None = None) -> list[int]:
    """Store ``count`` mails (each with a Message-ID of its own) and give them ``status`` (None: new)."""
    inbound = InboundStore(db)
    ids = []
    for _ in range(count):
        raw = plain_mail("ann@example.org", "gm@example.org", "hi", "HELP\n").as_bytes()
        inbound_id = inbound.store(None, raw)
        assert inbound_id is not None
        ids.append((inbound_id, raw))
    if status is not None:
        with db.session() as session:
            for inbound_id, raw in ids:
                InboundStore.finish(session, inbound_id, status, None, raw)
    return [inbound_id for inbound_id, _raw in ids]


def test_stored_mail_is_counted_by_every_status_there_is(db: Database) -> None:
    stored(db, 2)
    stored(db, 3, "handled")
    stored(db, 1, "set_aside")  # a status this module does not know of is counted all the same
    figures = read_figures(db)
    assert figures.mails == {"new": 2, "handled": 3, "failed": 0, "set_aside": 1}
    assert figures.oldest_unanswered is not None and 0 <= figures.oldest_unanswered < 60
    assert read_figures(db, now=utcnow() + timedelta(hours=1)).oldest_unanswered >= 3600  # type: ignore[operator]


def test_the_full_count_by_status_is_made_again_only_after_the_recount_time_but_new_mail_always(
        db: Database) -> None:
    moments = iter([0.0, 30.0, 61.0])
    counts = StatusCounts(recount_seconds=60.0, monotonic=lambda: next(moments))
    stored(db, 1, "handled")
    assert read_figures(db, counts).mails["handled"] == 1
    stored(db, 2, "handled")
    stored(db, 1)
    thirty = read_figures(db, counts).mails
    assert thirty["handled"] == 1 and thirty["new"] == 1  # handled as counted at 0 s; new counted afresh
    assert read_figures(db, counts).mails["handled"] == 3


def test_the_outbox_queue_is_counted_by_priority_with_the_age_of_its_oldest_mail(db: Database) -> None:
    outbox = DatabaseOutbox(db)
    mail = ComposedMail(sender="gm@example.org", recipients=("ann@example.org",), message_id="<1@example.org>",
                        raw=b"From: gm@example.org\n\nhello\n")
    with db.session() as session:
        for purpose in ("reply", "report", "report"):
            DatabaseOutbox.enqueue(session, mail, purpose=purpose)
    figures = read_figures(db, now=utcnow() + timedelta(minutes=5))
    assert figures.queued == {"reply": 1, "other": 2}
    assert figures.oldest_queued is not None and 299 <= figures.oldest_queued < 360
    assert figures.as_json()["queued_total"] == 3
    [claimed] = outbox.claim_due(utcnow(), 1)
    assert claimed.purpose == "reply"
    outbox.mark_sent(claimed.id, utcnow())
    assert read_figures(db).queued == {"reply": 0, "other": 2}


def test_the_outbox_overdue_counts_only_mail_due_to_be_sent_not_mail_waiting_for_a_later_try(db: Database) -> None:
    outbox = DatabaseOutbox(db)
    mail = ComposedMail(sender="gm@example.org", recipients=("ann@example.org",), message_id="<1@example.org>",
                        raw=b"From: gm@example.org\n\nhello\n")
    assert read_figures(db).queued_overdue is None
    with db.session() as session:
        DatabaseOutbox.enqueue(session, mail, purpose="report")
    assert read_figures(db, now=utcnow() + timedelta(minutes=10)).queued_overdue >= 600  # type: ignore[operator]
    [claimed] = outbox.claim_due(utcnow(), 1)
    outbox.mark_retry(claimed.id, "451 try later", utcnow() + timedelta(hours=1))
    later = read_figures(db, now=utcnow() + timedelta(minutes=10))
    assert later.queued_overdue is None and later.oldest_queued is not None and later.oldest_queued >= 600
    assert later.as_json()["queued_overdue_seconds"] is None and "longest due: none due" in later.as_text()
    due = read_figures(db, now=utcnow() + timedelta(hours=1, minutes=5)).queued_overdue
    assert due is not None and 290 <= due < 360
