"""The mail tables as the transport sees them: the inbound store and the durable outbox.

Inbound: a message is stored (raw bytes, Message-ID, UID) and committed before
the intake flags it on the server; a message seen again (after a crash, or
delivered twice) is recognised by its Message-ID and not stored again. It is
handled in one transaction that holds its row lock: several daemons take the
next new mail each with ``FOR UPDATE SKIP LOCKED``, so none takes a mail
another is handling, and a daemon that dies mid-mail loses its connection and
with it the lock, so another one handles the mail from scratch.
Outbound: replies and reports are queued in the same transaction as the
change they report, and the SMTP sender drains the queue: replies first, then
reports and notices, each claimed for a lease (``lease_until``, held by
``lease_owner``) that another daemon's sender takes over when the holder died
before it recorded the mail. On a shared database the lease is short and the
holder renews it while it lives (:class:`~pbem.mail.leases.LeaseKeeper`), so a
dead daemon's mail goes out within seconds.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from email.utils import getaddresses

from sqlalchemy import Connection, bindparam, case, exists, insert, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func

from pbem.clock import utcnow
from pbem.mail.compose import ComposedMail
from pbem.mail.config import SendRate
from pbem.mail.outbox import OutgoingMail
from pbem.mail.identity import StoredIdentity, identity_of, stored_header
from pbem.mail.parse import decode_words
from pbem.mail.policy import DEFAULT_MAX_SIZE, OVERSIZED_PREFIX
from pbem.mail.redaction import holds_password, redacted
from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

_INBOUND = InboundMessageRow.__table__  # type: ignore[attr-defined]
_OUTBOUND = OutboundMessageRow.__table__  # type: ignore[attr-defined]
# Statements built once (SQLAlchemy then also keeps their cache keys): building a statement
# costs more than running it on SQLite.
_STORE_INBOUND = insert(_INBOUND)
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
_SET_INBOUND_STATUS = update(_INBOUND).where(_INBOUND.c.id == bindparam("_id"))
_ANY_NEW = sa_select(_INBOUND.c.id).where(_INBOUND.c.status == "new").limit(1)
_COUNT_TRY = (update(_INBOUND).where(_INBOUND.c.id == bindparam("_id"), _INBOUND.c.status == "new")
               .values(attempts=_INBOUND.c.attempts + 1)
               .returning(_INBOUND.c.attempts, _INBOUND.c.raw, _INBOUND.c.size))
_ENQUEUE = insert(_OUTBOUND)
_RECIPIENTS = sa_select(_OUTBOUND.c.recipients).where(_OUTBOUND.c.id == bindparam("_id"))
_REQUEUE_BOUNCED = (  # a soft bounce: the mail goes again, while its body is kept and it went few times
    update(_OUTBOUND)
    .where(_OUTBOUND.c.id == bindparam("_id"), _OUTBOUND.c.status == "sent", _OUTBOUND.c.secret.is_(False),
           _OUTBOUND.c.attempts < bindparam("most"))
    .values(status="queued", attempts=_OUTBOUND.c.attempts + 1, next_attempt_at=bindparam("at"),
            last_error=bindparam("error"), sent_at=None))
_UPDATE_OUTBOUND = update(_OUTBOUND).where(_OUTBOUND.c.id == bindparam("_id"))
_FREE = or_(_OUTBOUND.c.lease_until.is_(None), _OUTBOUND.c.lease_until <= bindparam("now"))
_CLAIM_DUE = (  # replies first; rows another sender is claiming are passed by (SKIP LOCKED)
    sa_select(_OUTBOUND.c.id, _OUTBOUND.c.sender, _OUTBOUND.c.recipients, _OUTBOUND.c.raw, _OUTBOUND.c.attempts,
              _OUTBOUND.c.secret, _OUTBOUND.c.purpose)
    .where(_OUTBOUND.c.status == "queued", _OUTBOUND.c.next_attempt_at <= bindparam("now"), _FREE)
    .order_by(_OUTBOUND.c.priority, _OUTBOUND.c.next_attempt_at, _OUTBOUND.c.id)
    .limit(bindparam("limit"))
    .with_for_update(skip_locked=True)
)
_TAKE_LEASES = update(_OUTBOUND).where(_OUTBOUND.c.id.in_(bindparam("ids", expanding=True))).values(
    lease_until=bindparam("until"), lease_owner=bindparam("owner"))
_OWN = (_OUTBOUND.c.id.in_(bindparam("ids", expanding=True)), _OUTBOUND.c.lease_owner == bindparam("owner"))
_END_LEASES = update(_OUTBOUND).where(*_OWN).values(lease_until=None, lease_owner=None)
_END_EVERY_LEASE = update(_OUTBOUND).where(_OUTBOUND.c.status == "queued",
                                           _OUTBOUND.c.lease_until.is_not(None)).values(lease_until=None,
                                                                                        lease_owner=None)
_RENEW_LEASES = (update(_OUTBOUND).where(*_OWN, _OUTBOUND.c.status == "queued")
                 .values(lease_until=bindparam("until")).returning(_OUTBOUND.c.id))
_DUE_AT = case((_OUTBOUND.c.lease_until > _OUTBOUND.c.next_attempt_at, _OUTBOUND.c.lease_until),
               else_=_OUTBOUND.c.next_attempt_at)
_NEXT_DUE = sa_select(func.min(_DUE_AT)).where(
    _OUTBOUND.c.status == "queued", _OUTBOUND.c.id.not_in(bindparam("claimed", expanding=True)))
_SENT_SINCE = sa_select(func.count(), func.min(_OUTBOUND.c.sent_at)).where(_OUTBOUND.c.sent_at >= bindparam("since"))
REPLY_PRIORITY, OTHER_PRIORITY = 0, 1
"""Replies to mail are sent before reports, reminders and notices queued earlier."""
DEFAULT_LEASE = timedelta(seconds=60)
"""How long a claim on queued mail lasts when nobody renews it (a daemon alone on its database): longer
than sending a batch takes, even over a slow server (each SMTP command waits at most 30 s)."""
SHARED_LEASE = timedelta(seconds=3)
"""How long a claim lasts on a database shared by several daemons, where the holder renews it every third
of that while it lives (:class:`~pbem.mail.leases.LeaseKeeper`): a daemon that dies leaves its claimed
mail to the others within this and their sender's next look (``pbem serve`` looks every second)."""
SEND_MARGIN = 0.5
"""Seconds a claim must still run, as far as the holder knows, for its sender to start sending the mail
(see :meth:`DatabaseOutbox.holds`)."""


def message_id_of(raw: bytes) -> str:
    """Return the Message-ID of a raw message, or a stable one made from its bytes when it has none."""
    return identity_of(raw).message_id


def subject_of(raw: bytes) -> str:
    """The Subject of a stored message, its encoded words decoded, at most 200 characters ('' when none)."""
    return " ".join(decode_words(str(stored_header(raw).get("Subject", "") or "")).split())[:200]




class InboundStore:
    """Stores inbound mail exactly once and hands out what is still to be handled.

    A mail over ``max_size`` bytes is stored as its first
    :data:`OVERSIZED_PREFIX` bytes and its size: it is only answered with a
    refusal, and a stranger must not fill the disk with big mail.
    """

    def __init__(self, db: Database, *, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.db = db
        self.max_size = max_size

    def store(self, uid: int | None, raw: bytes, *, size: int | None = None, durable: bool = False) -> int | None:
        """Store a message and commit; return its row id, or None when its Message-ID was stored before.
        ``size``: the message's size when ``raw`` is only its beginning (read from a stream). With
        ``durable`` the commit is on the disk when this returns, also on SQLite (whose WAL is otherwise
        synced at checkpoints only, so a power cut may undo the last commits): for mail whose sender
        drops its copy once told it is stored (LMTP, ``pbem deliver``), unlike a mailbox's mail."""
        try:
            with self._transaction(durable) as connection:  # one INSERT: no ORM session needed
                return self.insert(connection, uid, raw, size=size)
        except IntegrityError:
            return None

    def insert(self, connection: Connection, uid: int | None, raw: bytes, *, size: int | None = None,
               identity: StoredIdentity | None = None) -> int:
        """Insert a message (as :meth:`store` does) in ``connection``'s transaction, without committing, and
        return its row id; raises IntegrityError when its Message-ID was stored before. ``identity``: its
        Message-ID and sender (:func:`~pbem.mail.identity.identity_from`) when the caller read them already
        (the one parse of a mail handled as it is stored), else they are read from its header fields."""
        found = identity_of(raw) if identity is None else identity
        message_id, sender = found.message_id, found.sender
        size = len(raw) if size is None else size
        result = connection.execute(  # a Message-ID stored before fails its unique index
            _STORE_INBOUND,
            {"message_id": message_id, "uid": uid, "raw": self.kept(raw, size), "size": size,
             "received_at": utcnow(), "status": "new", "sender": sender},
        )
        return int(result.inserted_primary_key[0])

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
        see :mod:`pbem.mail.retries`) for ``session``'s transaction and return its id;
        None when there is none, or when other transactions hold the lock of every one (``SKIP LOCKED``:
        another daemon is handling them). A message waits while an older one from its sender is not
        handled yet: one sender's mail is handled in the order it arrived (a later mail's orders replace
        an earlier one's), whichever daemon handles it."""
        return session.connection().execute(_NEXT_NEW, {"now": utcnow()}).scalar()

    def has_new(self) -> bool:
        """True when any stored message is not yet handled: one waiting for its next try (see
        :mod:`pbem.mail.retries`), or one another daemon is handling."""
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
                 next_attempt: datetime | None = None) -> None:
        """Record in ``session``'s transaction what becomes of a message whose try failed: ``new`` again, to
        be tried at ``next_attempt``, or the status it ends with (``failed``, ``set_aside``); with the error
        (its first 1000 characters)."""
        session.connection().execute(_SET_INBOUND_STATUS, {
            "_id": inbound_id, "status": status, "error": error[:1000], "next_attempt_at": next_attempt,
            "handled_at": None if status == "new" else utcnow()})

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
               held_password: bool | None = None) -> bool:
        """Record in ``session``'s transaction, with one UPDATE, that a message's handling ended with
        ``status`` (handled, failed, ...; ``error`` says why), and, when it may hold a password, keep only
        its header fields of ``raw`` (its stored bytes) from then on: every end of a mail's handling goes
        through here. ``held_password``: whether it held one, when the caller knows (None: decided by
        :func:`~pbem.mail.redaction.holds_password`). Returns True when the body was removed (the database's
        old pages then still hold it: see :meth:`~pbem.store.Database.scrub`)."""
        values: dict[str, object] = {"_id": inbound_id, "status": status, "error": error, "handled_at": utcnow()}
        held = holds_password(raw) if held_password is None else held_password
        if held:
            values["raw"] = redacted(raw)
        session.connection().execute(_SET_INBOUND_STATUS, values)
        return held


class DatabaseOutbox:
    """The outbox table as an :class:`~pbem.mail.outbox.OutboxQueue`, plus enqueueing.

    A claim sets the mails' ``lease_until`` and ``lease_owner`` (this outbox's
    :attr:`owner`): until the lease ends no other sender (of this daemon or
    another one) claims them. Recording a mail ends its lease; a restarted
    sender ends the leases it held (:meth:`release_claims`); the holder renews
    its leases while it lives (:meth:`renew_claims`, on a shared database); the
    leases of a daemon that died end by themselves, and another daemon's sender
    then sends those mails (once more, if the dead one had sent a mail and not
    yet recorded it: delivery is at least once). A sender sends a claimed mail
    only while its lease is sure to run (:meth:`holds`), so a mail whose lease
    ended, and which another sender may have taken, is not sent twice.

    Thread-safe: the claims are kept under a lock, since the renewals run in a
    thread of their own.
    """

    def __init__(self, db: Database, *, lease: timedelta = DEFAULT_LEASE, rate: SendRate | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        """``monotonic``: the clock that tells whether a lease still runs (see :meth:`holds`)."""
        self.db = db
        self.lease = lease
        self.rate = rate
        """At most this many mails sent in any period (``--send-rate``): counted from the table, so a
        restart and the other daemons on the database share it; the rest waits in the queue, in order."""
        self.owner = f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"
        """Who holds this outbox's leases (``lease_owner``), made anew for each outbox: the host, the process id
        (which daemon holds a claim, for an operator) and a random part."""
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._claimed: dict[int, float] = {}  # claimed mail -> until when (time.monotonic) its lease surely runs
        self._secrets: dict[int, bytes] = {}  # the claimed mails that hold a password, with their text

    @staticmethod
    def enqueue(
        session: Session, mail: ComposedMail, *, purpose: str, inbound_id: int | None = None, secret: bool = False
    ) -> None:
        """Queue ``mail`` in ``session`` (sent once the transaction commits); with ``secret`` (it holds a
        password) only its header is kept once it is sent."""
        now = utcnow()
        # One INSERT on the session's connection, in its transaction: an ORM object would cost its
        # construction and a unit-of-work flush, and nothing reads the row back in the session.
        session.connection().execute(
            _ENQUEUE,
            {"created_at": now, "sender": mail.sender, "recipients": list(mail.recipients), "raw": mail.raw,
             "status": "queued", "attempts": 0, "next_attempt_at": now, "purpose": purpose,
             "inbound_id": inbound_id, "secret": secret,
             "priority": REPLY_PRIORITY if purpose == "reply" else OTHER_PRIORITY},
        )

    def release_claims(self, *, everyone: bool = False) -> None:
        """End the leases this outbox holds (with ``everyone``, every lease: a daemon alone on its database
        at its start, since any lease is then a dead predecessor's): a restarted sender offers again what
        a failed one had taken but not recorded, and a stopped one what it did not send."""
        with self._lock:
            claimed = sorted(self._claimed)
            self._claimed.clear()
            self._secrets.clear()
        with self.db.engine.begin() as connection:
            if everyone:
                connection.execute(_END_EVERY_LEASE)
            elif claimed:
                connection.execute(_END_LEASES, {"ids": claimed, "owner": self.owner})

    def claim_due(self, now: datetime, limit: int) -> Sequence[OutgoingMail]:
        """Claim and return up to ``limit`` queued mails due at ``now`` that no sender holds a lease on:
        replies first, then the longest due."""
        started = self._monotonic()
        # Plain columns over a connection (no ORM objects: a third of the time), prebuilt statements.
        with self.db.engine.begin() as connection:
            if self.rate is not None:
                limit = min(limit, self._allowance(connection, now)[0])
                if limit <= 0:
                    return []
            rows = connection.execute(_CLAIM_DUE, {"now": now, "limit": limit}).all()
            if not rows:
                return []
            ids = [row.id for row in rows]
            connection.execute(_TAKE_LEASES, {"ids": ids, "until": now + self.lease, "owner": self.owner})
        runs_until = started + self.lease.total_seconds()
        claimed = []
        with self._lock:
            for row in rows:
                self._claimed[row.id] = runs_until
                if row.secret:
                    self._secrets[row.id] = row.raw
                claimed.append(OutgoingMail(row.id, row.sender, tuple(row.recipients), row.raw, row.attempts,
                                            row.purpose))
        return claimed

    def renew_claims(self, now: datetime) -> int:
        """Extend the leases this outbox holds to ``now`` plus the lease; return how many it still holds.
        A claim whose lease ended and that another sender took meanwhile is not renewed (it is no longer
        this outbox's: :meth:`holds` then says so once its lease ran out)."""
        with self._lock:
            claimed = sorted(self._claimed)
        if not claimed:
            return 0
        started = self._monotonic()
        with self.db.engine.begin() as connection:
            kept = connection.execute(_RENEW_LEASES, {"ids": claimed, "owner": self.owner,
                                                      "until": now + self.lease}).scalars().all()
        runs_until = started + self.lease.total_seconds()
        with self._lock:
            for mail_id in kept:
                if mail_id in self._claimed:
                    self._claimed[mail_id] = max(self._claimed[mail_id], runs_until)
        return len(kept)

    def holds(self, mail_id: int) -> bool:
        """True while this outbox's lease on claimed mail ``mail_id`` surely runs for :data:`SEND_MARGIN`
        more seconds, so that no other sender can have taken it; False once it may have ended (never renewed
        in time), and the claim is then forgotten: the mail is neither sent nor recorded by this sender, but
        claimed again by whichever sender comes first."""
        with self._lock:
            runs_until = self._claimed.get(mail_id)
            if runs_until is not None and runs_until - SEND_MARGIN > self._monotonic():
                return True
            self._claimed.pop(mail_id, None)
            self._secrets.pop(mail_id, None)
            return False

    def _forget(self, mail_id: int) -> bytes | None:
        """Drop the claim on a recorded mail; return its text when it holds a password."""
        with self._lock:
            self._claimed.pop(mail_id, None)
            return self._secrets.pop(mail_id, None)

    def _finish(self, mail_id: int, **values: object) -> None:
        """Record the end of an attempt on a mail this outbox still holds (one another sender took over
        after this one's lease ended is left alone)."""
        self._forget(mail_id)
        with self.db.engine.begin() as connection:  # one UPDATE: no ORM session needed (half the time)
            connection.execute(update(_OUTBOUND).where(_OUTBOUND.c.id == mail_id,
                                                       _OUTBOUND.c.lease_owner == self.owner)
                               .values(lease_until=None, lease_owner=None, **values))

    @staticmethod
    def recipients_of(session: Session, mail_id: int) -> list[str]:
        """The recipients of outgoing mail ``mail_id`` (none when there is no such mail)."""
        found = session.connection().execute(_RECIPIENTS, {"_id": mail_id}).first()
        return list(found.recipients) if found is not None else []

    @staticmethod
    def requeue_bounced(session: Session, mail_id: int, error: str, at: datetime, *, most: int) -> bool:
        """Send a mail that bounced for now once more at ``at``, in ``session``'s transaction; True when it
        was queued again, False when it cannot be: its body is no longer kept (a secret mail), it was
        tried ``most`` times already, or it is not a sent mail."""
        result = session.connection().execute(_REQUEUE_BOUNCED, {"_id": mail_id, "error": error[:1000], "at": at,
                                                                 "most": most})
        return result.rowcount == 1

    def mark_sent(self, mail_id: int, when: datetime) -> None:
        """Record that the server accepted the mail; a secret mail's body is removed at once (in the same
        UPDATE: whether it is secret was read when it was claimed)."""
        secret = self._forget(mail_id)
        values: dict[str, object] = {"_id": mail_id, "status": "sent", "sent_at": when, "lease_until": None,
                                     "lease_owner": None}
        if secret is not None:
            values["raw"] = redacted(secret)
            self.db.forgot_secret()
        with self.db.engine.begin() as connection:
            connection.execute(_UPDATE_OUTBOUND, values)

    def mark_retry(self, mail_id: int, error: str, next_attempt: datetime) -> None:
        """Record a temporary failure; offer the mail again at ``next_attempt``."""
        self._finish(
            mail_id, attempts=OutboundMessageRow.attempts + 1, last_error=error[:1000], next_attempt_at=next_attempt
        )

    def mark_failed(self, mail_id: int, error: str) -> None:
        """Give up on the mail for good; a secret mail's body is removed at once, as when it is sent."""
        with self._lock:
            secret = self._secrets.get(mail_id)
        removed = {"raw": redacted(secret)} if secret is not None else {}
        if secret is not None:
            self.db.forgot_secret()
        self._finish(mail_id, status="failed", last_error=error[:1000], attempts=OutboundMessageRow.attempts + 1,
                     **removed)

    def next_due(self) -> datetime | None:
        """Return when the next queued mail that this outbox did not claim becomes due: its next attempt,
        or the end of the lease another sender holds on it when that is later."""
        with self.db.engine.connect() as connection:
            with self._lock:
                claimed = sorted(self._claimed)
            due = connection.execute(_NEXT_DUE, {"claimed": claimed}).scalar_one()
            if due is None or self.rate is None:
                return due
            left, frees_at = self._allowance(connection, utcnow())
            return due if left > 0 or frees_at is None else max(due, frees_at)

    def _allowance(self, connection: Connection, now: datetime) -> tuple[int, datetime | None]:
        """How many mails the send rate lets go now (those claimed and not yet sent count as gone), and when
        the oldest mail sent within the period leaves it."""
        assert self.rate is not None
        period = timedelta(seconds=self.rate.seconds)
        sent, oldest = connection.execute(_SENT_SINCE, {"since": now - period}).one()
        return self.rate.count - sent - len(self._claimed), (oldest + period if oldest is not None else None)
