"""The mail tables as the transport sees them: the inbound store and the durable outbox.

Inbound: a message is stored (raw bytes, Message-ID, UID) and committed before
the intake flags it on the server; a message seen again (after a crash, or
delivered twice) is recognised by its Message-ID and not stored again.
Outbound: replies and reports are queued in the same transaction as the
change they report, and the SMTP sender drains the queue.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy import bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from pbem.clock import utcnow
from pbem.mail.compose import ComposedMail
from pbem.mail.outbox import OutgoingMail
from pbem.mail.parse import header_block
from pbem.mail.policy import DEFAULT_MAX_SIZE
from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow


_INBOUND = InboundMessageRow.__table__  # type: ignore[attr-defined]
_OUTBOUND = OutboundMessageRow.__table__  # type: ignore[attr-defined]
# Statements built once (SQLAlchemy then also keeps their cache keys): building a statement
# costs more than running it on SQLite.
_STORE_INBOUND = insert(_INBOUND)
_INBOUND_STATUS_RAW = sa_select(_INBOUND.c.status, _INBOUND.c.raw, _INBOUND.c.size).where(
    _INBOUND.c.id == bindparam("_id"))
_SET_INBOUND_STATUS = update(_INBOUND).where(_INBOUND.c.id == bindparam("_id"))
_ENQUEUE = insert(_OUTBOUND)
_UPDATE_OUTBOUND = update(_OUTBOUND).where(_OUTBOUND.c.id == bindparam("_id"))
_CLAIM_DUE = (
    sa_select(_OUTBOUND.c.id, _OUTBOUND.c.sender, _OUTBOUND.c.recipients, _OUTBOUND.c.raw, _OUTBOUND.c.attempts,
              _OUTBOUND.c.secret)
    .where(_OUTBOUND.c.status == "queued", _OUTBOUND.c.next_attempt_at <= bindparam("now"))
    .order_by(_OUTBOUND.c.id)
    .limit(bindparam("limit"))
)
_NEXT_DUE = sa_select(func.min(_OUTBOUND.c.next_attempt_at)).where(
    _OUTBOUND.c.status == "queued", _OUTBOUND.c.id.not_in(bindparam("claimed", expanding=True)))
REDACTED_BODY = b"(body removed after handling: it held a password)\r\n"


def redacted(raw: bytes) -> bytes:
    """``raw`` with its body replaced by a note: the header fields stay (who, when, Message-ID)."""
    return header_block(raw) + REDACTED_BODY


def message_id_of(raw: bytes) -> str:
    """Return the Message-ID of a raw message, or a stable one made from its bytes when it has none."""
    headers = BytesHeaderParser(policy=compat32).parsebytes(raw)
    value = str(headers.get("Message-ID", "") or "").strip()
    if value:
        return value[:500]
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


OVERSIZED_PREFIX = 64 * 1024
"""Bytes kept of a mail over the size limit: its header fields and the start of its body (it is not read)."""


class InboundStore:
    """Stores inbound mail exactly once and hands out what is still to be handled.

    A mail over ``max_size`` bytes is stored as its first
    :data:`OVERSIZED_PREFIX` bytes and its size: it is only answered with a
    refusal, and a stranger must not fill the disk with big mail.
    """

    def __init__(self, db: Database, *, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.db = db
        self.max_size = max_size

    def store(self, uid: int | None, raw: bytes) -> int | None:
        """Store a message and commit; return its row id, or None when its Message-ID was stored before."""
        message_id = message_id_of(raw)
        size = len(raw)
        kept = self.kept(raw)
        try:
            with self.db.engine.begin() as connection:  # one INSERT: no ORM session needed
                result = connection.execute(  # a Message-ID stored before fails its unique index
                    _STORE_INBOUND,
                    {"message_id": message_id, "uid": uid, "raw": kept, "size": size, "received_at": utcnow(),
                     "status": "new"},
                )
                return int(result.inserted_primary_key[0])
        except IntegrityError:
            return None

    def kept(self, raw: bytes) -> bytes:
        """The bytes :meth:`store` keeps of ``raw``: all of it, or the prefix of an oversized mail."""
        return raw if len(raw) <= self.max_size else raw[:OVERSIZED_PREFIX]

    def pending(self, limit: int = 100, *, after: int = 0) -> list[int]:
        """Return the ids of stored messages not yet handled, oldest first; only ids above
        ``after`` when given (a caller that knows every message up to ``after`` was handled
        saves a scan of the whole table: status has no index)."""
        with self.db.session() as session:
            query = (
                select(InboundMessageRow.id)
                .where(InboundMessageRow.id > after, InboundMessageRow.status == "new")  # type: ignore[operator]
                .order_by(InboundMessageRow.id)
                .limit(limit)
            )
            return [i for i in session.exec(query) if i is not None]

    @staticmethod
    def status_and_raw(session: Session, inbound_id: int) -> tuple[str, bytes]:
        """Return one stored message's status and raw bytes, read in ``session``'s transaction
        (plain columns: no ORM object to build, track and flush)."""
        status, raw, _size = InboundStore.stored(session, inbound_id)
        return status, raw

    @staticmethod
    def stored(session: Session, inbound_id: int) -> tuple[str, bytes, int]:
        """Return one stored message's status, stored bytes, and size as received (the bytes of an
        oversized mail are only its beginning), read in ``session``'s transaction."""
        found = session.connection().execute(_INBOUND_STATUS_RAW, {"_id": inbound_id}).first()
        if found is None:
            raise KeyError(f"no inbound message {inbound_id}")
        return found.status, found.raw, found.size if found.size is not None else len(found.raw)

    @staticmethod
    def redact(session: Session, inbound_id: int, raw: bytes) -> None:
        """Replace the stored copy of a handled message by its header fields and a note (it held a password)."""
        session.connection().execute(_SET_INBOUND_STATUS, {"_id": inbound_id, "raw": redacted(raw)})

    @staticmethod
    def set_status(session: Session, inbound_id: int, status: str, error: str | None = None) -> None:
        """Record in ``session``'s transaction that a message was handled (or failed, with the error),
        with one UPDATE."""
        session.connection().execute(
            _SET_INBOUND_STATUS, {"_id": inbound_id, "status": status, "error": error, "handled_at": utcnow()}
        )


class DatabaseOutbox:
    """The outbox table as an :class:`~pbem.mail.outbox.OutboxQueue`, plus enqueueing."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._claimed: set[int] = set()
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
             "inbound_id": inbound_id, "secret": secret},
        )

    def release_claims(self) -> None:
        """Forget every claim: a restarted sender offers again what a failed one had taken but not recorded."""
        self._claimed.clear()
        self._secrets.clear()

    def claim_due(self, now: datetime, limit: int) -> Sequence[OutgoingMail]:
        """Return up to ``limit`` queued mails due at ``now`` that are not claimed already."""
        # Plain columns over a connection (no ORM objects: a third of the time), one prebuilt statement.
        with self.db.engine.connect() as connection:
            rows = [row for row in connection.execute(_CLAIM_DUE, {"now": now, "limit": limit + len(self._claimed)})
                    if row.id not in self._claimed][:limit]
        claimed = []
        for row in rows:
            self._claimed.add(row.id)
            if row.secret:
                self._secrets[row.id] = row.raw
            claimed.append(OutgoingMail(row.id, row.sender, tuple(row.recipients), row.raw, row.attempts))
        return claimed

    def _finish(self, mail_id: int, **values: object) -> None:
        self._claimed.discard(mail_id)
        self._secrets.pop(mail_id, None)
        with self.db.engine.begin() as connection:  # one UPDATE: no ORM session needed (half the time)
            connection.execute(update(OutboundMessageRow).where(OutboundMessageRow.id == mail_id).values(**values))

    def mark_sent(self, mail_id: int, when: datetime) -> None:
        """Record that the server accepted the mail; a secret mail's body is removed at once (in the same
        UPDATE: whether it is secret was read when it was claimed)."""
        self._claimed.discard(mail_id)
        secret = self._secrets.pop(mail_id, None)
        values: dict[str, object] = {"_id": mail_id, "status": "sent", "sent_at": when}
        if secret is not None:
            values["raw"] = redacted(secret)
        with self.db.engine.begin() as connection:
            connection.execute(_UPDATE_OUTBOUND, values)

    def mark_retry(self, mail_id: int, error: str, next_attempt: datetime) -> None:
        """Record a temporary failure; offer the mail again at ``next_attempt``."""
        self._finish(
            mail_id, attempts=OutboundMessageRow.attempts + 1, last_error=error[:1000], next_attempt_at=next_attempt
        )

    def mark_failed(self, mail_id: int, error: str) -> None:
        """Give up on the mail for good."""
        self._finish(mail_id, status="failed", last_error=error[:1000], attempts=OutboundMessageRow.attempts + 1)

    def next_due(self) -> datetime | None:
        """Return the earliest next attempt among queued, unclaimed mails."""
        with self.db.engine.connect() as connection:
            return connection.execute(_NEXT_DUE, {"claimed": list(self._claimed)}).scalar_one()
