"""The tries of a failing mail as the database keeps them: when it is tried again, what waits for it,
and the migration that added them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from pbem.mail.reading.mailstore import InboundStore
from pbem.mail.running.retries import MAX_TRIES, is_first_end, next_try
from pbem.store import Database, open_database
from pbem.store.database import _MIGRATIONS

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def raw(sender: str, number: int) -> bytes:
    return f"From: {sender}\r\nSubject: s\r\nMessage-ID: <{number}@x>\r\n\r\nHELP\r\n".encode()


def test_the_pause_doubles_from_the_first_and_the_mail_is_given_up_after_the_last_try() -> None:
    pauses = [next_try(NOW, attempts) for attempts in range(1, MAX_TRIES + 1)]
    assert pauses == [NOW + timedelta(minutes=1), NOW + timedelta(minutes=2), NOW + timedelta(minutes=4),
                      NOW + timedelta(minutes=8), None]
    assert next_try(NOW, 2, timedelta(seconds=3)) == NOW + timedelta(seconds=6)
    assert is_first_end(MAX_TRIES) and not is_first_end(MAX_TRIES + 1)


def test_a_mail_waiting_for_its_next_try_holds_back_its_senders_later_mail_but_no_one_elses(db: Database) -> None:
    inbound = InboundStore(db)
    waiting, later, other = (inbound.store(None, raw(sender, n))
                             for n, sender in enumerate(("a@x.org", "a@x.org", "b@x.org")))
    with db.session() as session:
        assert InboundStore.count_try(session, waiting) is not None
        InboundStore.schedule(session, waiting, "new", "RuntimeError: boom", datetime.now(UTC) + timedelta(hours=1))
    with db.session() as session:
        assert InboundStore.claim_next(session) == other
        InboundStore.finish(session, other, "handled", None, raw("b@x.org", 2))
    with db.session() as session:
        assert InboundStore.claim_next(session) is None  # the waiting one is not due, and `later` waits for it
    assert inbound.has_new()
    with db.session() as session:
        InboundStore.schedule(session, waiting, "new", "RuntimeError: boom", datetime.now(UTC) - timedelta(seconds=1))
    with db.session() as session:
        assert InboundStore.claim_next(session) == waiting
        attempts, stored, size = InboundStore.count_try(session, waiting) or (0, b"", 0)
        assert attempts == 2 and stored == raw("a@x.org", 0) and size == len(stored)
        InboundStore.schedule(session, waiting, "failed", "RuntimeError: boom")
    with db.session() as session:
        assert InboundStore.claim_next(session) == later
    assert later is not None


def test_counting_a_try_of_a_mail_handled_meanwhile_counts_nothing(db: Database) -> None:
    inbound_id = InboundStore(db).store(None, raw("a@x.org", 1))
    assert inbound_id is not None
    with db.session() as session:
        InboundStore.finish(session, inbound_id, "handled", None, raw("a@x.org", 1))
    with db.session() as session:
        assert InboundStore.count_try(session, inbound_id) is None


def test_the_migration_adds_the_tries_and_going_back_makes_set_aside_mail_failed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    database = open_database(str(path))
    inbound = InboundStore(database)
    aside = inbound.store(None, raw("a@x.org", 1))
    assert aside is not None
    with database.session() as session:
        InboundStore.count_try(session, aside)
        InboundStore.schedule(session, aside, "set_aside", "over the time budget of 2 s")
    database.close()
    downgrade(path, "0011")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT status FROM inbound_message")).all() == [("failed",)]
    engine.dispose()
    database = open_database(str(path))  # migrates to the newest schema again
    try:
        with database.engine.connect() as connection:
            assert connection.execute(text("SELECT status, attempts, next_attempt_at FROM inbound_message")).all() == [
                ("failed", 0, None)]
    finally:
        database.close()


def downgrade(path: Path, revision: str) -> None:
    """Take the SQLite database at ``path`` back to the schema of migration ``revision``."""
    engine = create_engine(f"sqlite:///{path}")
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
    engine.dispose()
