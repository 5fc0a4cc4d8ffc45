"""The inbound mail table as the transport sees it: the raw mail, stored once and handed out to be handled.

A message is stored (raw bytes, Message-ID, UID) and committed before
the intake flags it on the server; a message seen again (after a crash, or
delivered twice) is recognised by its Message-ID and not stored again. It is
handled in one transaction that holds its row lock: several daemons take the
next new mail each with ``FOR UPDATE SKIP LOCKED``, so none takes a mail
another is handling, and a daemon that dies mid-mail loses its connection and
with it the lock, so another one handles the mail from scratch. The outbound
table is :mod:`pbem.mail.outbound.queue`'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime

from sqlalchemy import Connection, bindparam, exists, insert, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from pbem.clock import utcnow
from pbem.mail.reading.bounded_mime import DEFAULT_MAX_SIZE, OVERSIZED_PREFIX
from pbem.mail.reading.identity import StoredIdentity, identity_of, stored_header
from pbem.mail.reading.parse import decode_words
from pbem.mail.reading.redaction import holds_password, redacted
from pbem.store import Database
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import InboundMessageRow

_INBOUND = InboundMessageRow.__table__  # type: ignore[attr-defined]
# Statements built once (SQLAlchemy then also keeps their cache keys): building a statement
# costs more than running it on SQLite.
_STORE_INBOUND = DriverStatement(insert(_INBOUND))
_INBOUND_STATUS_RAW = sa_select(_INBOUND.c.status, _INBOUND.c.raw, _INBOUND.c.size).where(
    _INBOUND.c.id == bindparam("_id")).with_for_update()
_OLDER = _INBOUND.alias("older")
_NEXT_NEW = (  # the oldest new mail whose sender has no older one waiting (which another daemon may be handling)
    sa_select(_INBOUND.c.id)
    .where(_INBOUND.c.status == "new",
           or_(_INBOUND.c.next_attempt_at.is_(None), _INBOUND.c.next_attempt_at <= bindparam("now")),
           ~exists().where(_OLDER.c.status == "new", _OLDER.c.sender == _INBOUND.c.sender,
                           _OLDER.c.id < _INBOUND.c.id))
    .order_by(_INBOUND.c.id).limit(1)
    .with_for_update(skip_locked=True))
_NEW_AFTER = (sa_select(_INBOUND.c.id).where(_INBOUND.c.status == "new", _INBOUND.c.id > bindparam("after"))
              .order_by(_INBOUND.c.id).limit(bindparam("limit")))
_SET_INBOUND_STATUS = DriverStatement(update(_INBOUND).where(_INBOUND.c.id == bindparam("_id")))
_ANY_NEW = sa_select(_INBOUND.c.id).where(_INBOUND.c.status == "new").limit(1)
_COUNT_TRY = (update(_INBOUND).where(_INBOUND.c.id == bindparam("_id"), _INBOUND.c.status == "new")
               .values(attempts=_INBOUND.c.attempts + 1)
               .returning(_INBOUND.c.attempts, _INBOUND.c.raw, _INBOUND.c.size))


def message_id_of(raw: bytes) -> str:
    """Return the Message-ID of a raw message, or a stable one made from its bytes when it has none."""
    return identity_of(raw).message_id


def subject_of(raw: bytes, stored: str | None = None) -> str:
    """The Subject of a stored message, its encoded words decoded, at most 200 characters ('' when none): from
    ``stored``, the field as the store kept it, else (mail stored before that was kept) read from ``raw``'s
    header fields."""
    field = str(stored_header(raw).get("Subject", "") or "") if stored is None else stored
    return " ".join(decode_words(field).split())[:200]




class InboundStore:
    """Stores inbound mail exactly once and hands out what is still to be handled.

    A mail over ``max_size`` bytes is stored as its first
    :data:`OVERSIZED_PREFIX` bytes and its size: it is only answered with a
    refusal, and a stranger must not fill the disk with big mail.
    """

    def __init__(self, db: Database, *, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.db = db
        self.max_size = max_size

    def store(self, uid: int | None, raw: bytes, *, size: int | None = None, durable: bool = False,
              identity: StoredIdentity | None = None) -> int | None:
        """Store a message and commit; return its row id, or None when its Message-ID was stored before.
        ``size``: the message's size when ``raw`` is only its beginning (read from a stream). With
        ``durable`` the commit is on the disk when this returns, also on SQLite (whose WAL is otherwise
        synced at checkpoints only, so a power cut may undo the last commits): for mail whose sender
        drops its copy once told it is stored (LMTP, ``pbem deliver``), unlike a mailbox's mail. ``identity``:
        as :meth:`insert` takes it."""
        try:
            with self._transaction(durable) as connection:  # one INSERT: no ORM session needed
                return self.insert(connection, uid, raw, size=size, identity=identity)
        except IntegrityError:
            return None

    def insert(self, connection: Connection, uid: int | None, raw: bytes, *, size: int | None = None,
               identity: StoredIdentity | None = None, handled_in_unit: bool = False) -> int:
        """Insert a message (as :meth:`store` does) in ``connection``'s transaction, without committing, and
        return its row id; raises IntegrityError when its Message-ID was stored before. ``identity``: its
        Message-ID, sender and subject (:func:`~pbem.mail.reading.identity.identity_from`) when the caller read them
        already (the one parse of a mail handled as it is stored), else they are read from its header fields.
        ``handled_in_unit``: the same transaction handles the mail and records how that ended (:meth:`finish`)
        before it commits, so nobody ever sees it new: it is written as handled at once, and the two indexes of
        new mail are not written for a row that would leave them in the same transaction (two pages of the
        database's log a mail)."""
        found = identity_of(raw) if identity is None else identity
        size = len(raw) if size is None else size
        now = utcnow()
        return _STORE_INBOUND.new_id(  # a Message-ID stored before fails its unique index
            connection,
            {"message_id": found.message_id, "uid": uid, "raw": self.kept(raw, size), "size": size,
             "received_at": now, "sender": found.sender, "subject": found.subject,
             **({"status": "handled", "handled_at": now} if handled_in_unit else {"status": "new"})},
        )

    @contextlib.contextmanager
    def _transaction(self, durable: bool) -> Iterator[Connection]:
        """A connection in a transaction that commits when the block ends; with ``durable`` on SQLite the
        commit is synced to the disk (``synchronous=FULL`` for it, then the connection's NORMAL again)."""
        if not (durable and self.db.engine.dialect.name == "sqlite"):
            with self.db.engine.begin() as connection:
                yield connection
            return
        with self.db.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA synchronous=FULL")  # outside a transaction, or it does nothing
            connection.commit()
            try:
                with connection.begin():
                    yield connection
            finally:
                connection.exec_driver_sql("PRAGMA synchronous=NORMAL")
                connection.commit()

    def kept(self, raw: bytes, size: int | None = None) -> bytes:
        """The bytes :meth:`store` keeps of ``raw`` (of ``size`` bytes, when it is only the mail's beginning):
        all of it, or the prefix of an oversized mail."""
        return raw if (len(raw) if size is None else size) <= self.max_size else raw[:OVERSIZED_PREFIX]

    def pending(self, limit: int = 100, *, after: int = 0) -> list[int]:
        """Return the ids of stored messages not yet handled, oldest first; only ids above ``after``
        when given (an index holds the new messages, so this costs what it returns)."""
        with self.db.engine.connect() as connection:
            return [row.id for row in connection.execute(_NEW_AFTER, {"after": after, "limit": limit})]

    @staticmethod
    def claim_next(session: Session) -> int | None:
        """Lock the oldest stored message not yet handled (and, after a failed try, due to be tried again:
        see :mod:`pbem.mail.running.retries`) for ``session``'s transaction and return its id;
        None when there is none, or when other transactions hold the lock of every one (``SKIP LOCKED``:
        another daemon is handling them). A message waits while an older one from its sender is not
        handled yet: one sender's mail is handled in the order it arrived (a later mail's orders replace
        an earlier one's), whichever daemon handles it."""
        return session.connection().execute(_NEXT_NEW, {"now": utcnow()}).scalar()

    def has_new(self) -> bool:
        """True when any stored message is not yet handled: one waiting for its next try (see
        :mod:`pbem.mail.running.retries`), or one another daemon is handling."""
        with self.db.engine.connect() as connection:
            return connection.execute(_ANY_NEW).first() is not None

    @staticmethod
    def count_try(session: Session, inbound_id: int) -> tuple[int, bytes, int] | None:
        """Count, in ``session``'s transaction, a failed try of a message not yet handled; return the tries
        counted so far, the stored bytes and the size as received, or None when the message was handled
        meanwhile (then nothing is counted). :meth:`schedule` then says what becomes of it."""
        found = session.connection().execute(_COUNT_TRY, {"_id": inbound_id}).first()
        if found is None:
            return None
        return found.attempts, found.raw, found.size if found.size is not None else len(found.raw)

    @staticmethod
    def schedule(session: Session, inbound_id: int, status: str, error: str,
                 next_attempt: datetime | None = None, *, at: datetime | None = None) -> None:
        """Record in ``session``'s transaction what becomes of a message whose try failed: ``new`` again, to
        be tried at ``next_attempt``, or the status it ends with (``failed``, ``set_aside``); with the error
        (its first 1000 characters). ``at``: as :meth:`finish` takes it."""
        _SET_INBOUND_STATUS.run(session.connection(), {
            "_id": inbound_id, "status": status, "error": error[:1000], "next_attempt_at": next_attempt,
            "handled_at": None if status == "new" else at or utcnow()})

    @staticmethod
    def stored(session: Session, inbound_id: int) -> tuple[str, bytes, int]:
        """Return one stored message's status, stored bytes, and size as received (the bytes of an
        oversized mail are only its beginning), read in ``session``'s transaction, which holds the
        message's lock from then on (waiting while another transaction handles it)."""
        found = session.connection().execute(_INBOUND_STATUS_RAW, {"_id": inbound_id}).first()
        if found is None:
            raise KeyError(f"no inbound message {inbound_id}")
        return found.status, found.raw, found.size if found.size is not None else len(found.raw)

    @staticmethod
    def finish(session: Session, inbound_id: int, status: str, error: str | None, raw: bytes, *,
               held_password: bool | None = None, at: datetime | None = None) -> bool:
        """Record in ``session``'s transaction, with one UPDATE, that a message's handling ended with
        ``status`` (handled, failed, ...; ``error`` says why), and, when it may hold a password, keep only
        its header fields of ``raw`` (its stored bytes) from then on: every end of a mail's handling goes
        through here. ``held_password``: whether it held one, when the caller knows (None: decided by
        :func:`~pbem.mail.reading.redaction.holds_password`). Returns True when the body was removed (the database's
        old pages then still hold it: see :meth:`~pbem.store.Database.scrub`). ``at``: when it was handled by the
        service's clock (the daemon's: its retention counts the mail's age on it, see
        :mod:`pbem.mail.running.retention`); the wall clock's now when not given."""
        values: dict[str, object] = {"_id": inbound_id, "status": status, "error": error,
                                     "handled_at": at or utcnow()}
        held = holds_password(raw) if held_password is None else held_password
        if held:
            values["raw"] = redacted(raw)
        _SET_INBOUND_STATUS.run(session.connection(), values)
        return held
