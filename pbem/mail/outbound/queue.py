"""The durable outbox table as the transport sees it.

Replies and reports are queued in the same transaction as the
change they report, and the SMTP sender drains the queue: replies first, then
reports and notices, each claimed for a lease (``lease_until``, held by
``lease_owner``) that another daemon's sender takes over when the holder died
before it recorded the mail. On a shared database the lease is short and the
holder renews it while it lives (:class:`~pbem.mail.running.leases.LeaseKeeper`), so a
dead daemon's mail goes out within seconds. The inbound table is
:mod:`pbem.mail.reading.mailstore`'s.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, case, insert, literal_column, or_, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, func

from pbem.clock import utcnow
from pbem.mail.outbound.compose import ComposedMail
from pbem.mail.outbound.config import SendRate
from pbem.mail.outbound.outbox import OutgoingMail
from pbem.mail.reading.redaction import redacted
from pbem.store import Database
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import OutboundMessageRow

_OUTBOUND = OutboundMessageRow.__table__  # type: ignore[attr-defined]
_ENQUEUE = DriverStatement(insert(_OUTBOUND))
_RECIPIENTS = sa_select(_OUTBOUND.c.recipients).where(_OUTBOUND.c.id == bindparam("_id"))
_REQUEUE_BOUNCED = (  # a soft bounce: the mail goes again, while its body is kept and it went few times
    update(_OUTBOUND)
    .where(_OUTBOUND.c.id == bindparam("_id"), _OUTBOUND.c.status == "sent", _OUTBOUND.c.secret.is_(False),
           _OUTBOUND.c.attempts < bindparam("most"))
    .values(status="queued", attempts=_OUTBOUND.c.attempts + 1, next_attempt_at=bindparam("at"),
            last_error=bindparam("error"), sent_at=None))
_UPDATE_OUTBOUND = DriverStatement(update(_OUTBOUND).where(_OUTBOUND.c.id == bindparam("_id")))
_FREE = or_(_OUTBOUND.c.lease_until.is_(None), _OUTBOUND.c.lease_until <= bindparam("now"))
_QUEUED = _OUTBOUND.c.status == literal_column("'queued'")
"""The queue's rows, with the status written into the statement: a bound value costs SQLite four times as much
to find the one row queued among thousands sent (77 us against 20), and it keeps PostgreSQL from planning with the
queue's partial index (``WHERE status = 'queued'``)."""
_CLAIM_DUE = DriverStatement(  # replies first; rows another sender is claiming are passed by (SKIP LOCKED)
    sa_select(_OUTBOUND.c.id, _OUTBOUND.c.sender, _OUTBOUND.c.recipients, _OUTBOUND.c.raw, _OUTBOUND.c.attempts,
              _OUTBOUND.c.secret, _OUTBOUND.c.purpose)
    .where(_QUEUED, _OUTBOUND.c.next_attempt_at <= bindparam("now"), _FREE)
    .order_by(_OUTBOUND.c.priority, _OUTBOUND.c.next_attempt_at, _OUTBOUND.c.id)
    .limit(bindparam("limit"))
    .with_for_update(skip_locked=True)
)
_TAKE_LEASES = update(_OUTBOUND).where(_OUTBOUND.c.id.in_(bindparam("ids", expanding=True))).values(
    lease_until=bindparam("until"), lease_owner=bindparam("owner"))
_OWN = (_OUTBOUND.c.id.in_(bindparam("ids", expanding=True)), _OUTBOUND.c.lease_owner == bindparam("owner"))
_END_LEASES = update(_OUTBOUND).where(*_OWN).values(lease_until=None, lease_owner=None)
_END_EVERY_LEASE = update(_OUTBOUND).where(_QUEUED, _OUTBOUND.c.lease_until.is_not(None)).values(lease_until=None,
                                                                                               lease_owner=None)
_RENEW_LEASES = (update(_OUTBOUND).where(*_OWN, _QUEUED)
                 .values(lease_until=bindparam("until")).returning(_OUTBOUND.c.id))
_DUE_AT = case((_OUTBOUND.c.lease_until > _OUTBOUND.c.next_attempt_at, _OUTBOUND.c.lease_until),
               else_=_OUTBOUND.c.next_attempt_at)
_NEXT_DUE = sa_select(func.min(_DUE_AT)).where(_QUEUED, _OUTBOUND.c.id.not_in(bindparam("claimed", expanding=True)))
_SENT_SINCE = sa_select(func.count(), func.min(_OUTBOUND.c.sent_at)).where(_OUTBOUND.c.sent_at >= bindparam("since"))
REPLY_PRIORITY, OTHER_PRIORITY = 0, 1
"""Replies to mail are sent before reports, reminders and notices queued earlier."""
DEFAULT_LEASE = timedelta(seconds=60)
"""How long a claim on queued mail lasts when nobody renews it (a daemon alone on its database): longer
than sending a batch takes, even over a slow server (each SMTP command waits at most 30 s)."""
SHARED_LEASE = timedelta(seconds=3)
"""How long a claim lasts on a database shared by several daemons, where the holder renews it every third
of that while it lives (:class:`~pbem.mail.running.leases.LeaseKeeper`): a daemon that dies leaves its claimed
mail to the others within this and their sender's next look (``pbem serve`` looks every second)."""
SEND_MARGIN = 0.5
"""Seconds a claim must still run, as far as the holder knows, for its sender to start sending the mail
(see :meth:`DatabaseOutbox.holds`)."""


_QUEUED_IN_SESSION = "pbem.outbox.queued"
"""The key of a session's ``info`` under which :meth:`DatabaseOutbox.enqueue` lists the mails it queued in that
session (as rows of :data:`_CLAIM_DUE`), for :meth:`DatabaseOutbox.claim_queued`."""


@dataclass(frozen=True)
class Claim:
    """Mails claimed in a transaction (:meth:`DatabaseOutbox.claim_queued`): their rows (as :data:`_CLAIM_DUE`
    reads them), and when (the outbox's monotonic clock) the claim was made, from which its leases run."""

    rows: tuple[tuple[Any, ...], ...]
    started: float


class DatabaseOutbox:
    """The outbox table as an :class:`~pbem.mail.outbound.outbox.OutboxQueue`, plus enqueueing.

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
        session: Session, mail: ComposedMail, *, purpose: str, inbound_id: int | None = None, secret: bool = False,
        at: datetime | None = None,
    ) -> None:
        """Queue ``mail`` in ``session`` (sent once the transaction commits, due at once by the sender's clock);
        with ``secret`` (it holds a password) only its header is kept once it is sent. ``at``: when it was
        queued by the service's clock (the daemon's: its retention counts the mail's age on it, see
        :mod:`pbem.mail.running.retention`); the wall clock's now when not given."""
        now = utcnow()
        # One INSERT on the session's connection, in its transaction: an ORM object would cost its
        # construction and a unit-of-work flush, and nothing reads the row back in the session.
        mail_id = _ENQUEUE.new_id(
            session.connection(),
            {"created_at": now if at is None else at, "sender": mail.sender, "recipients": list(mail.recipients),
             "raw": mail.raw,
             "status": "queued", "attempts": 0, "next_attempt_at": now, "purpose": purpose,
             "inbound_id": inbound_id, "secret": secret,
             "priority": REPLY_PRIORITY if purpose == "reply" else OTHER_PRIORITY},
        )
        session.info.setdefault(_QUEUED_IN_SESSION, []).append(
            (mail_id, mail.sender, tuple(mail.recipients), mail.raw, 0, secret, purpose))

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

    def claim_queued(self, session: Session, now: datetime, limit: int) -> Claim:
        """Claim, in ``session``'s transaction, up to ``limit`` of the mails queued in that session (its
        replies first): one UPDATE of each mail's lease by its id, nothing read back (the session queued
        them, see :meth:`enqueue`). The claim is this outbox's once the transaction committed and
        :meth:`hold` took it. Nothing is claimed under a send rate, which claims by the table's count of
        mails sent (see :meth:`claim_due`)."""
        started = self._monotonic()
        queued = session.info.get(_QUEUED_IN_SESSION, ())
        if self.rate is not None or not queued or limit <= 0:
            return Claim((), started)
        rows = sorted(queued, key=lambda row: (row[6] != "reply", row[0]))[:limit]
        connection = session.connection()
        until = now + self.lease
        for row in rows:
            _UPDATE_OUTBOUND.run(connection, {"_id": row[0], "lease_until": until, "lease_owner": self.owner})
        return Claim(tuple(rows), started)

    def hold(self, claim: Claim) -> list[OutgoingMail]:
        """The mails of ``claim`` (:meth:`claim_queued`), whose transaction committed: from now on this outbox
        holds their leases (see :meth:`holds`) and records them."""
        return self._hold(claim.rows, claim.started)

    def let_go(self, claim: Claim) -> None:
        """End the leases of ``claim`` (:meth:`claim_queued`) when it is unknown whether its transaction
        committed: the mails are claimed again by whichever sender comes first, instead of waiting for the
        leases to end."""
        if claim.rows:
            with self.db.engine.begin() as connection:
                connection.execute(_END_LEASES, {"ids": [row[0] for row in claim.rows], "owner": self.owner})

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
            rows = _CLAIM_DUE.all(connection, {"now": now, "limit": limit})
            if not rows:
                return []
            ids = [row[0] for row in rows]
            connection.execute(_TAKE_LEASES, {"ids": ids, "until": now + self.lease, "owner": self.owner})
        return self._hold(rows, started)

    def _hold(self, rows: Sequence[tuple[Any, ...]], started: float) -> list[OutgoingMail]:
        """Hold the leases of the claimed mails ``rows`` (id, sender, recipients, text, attempts, secret,
        purpose), taken at ``started`` (this outbox's monotonic clock), and return them as mail to send."""
        runs_until = started + self.lease.total_seconds()
        claimed = []
        with self._lock:
            for mail_id, sender, recipients, raw, attempts, secret, purpose in rows:
                self._claimed[mail_id] = runs_until
                if secret:
                    self._secrets[mail_id] = raw
                claimed.append(OutgoingMail(mail_id, sender, tuple(recipients), raw, attempts, purpose))
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
        self.db.write_alone(_UPDATE_OUTBOUND, values)

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
