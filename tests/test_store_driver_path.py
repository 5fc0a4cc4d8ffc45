"""The statements run on SQLite's driver (pbem.store.driver_path) read and write what SQLAlchemy does, and fail as
it fails."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest
from sqlalchemy import bindparam, event, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from pbem.clock import utcnow
from pbem.store import Database, is_transient_error
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import OutboundMessageRow

_OUTBOUND = OutboundMessageRow.__table__  # type: ignore[attr-defined]
_COLUMNS = (_OUTBOUND.c.id, _OUTBOUND.c.recipients, _OUTBOUND.c.raw, _OUTBOUND.c.secret, _OUTBOUND.c.next_attempt_at,
            _OUTBOUND.c.sent_at)
_BY_ID = select(*_COLUMNS).where(_OUTBOUND.c.id == bindparam("_id"))
_UPDATE = update(_OUTBOUND).where(_OUTBOUND.c.id == bindparam("_id"))


def queue_mail(db: Database, now: datetime, *, secret: bool) -> int:
    with db.engine.begin() as connection:
        result = connection.execute(insert(_OUTBOUND), {
            "created_at": now, "sender": "gm@x.test", "recipients": ["a@x.test", "b@x.test"], "raw": b"mail\x00bytes",
            "status": "queued", "attempts": 0, "next_attempt_at": now, "purpose": "reply", "secret": secret,
            "priority": 0})
        return result.inserted_primary_key[0]


def test_a_select_on_the_driver_reads_the_values_sqlalchemy_reads(db: Database) -> None:
    now = utcnow()
    ids = [queue_mail(db, now, secret=secret) for secret in (True, False)]
    every = DriverStatement(select(*_COLUMNS).order_by(_OUTBOUND.c.id))
    one = DriverStatement(_BY_ID)
    with db.engine.begin() as connection:
        assert every.all(connection, {}) == [tuple(row) for row in connection.execute(every.statement)]
        found = one.first(connection, {"_id": ids[0]})
        assert found == (ids[0], ["a@x.test", "b@x.test"], b"mail\x00bytes", True, now, None)
        assert one.first(connection, {"_id": -1}) is None


def test_an_update_on_the_driver_sets_the_columns_its_parameters_name(db: Database) -> None:
    now = utcnow()
    mail_id = queue_mail(db, now, secret=False)
    statement = DriverStatement(_UPDATE)
    sent = now + timedelta(seconds=3)
    with db.engine.begin() as connection:
        assert statement.run(connection, {"_id": mail_id, "status": "sent", "sent_at": sent}) == 1
        assert statement.run(connection, {"_id": mail_id, "secret": True}) == 1  # another set of columns
        assert statement.run(connection, {"_id": -1, "status": "sent"}) == 0
    with db.engine.begin() as connection:
        row = connection.execute(select(OutboundMessageRow.status, OutboundMessageRow.sent_at,
                                        OutboundMessageRow.secret, OutboundMessageRow.next_attempt_at)).one()
    assert tuple(row) == ("sent", sent, True, now)


def test_an_update_rolled_back_leaves_nothing(db: Database) -> None:
    mail_id = queue_mail(db, utcnow(), secret=False)
    with pytest.raises(RuntimeError), db.engine.begin() as connection:
        DriverStatement(_UPDATE).run(connection, {"_id": mail_id, "status": "sent"})
        raise RuntimeError("rolled back")
    with db.engine.begin() as connection:
        assert connection.execute(select(OutboundMessageRow.status)).scalar_one() == "queued"


def test_a_locked_sqlite_database_fails_as_sqlalchemy_fails_transiently(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("the driver path runs on SQLite only")
    mail_id = queue_mail(db, utcnow(), secret=False)
    other = sqlite3.connect(db.engine.url.database or "", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with db.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA busy_timeout=0")
            with pytest.raises(OperationalError) as failure:
                DriverStatement(_UPDATE).run(connection, {"_id": mail_id, "status": "sent"})
            connection.rollback()
            connection.exec_driver_sql("PRAGMA busy_timeout=10000")
        assert "locked" in str(failure.value) and is_transient_error(failure.value)
    finally:
        other.execute("ROLLBACK")
        other.close()


@contextmanager
def statements_seen(db: Database) -> Iterator[list[str]]:
    """The statements SQLAlchemy executes on ``db``'s engine while the block runs (a listener on the engine: the
    driver path then steps aside)."""
    seen: list[str] = []

    def statement_seen(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", statement_seen)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", statement_seen)


def test_a_statement_goes_through_sqlalchemy_while_something_listens_to_the_engine(db: Database) -> None:
    mail_id = queue_mail(db, utcnow(), secret=False)
    with statements_seen(db) as seen, db.engine.begin() as connection:
        assert DriverStatement(_BY_ID).first(connection, {"_id": mail_id}) is not None
    assert len(seen) == 1 and seen[0].startswith("SELECT outbound_message.id")


def status_of(db: Database, mail_id: int) -> str:
    """The status of mail ``mail_id`` as another connection reads it (what was committed)."""
    with db.engine.connect() as connection:
        return connection.execute(select(OutboundMessageRow.status).where(OutboundMessageRow.id == mail_id)).scalar_one()


def left_in_transaction(db: Database) -> bool:
    """Whether the SQLite connection this thread keeps is left in a transaction of its driver's (False elsewhere)."""
    kept = db._kept.get(threading.get_ident())  # noqa: SLF001 - the kept connection itself (SQLite only)
    return kept is not None and db.engine.dialect.name == "sqlite" and kept.connection.driver_connection.in_transaction


def test_a_write_alone_is_committed_in_a_transaction_of_its_own(db: Database) -> None:
    mail_id = queue_mail(db, utcnow(), secret=False)
    statement = DriverStatement(_UPDATE)
    assert db.write_alone(statement, {"_id": mail_id, "status": "sent"}) == 1
    assert status_of(db, mail_id) == "sent"
    assert db.write_alone(statement, {"_id": -1, "status": "failed"}) == 0
    db.keep_connection()  # the worker's way: on the connection this thread keeps, which is left in no transaction
    try:
        assert db.write_alone(statement, {"_id": mail_id, "status": "failed"}) == 1
        assert not left_in_transaction(db) and status_of(db, mail_id) == "failed"
        with db.begin() as connection:  # the kept connection goes on as before
            assert statement.run(connection, {"_id": mail_id, "status": "queued"}) == 1
        assert status_of(db, mail_id) == "queued"
    finally:
        db.give_back_connection(threading.get_ident())


def test_a_write_alone_that_fails_is_rolled_back_and_raised_as_sqlalchemy_raises_it(db: Database) -> None:
    mail_id = queue_mail(db, utcnow(), secret=False)
    other = queue_mail(db, utcnow(), secret=False)
    db.keep_connection()
    try:
        with pytest.raises(IntegrityError):  # the second row's id taken: the statement fails
            db.write_alone(DriverStatement(_UPDATE), {"_id": other, "id": mail_id})
        assert not left_in_transaction(db)
        assert db.write_alone(DriverStatement(_UPDATE), {"_id": other, "status": "sent"}) == 1  # nothing left open
    finally:
        db.give_back_connection(threading.get_ident())
    assert (status_of(db, mail_id), status_of(db, other)) == ("queued", "sent")


def test_a_write_alone_on_a_locked_sqlite_database_fails_transiently_and_leaves_nothing_open(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("the driver path runs on SQLite only")
    mail_id = queue_mail(db, utcnow(), secret=False)
    db.keep_connection()
    other = sqlite3.connect(db.engine.url.database or "", isolation_level=None)
    try:
        with db.lent(threading.get_ident()):  # as the event loop marks mail: no waiting for the lock
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            try:
                with pytest.raises(OperationalError) as failure:
                    db.write_alone(DriverStatement(_UPDATE), {"_id": mail_id, "status": "sent"})
            finally:
                other.execute("ROLLBACK")
            assert "locked" in str(failure.value) and is_transient_error(failure.value)
            assert not left_in_transaction(db)
            assert db.write_alone(DriverStatement(_UPDATE), {"_id": mail_id, "status": "sent"}) == 1
    finally:
        other.close()
        db.give_back_connection(threading.get_ident())
    assert status_of(db, mail_id) == "sent"


def test_a_write_alone_goes_through_sqlalchemy_while_something_listens_to_the_engine(db: Database) -> None:
    mail_id = queue_mail(db, utcnow(), secret=False)
    with statements_seen(db) as seen:
        assert db.write_alone(DriverStatement(_UPDATE), {"_id": mail_id, "status": "sent"}) == 1
    assert len(seen) == 1 and seen[0].startswith("UPDATE outbound_message SET status")
    assert status_of(db, mail_id) == "sent"
