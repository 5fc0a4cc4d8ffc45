"""The inbound store and the database outbox on a real SQLite file."""

from __future__ import annotations

import os
import sqlite3
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Connection, Insert, event
from sqlmodel import select

from pbem.clock import utcnow
from pbem.mail.outbound.compose import compose_notice
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.reading.mailstore import InboundStore, message_id_of
from pbem.mail.reading.redaction import REDACTED_BODY
from pbem.mail.running.retention import MESSAGE_IDS_KEPT, purge_old_mail, reclaim_space
from pbem.store import Database, open_database
from pbem.store.database import WAL_SIZE_LIMIT
from pbem.store.tables import OutboundMessageRow

RAW = b"From: a@example.org\r\nTo: gm@pbem.test\r\nMessage-ID: <m1@example.org>\r\nSubject: x\r\n\r\nSTATUS g\r\n"


def test_a_message_is_stored_once_by_its_message_id(db: Database) -> None:
    inbound = InboundStore(db)
    first = inbound.store(7, RAW)
    assert first is not None
    assert inbound.store(8, RAW) is None  # the same mail again (after a crash, or delivered twice)
    assert inbound.pending() == [first]
    with db.session() as session:
        assert InboundStore.stored(session, first)[:2] == ("new", RAW)
        InboundStore.finish(session, first, "handled", None, RAW)
    assert inbound.pending() == []


def test_a_message_without_message_id_gets_a_stable_one_from_its_bytes() -> None:
    raw = b"From: a@example.org\r\nSubject: x\r\n\r\nhello\r\n"
    assert message_id_of(raw) == message_id_of(raw) != message_id_of(raw + b"!")
    assert message_id_of(RAW) == "<m1@example.org>"


def test_a_from_field_the_address_parser_cannot_read_leaves_the_mail_stored_by_its_message_id(db: Database) -> None:
    # Before: getaddresses raised RecursionError on 100,000 ':' or '(' (the mail could not be stored), and
    # read a megabyte of '@' for 1.5 s.
    inbound = InboundStore(db)
    for number, sender in enumerate((":" * 100_000, "(" * 100_000, "@" * 1_000_000, "x" * 990 + "@example.org")):
        raw = f"Message-ID: <odd{number}@example.org>\r\nFrom: {sender}\r\n\r\nHELP\r\n".encode()
        stored = inbound.store(number, raw)
        assert stored is not None and message_id_of(raw) == f"<odd{number}@example.org>"
        with db.session() as session:
            assert InboundStore.stored(session, stored)[1] == raw
    assert inbound.store(9, RAW) is not None


def test_outbox_claims_once_and_retries_when_due(db: Database) -> None:
    outbox = DatabaseOutbox(db)
    now = utcnow()
    with db.session() as session:
        DatabaseOutbox.enqueue(session, compose_notice(to="b@example.org", from_address="gm@pbem.test",
                                                       subject="s", body="b\n", now=now), purpose="notice")
    [mail] = outbox.claim_due(now + timedelta(seconds=1), 10)
    assert mail.recipients == ("b@example.org",) and mail.sender == "gm@pbem.test"
    assert outbox.claim_due(now + timedelta(seconds=1), 10) == []  # claimed: not handed out twice
    later = now + timedelta(minutes=5)
    outbox.mark_retry(mail.id, "451 try later", later)
    assert outbox.claim_due(now + timedelta(seconds=2), 10) == []
    assert outbox.next_due() == later
    [again] = outbox.claim_due(later, 10)
    assert again.attempts == 1
    outbox.mark_sent(again.id, later)
    assert outbox.claim_due(later + timedelta(hours=1), 10) == [] and outbox.next_due() is None


def test_a_mail_holding_a_password_keeps_only_its_header_once_sent(db: Database) -> None:
    outbox = DatabaseOutbox(db)
    now = utcnow()
    with db.session() as session:
        for to, secret in (("b@example.org", True), ("c@example.org", False)):
            DatabaseOutbox.enqueue(session, compose_notice(to=to, from_address="gm@pbem.test", subject="s",
                                                           body="Your password is hunter2\n", now=now),
                                   purpose="notice", secret=secret)
    for mail in outbox.claim_due(now + timedelta(seconds=1), 10):
        outbox.mark_sent(mail.id, now)
    with db.session() as session:
        kept = {row.recipients[0]: row.raw for row in session.exec(select(OutboundMessageRow))}
    assert kept["b@example.org"].endswith(REDACTED_BODY) and b"hunter2" not in kept["b@example.org"]
    assert b"To: b@example.org" in kept["b@example.org"]
    assert b"hunter2" in kept["c@example.org"]


def test_retention_empties_handled_mail_and_deletes_sent_mail_but_keeps_what_is_waiting(db: Database) -> None:
    inbound, outbox = InboundStore(db), DatabaseOutbox(db)
    handled = inbound.store(1, RAW)
    waiting = inbound.store(2, RAW.replace(b"<m1@", b"<m2@"))
    assert handled is not None and waiting is not None
    now = utcnow()
    with db.session() as session:
        InboundStore.finish(session, handled, "handled", None, RAW)
        for to in ("b@example.org", "c@example.org"):
            DatabaseOutbox.enqueue(session, compose_notice(to=to, from_address="gm@pbem.test", subject="s",
                                                           body="b\n", now=now), purpose="notice")
    sent, queued = outbox.claim_due(now + timedelta(seconds=1), 10)
    outbox.mark_sent(sent.id, now)
    assert purge_old_mail(db, now - timedelta(days=1))[:2] == (0, 0)  # nothing is older than the retention yet
    assert purge_old_mail(db, utcnow() + timedelta(seconds=1))[:2] == (1, 1)
    with db.session() as session:
        assert InboundStore.stored(session, handled)[:2] == ("handled", b"")  # its Message-ID row stays
        assert InboundStore.stored(session, waiting)[:2] == ("new", RAW.replace(b"<m1@", b"<m2@"))
        rows = session.exec(select(OutboundMessageRow)).all()
    assert [(row.id, row.status) for row in rows] == [(queued.id, "queued")]
    assert inbound.store(3, RAW) is None  # a purged mail delivered again is still recognised


def test_the_row_of_a_handled_mail_goes_a_month_after_its_text_unless_a_waiting_answer_names_it(db: Database) -> None:
    inbound = InboundStore(db)
    answered, alone = inbound.store(1, RAW), inbound.store(2, RAW.replace(b"<m1@", b"<m2@"))
    assert answered is not None and alone is not None
    with db.session() as session:
        for stored in (answered, alone):
            InboundStore.finish(session, stored, "handled", None, RAW)
        DatabaseOutbox.enqueue(session, compose_notice(to="a@example.org", from_address="gm@pbem.test", subject="s",
                                                       body="b\n", now=utcnow()), purpose="reply", inbound_id=answered)
    after_text = utcnow() + timedelta(seconds=1)
    assert purge_old_mail(db, after_text) == (2, 0, False, 0)  # the texts go; the Message-IDs stay a while
    assert purge_old_mail(db, after_text + MESSAGE_IDS_KEPT - timedelta(minutes=1)).forgotten == 0
    assert purge_old_mail(db, after_text + MESSAGE_IDS_KEPT).forgotten == 1
    with db.session() as session:
        assert InboundStore.stored(session, answered)[:2] == ("handled", b"")  # its answer is still queued
    assert inbound.store(3, RAW) is None
    assert inbound.store(4, RAW.replace(b"<m1@", b"<m2@")) is not None  # forgotten: stored as a new mail


def test_a_durable_store_syncs_its_commit_and_leaves_the_connection_as_it_was(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL syncs every commit (synchronous_commit is on)")
    synchronous: list[int] = []  # SQLite's setting as each INSERT ran: 2 FULL, 1 NORMAL

    def after_insert(connection: Connection, statement: object, *_args: object) -> None:
        if isinstance(statement, Insert):
            synchronous.append(connection.exec_driver_sql("PRAGMA synchronous").scalar_one())

    event.listen(db.engine, "after_execute", after_insert)
    inbound = InboundStore(db)
    assert inbound.store(None, RAW, durable=True) is not None
    assert inbound.store(None, RAW, durable=True) is None  # refused (stored before): restored all the same
    assert inbound.store(None, RAW.replace(b"<m1@", b"<m2@")) is not None
    assert synchronous == [2, 1]


def test_a_scrub_leaves_no_removed_password_in_the_sqlite_files_and_never_waits_for_a_reader(tmp_path: Path) -> None:
    path = tmp_path / "scrub.db"
    db = open_database(str(path))
    try:
        inbound = InboundStore(db)
        secret = RAW.replace(b"\r\n\r\n", b"\r\n\r\nSIGNON tc-1 A hunter2secret\r\n", 1)
        stored = inbound.store(1, secret)
        assert stored is not None
        reader = sqlite3.connect(path)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM inbound_message").fetchall()  # a reader in another process holds the log
        with db.session() as session:
            assert InboundStore.finish(session, stored, "handled", None, secret)
        db.forgot_secret()
        started = time.monotonic()
        assert db.scrub() is False and db.has_forgotten  # not now: the next scrub tries again
        assert time.monotonic() - started < 1
        reader.rollback()
        reader.close()
        assert db.scrub() is True and not db.has_forgotten
        wal = path.with_name("scrub.db-wal")
        assert wal.stat().st_size == 0
        assert b"hunter2secret" not in path.read_bytes()
    finally:
        db.close()


def _mail_tables_bytes(db: Database) -> int:
    """The room the outbox takes: its table with its indexes and out-of-line values (PostgreSQL), or the pages
    of the database file in use (SQLite)."""
    with db.engine.connect() as connection:
        if db.engine.dialect.name == "postgresql":
            return int(connection.exec_driver_sql("SELECT pg_total_relation_size('outbound_message')").scalar() or 0)
        pages = connection.exec_driver_sql("PRAGMA page_count").scalar() or 0
        return int(pages) * int(connection.exec_driver_sql("PRAGMA page_size").scalar() or 0)


def _sent_mails(db: Database, count: int, sent_at: datetime) -> None:
    with db.session() as session:
        for _ in range(count):
            session.add(OutboundMessageRow(created_at=sent_at, sender="gm@pbem.test", recipients=["a@example.org"],
                                           raw=os.urandom(6000), status="sent", next_attempt_at=sent_at,
                                           sent_at=sent_at))


def test_the_room_of_purged_mail_is_used_again_so_the_database_levels_off(db: Database) -> None:
    old = utcnow() - timedelta(days=8)
    _sent_mails(db, 300, old)
    full = _mail_tables_bytes(db)
    for _ in range(3):  # three weeks of the same mail, each purged before the next: no more room than one
        assert purge_old_mail(db, utcnow()).outbound == 300
        reclaim_space(db)
        _sent_mails(db, 300, old)
    assert _mail_tables_bytes(db) < full * 1.2, (full, _mail_tables_bytes(db))


def test_the_write_ahead_log_is_cut_back_after_a_checkpoint(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's write-ahead log")
    wal = Path(str(db.engine.url.database) + "-wal")
    _sent_mails(db, 2000, utcnow())  # one transaction of some 12 MB: the log grows past it
    assert wal.stat().st_size > 3 * WAL_SIZE_LIMIT
    with db.engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
    _sent_mails(db, 1, utcnow())  # the next write starts the log afresh, cut back to the limit
    assert wal.stat().st_size <= WAL_SIZE_LIMIT


def _sqlite_files_bytes(db: Database) -> int:
    """The bytes of the SQLite database's file and its write-ahead log."""
    path = Path(str(db.engine.url.database))
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def test_a_purge_of_a_big_batch_gives_the_room_back_to_the_file_system_on_sqlite(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's file (PostgreSQL's room is reused after VACUUM: the test above)")
    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA auto_vacuum").scalar() == 2  # incremental, from the start
    _sent_mails(db, 2000, utcnow() - timedelta(days=8))  # some 12 MB
    full = _sqlite_files_bytes(db)
    while purge_old_mail(db, utcnow()).more:
        pass
    reclaim_space(db)
    assert _sqlite_files_bytes(db) < full / 10, (full, _sqlite_files_bytes(db))
    assert Path(str(db.engine.url.database) + "-wal").stat().st_size == 0


def test_giving_the_room_back_never_waits_for_a_reader_of_the_sqlite_file(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's file")
    _sent_mails(db, 300, utcnow() - timedelta(days=8))
    assert purge_old_mail(db, utcnow()).outbound == 300
    reader = sqlite3.connect(str(db.engine.url.database))
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM outbound_message").fetchall()  # holds the log: no full checkpoint
        started = time.monotonic()
        reclaim_space(db)
        assert time.monotonic() - started < 1
        assert db.checkpoint() is False
    finally:
        reader.rollback()
        reader.close()
    assert db.checkpoint() is True
    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA freelist_count").scalar() == 0
