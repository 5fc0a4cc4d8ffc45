"""Mail whose handling failed: when it is tried again, when it is given up, and what the operator sees.

A try that fails (any error but the database being away, which is retried
at once and for ever) is rolled back and counted in the mail's row, with the
time of the next try: :data:`FIRST_PAUSE` after the first failure, doubled
after each further one, so :data:`MAX_TRIES` tries span about a quarter of
an hour, restarts included. After the last one the mail is ``failed``. A mail
whose handling ran over the time budget (:mod:`pbem.mail.running.watchdog`) is
``set_aside`` at once and not tried again by itself. Either way its sender
gets one short answer where an answer is allowed (see
:meth:`pbem.mail.handling.handler.MailHandler.tell_unhandled`), and the operator a log
line with the traceback. ``pbem mail`` lists such mail and ``pbem mail retry
ID`` queues one again: for one more try (its sender was told already, and is
not told again).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, select, update

from pbem.mail.reading.mailstore import subject_of
from pbem.store import Database
from pbem.store.tables import InboundMessageRow

MAX_TRIES = 5
"""Tries of a failing mail before it is given up."""
FIRST_PAUSE = timedelta(minutes=1)
"""The pause after a mail's first failed try; doubled after each further one (1, 2, 4, 8 minutes)."""
TROUBLED = ("failed", "set_aside")
"""The statuses of mail that ended unhandled."""

_INBOUND = InboundMessageRow.__table__  # type: ignore[attr-defined]


def next_try(now: datetime, attempts: int, first_pause: timedelta = FIRST_PAUSE) -> datetime | None:
    """When a mail that failed ``attempts`` times (this one included) is tried again: ``first_pause``
    doubled for each failure before the last; None once :data:`MAX_TRIES` tries failed (give it up)."""
    if attempts >= MAX_TRIES:
        return None
    return now + first_pause * 2 ** (attempts - 1)


def is_first_end(attempts: int) -> bool:
    """True when a mail that ends unhandled after ``attempts`` tries (this one included) ends so for the
    first time, so its sender is to be told; a mail queued again by hand was given up before, and its
    sender told (see :func:`retry_by_hand`)."""
    return attempts <= MAX_TRIES


@dataclass(frozen=True)
class TroubledMail:
    """A mail that ended unhandled, or waits for its next try, as ``pbem mail`` lists it."""

    id: int
    received: datetime
    sender: str
    subject: str
    status: str
    tries: int
    error: str

    def line(self) -> str:
        """One line for the terminal: id, received, sender, subject, status, tries, the error's first line."""
        return (f"{self.id:>6}  {self.received:%Y-%m-%d %H:%M}  {self.sender or '?'}  {self.subject!r}  "
                f"{self.status}  {self.tries} tries  {self.error}")

    def as_json(self) -> dict[str, object]:
        """The fields as JSON values (the time in ISO 8601)."""
        return {"id": self.id, "received": self.received.isoformat(), "sender": self.sender, "subject": self.subject,
                "status": self.status, "tries": self.tries, "error": self.error}


def troubled_mail(db: Database) -> list[TroubledMail]:
    """The failed and set-aside mail, and the mail waiting for another try (or queued again by hand),
    oldest first. Their subjects are as stored with them; only mail stored before subjects were kept has its
    stored bytes read for it."""
    query = (select(_INBOUND.c.id, _INBOUND.c.received_at, _INBOUND.c.sender, _INBOUND.c.subject, _INBOUND.c.status,
                    _INBOUND.c.attempts, _INBOUND.c.error, _INBOUND.c.next_attempt_at,
                    case((_INBOUND.c.subject.is_(None), _INBOUND.c.raw), else_=None).label("raw"))
             .where(_INBOUND.c.status.in_(TROUBLED) | ((_INBOUND.c.status == "new") & (_INBOUND.c.attempts > 0)))
             .order_by(_INBOUND.c.id))
    with db.engine.connect() as connection:
        return [TroubledMail(row.id, row.received_at, row.sender, subject_of(row.raw, row.subject),
                             _shown_status(row.status, row.next_attempt_at), row.attempts,
                             (row.error or "").partition("\n")[0])
                for row in connection.execute(query)]


def _shown_status(status: str, next_attempt: datetime | None) -> str:
    """``failed``, ``set_aside``, ``waiting`` (for its next try) or ``queued`` (to be tried at once)."""
    if status != "new":
        return status
    return "queued" if next_attempt is None else "waiting"


class UnknownMail(LookupError):
    """No failed or set-aside mail has that id."""


def retry_by_hand(db: Database, inbound_id: int) -> None:
    """Queue a failed or set-aside mail (or one waiting for its next try) to be handled at once, for one
    more try: a failure then gives it up at once (its sender told only if they were not before). Raises
    :class:`UnknownMail` when no such mail has that id."""
    with db.engine.begin() as connection:
        found = connection.execute(
            select(_INBOUND.c.status, _INBOUND.c.attempts).where(
                _INBOUND.c.id == inbound_id,
                _INBOUND.c.status.in_(TROUBLED) | ((_INBOUND.c.status == "new") & (_INBOUND.c.attempts > 0)))
        ).first()
        if found is None:
            raise UnknownMail(f"no failed or set-aside mail {inbound_id} (pbem mail lists them)")
        # Waiting: its last try now, its sender told if it fails. Ended: told before, so a failure is silent.
        attempts = MAX_TRIES - 1 if found.status == "new" else max(found.attempts, MAX_TRIES)
        connection.execute(update(_INBOUND).where(_INBOUND.c.id == inbound_id).values(
            status="new", next_attempt_at=None, handled_at=None, attempts=attempts))
