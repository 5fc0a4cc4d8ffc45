"""The figures the database knows: true across every daemon sharing it, read at once with cheap queries.

Each query below goes through an index, so its cost does not grow with the
mail handled or the games played: the new mail through the partial index of
new mail, the outbox queue through the partial index of queued mail, the
games' next wake-up through ``ix_game_wake_at``. The one exception is the
count of every stored mail by status (handled mail grows without end and no
index covers its status): :class:`StatusCounts` keeps it for
``recount_seconds`` before it counts again, so scrapes every few seconds cost
one full count a minute.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import bindparam, func, select, text

from pbem.clock import utcnow
from pbem.store import Database
from pbem.store.tables import GameRow, InboundMessageRow, OutboundMessageRow, SettingRow

_INBOUND = InboundMessageRow.__table__  # type: ignore[attr-defined]
_OUTBOUND = OutboundMessageRow.__table__  # type: ignore[attr-defined]
_GAME = GameRow.__table__  # type: ignore[attr-defined]
_SETTING = SettingRow.__table__  # type: ignore[attr-defined]

NAMED_STATUSES = ("new", "handled", "failed")
"""Statuses of stored mail that always appear among the figures (0 when no mail has them)."""
LAST_SEEN_KEY = "last_seen"
"""The setting a running daemon's clock writes every few seconds (see :mod:`pbem.mail.running.daemon`)."""
RECOUNT_SECONDS = 60.0

# Statements built once. Each WHERE matches a partial index word for word (status = 'new', status =
# 'queued'), which is what lets SQLite use it.
_NEW_COUNT = select(func.count()).select_from(_INBOUND).where(text("status = 'new'"))
_OLDEST_NEW = select(_INBOUND.c.received_at).where(text("status = 'new'")).order_by(_INBOUND.c.id).limit(1)
_BY_STATUS = select(_INBOUND.c.status, func.count()).group_by(_INBOUND.c.status)
_QUEUED = (select(_OUTBOUND.c.priority, func.count(), func.min(_OUTBOUND.c.created_at),
                  func.min(_OUTBOUND.c.next_attempt_at))
           .where(text("status = 'queued'")).group_by(_OUTBOUND.c.priority))
_OVERDUE = select(func.min(_GAME.c.wake_at)).where(_GAME.c.wake_at <= bindparam("now", type_=_GAME.c.wake_at.type))
_LAST_SEEN = select(_SETTING.c.value).where(_SETTING.c.key == LAST_SEEN_KEY)
PRIORITY_NAMES = {0: "reply", 1: "other"}
"""The outbox's priorities by name: replies to mail go first, reports, reminders and notices after."""


@dataclass(frozen=True)
class DatabaseFigures:
    """What the database shows at one moment (``at``); ages in seconds, None when nothing is waiting."""

    at: datetime
    mails: dict[str, int]
    """Stored mail by status (every status found, and at least new, handled and failed)."""
    queued: dict[str, int]
    """Outgoing mail waiting to be sent, by priority name (reply, other)."""
    oldest_unanswered: float | None
    """Age of the oldest stored mail not handled yet."""
    oldest_queued: float | None
    """Age of the oldest outgoing mail not sent yet."""
    queued_overdue: float | None
    """How long the longest-due outgoing mail has waited since it was due to be sent (its first try, or its
    next one after a failure); None when none is due. Mail waiting for a later try does not count: this grows
    only while the outbox does not drain."""
    clock_overdue: float | None
    """How long the longest-due game has waited for the turn clock (deadline, reminder, absence)."""
    last_seen: float | None
    """How long ago a daemon's clock last beat (None: no daemon ever ran on this database)."""

    def as_json(self) -> dict[str, object]:
        """The figures as a JSON object with stable keys (``pbem status --json``)."""
        return {"at": self.at.isoformat(), "mails": dict(sorted(self.mails.items())),
                "queued": dict(sorted(self.queued.items())), "queued_total": sum(self.queued.values()),
                "oldest_unanswered_seconds": self.oldest_unanswered, "oldest_queued_seconds": self.oldest_queued,
                "queued_overdue_seconds": self.queued_overdue,
                "clock_overdue_seconds": self.clock_overdue, "last_seen_seconds": self.last_seen}

    def as_text(self) -> str:
        """The figures as a few lines for an operator (``pbem status``)."""
        others = ", ".join(f"{status} {count}" for status, count in sorted(self.mails.items())
                           if status not in NAMED_STATUSES)
        named = ", ".join(f"{status} {self.mails.get(status, 0)}" for status in NAMED_STATUSES)
        queued = ", ".join(f"{name} {count}" for name, count in sorted(self.queued.items()))
        lines = [f"Mail stored: {sum(self.mails.values())} ({named}{', ' + others if others else ''})",
                 f"Oldest unanswered mail: {_seconds(self.oldest_unanswered, 'none waiting')}",
                 f"Outbox: {sum(self.queued.values())} queued ({queued}); oldest: "
                 f"{_seconds(self.oldest_queued, 'none waiting')}; longest due: "
                 f"{_seconds(self.queued_overdue, 'none due')}",
                 f"Clock: longest-due game waiting {_seconds(self.clock_overdue, 'none (nothing overdue)')}",
                 f"A daemon's clock last beat: {_seconds(self.last_seen, 'never', ' ago')}"]
        return "\n".join(lines) + "\n"


@dataclass
class StatusCounts:
    """The count of stored mail by status, counted again at most every ``recount_seconds`` (it reads the
    whole table); the count of new mail is always read afresh (an index holds it)."""

    recount_seconds: float = RECOUNT_SECONDS
    monotonic: Callable[[], float] = time.monotonic
    _counted: dict[str, int] = field(default_factory=dict)
    _when: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self, connection: object) -> dict[str, int]:
        """Stored mail by status over ``connection`` (a SQLAlchemy connection)."""
        with self._lock:
            now = self.monotonic()
            if self._when is None or now - self._when >= self.recount_seconds:
                self._counted = dict(connection.execute(_BY_STATUS).all())  # type: ignore[attr-defined]
                self._when = now
            counts = dict.fromkeys(NAMED_STATUSES, 0) | self._counted
        counts["new"] = connection.execute(_NEW_COUNT).scalar_one()  # type: ignore[attr-defined]
        return counts


def read_figures(db: Database, counts: StatusCounts | None = None, *,
                 now: datetime | None = None) -> DatabaseFigures:
    """Read the figures of ``db`` in one read-only transaction (``counts`` keeps the count by status between
    calls; without it the table is counted now). Raises the database's errors."""
    now = now or utcnow()
    counts = counts or StatusCounts(recount_seconds=0.0)
    with db.engine.connect() as connection:
        mails = counts.read(connection)
        oldest_new = connection.execute(_OLDEST_NEW).scalar()
        queued = {name: 0 for name in PRIORITY_NAMES.values()}
        oldest_queued: datetime | None = None
        first_due: datetime | None = None
        for priority, count, oldest, due in connection.execute(_QUEUED):
            name = PRIORITY_NAMES.get(priority, str(priority))
            queued[name] = queued.get(name, 0) + count
            oldest_queued = _aware(oldest) if oldest_queued is None else min(oldest_queued, _aware(oldest))
            first_due = _aware(due) if first_due is None else min(first_due, _aware(due))
        overdue = connection.execute(_OVERDUE, {"now": now}).scalar()
        last_seen = connection.execute(_LAST_SEEN).scalar()
    return DatabaseFigures(at=now, mails=mails, queued=queued, oldest_unanswered=_age(now, oldest_new),
                           oldest_queued=_age(now, oldest_queued),
                           queued_overdue=_age(now, first_due) if first_due is not None and first_due <= now else None,
                           clock_overdue=_age(now, overdue),
                           last_seen=_age(now, datetime.fromisoformat(last_seen) if last_seen else None))


def database_answers(db: Database) -> None:
    """Return once the database answered a trivial query; raises the database's error when it does not."""
    with db.engine.connect() as connection:
        connection.execute(text("SELECT 1"))


def _aware(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite gives it back naive)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _seconds(seconds: float | None, absent: str, after: str = "") -> str:
    return absent if seconds is None else f"{seconds:.0f} s{after}"


def _age(now: datetime, moment: datetime | None) -> float | None:
    return None if moment is None else max(0.0, (now - _aware(moment)).total_seconds())
