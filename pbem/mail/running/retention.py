"""How long mail is kept: the raw text of handled and sent mail goes after a retention period.

Inbound rows stay (their Message-ID recognises a mail delivered again) with
their text emptied, for :data:`MESSAGE_IDS_KEPT` more: then the row goes too,
long after any mail server stopped retrying a delivery. Sent and failed
outbound rows are deleted. Mail that held a password is redacted at once
instead (see :mod:`pbem.mail.reading.redaction`). The purge goes a bounded
batch at a time, through indexes (the inbound mail whose text is still kept,
the inbound mail by the time it was handled, the outbound mail by age), so a
purge after a deadline storm never holds the database for long, and the mail
tables of a service that runs for years hold only the last weeks' mail.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import delete, exists, func, select, update

from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

_log = logging.getLogger(__name__)

PURGE_BATCH = 1000
"""Most inbound and most outbound rows one call purges."""

MESSAGE_IDS_KEPT = timedelta(days=30)
"""How long a handled mail's Message-ID is kept (its row, text emptied) after its text went, so that the
same mail delivered again is recognised and handled once: mail servers give up retrying a delivery within
5 days (Postfix's ``maximal_queue_lifetime``), and the intake takes only mail it has not flagged, so the
same mail comes back within minutes or not at all."""


class Purged(NamedTuple):
    """What one call of :func:`purge_old_mail` purged, and whether more may be due."""

    inbound: int
    outbound: int
    more: bool
    forgotten: int = 0
    """Inbound rows deleted (their Message-ID kept long enough)."""


def purge_old_mail(db: Database, before: datetime, *, limit: int = PURGE_BATCH) -> Purged:
    """Empty the text of inbound mail handled before ``before``, delete outbound mail sent (or given
    up) before it, and delete the rows of inbound mail handled :data:`MESSAGE_IDS_KEPT` before it whose
    text is gone and that no kept outbound mail answers; at most ``limit`` of each. Return how many rows
    were purged and whether a further call may find more."""
    forget_before = before - MESSAGE_IDS_KEPT
    inbound = InboundMessageRow.__table__  # type: ignore[attr-defined]
    outbound = OutboundMessageRow.__table__  # type: ignore[attr-defined]
    kept = (select(inbound.c.id)
            .where(func.length(inbound.c.raw) > 0, inbound.c.handled_at < before, inbound.c.status != "new")
            .limit(limit))
    old = (select(outbound.c.id)
           .where(outbound.c.created_at < before, outbound.c.status != "queued")
           .limit(limit))
    stale = (select(inbound.c.id)
             .where(inbound.c.handled_at < forget_before, inbound.c.status != "new", func.length(inbound.c.raw) == 0,
                    ~exists().where(outbound.c.inbound_id == inbound.c.id))
             .limit(limit))
    with db.engine.begin() as connection:
        emptied_ids = [row.id for row in connection.execute(kept)]
        if emptied_ids:
            connection.execute(update(inbound).where(inbound.c.id.in_(emptied_ids)).values(raw=b""))
        deleted_ids = [row.id for row in connection.execute(old)]
        if deleted_ids:
            connection.execute(delete(outbound).where(outbound.c.id.in_(deleted_ids)))
        forgotten_ids = [row.id for row in connection.execute(stale)]
        if forgotten_ids:
            connection.execute(delete(inbound).where(inbound.c.id.in_(forgotten_ids)))
    emptied, deleted, forgotten = len(emptied_ids), len(deleted_ids), len(forgotten_ids)
    if emptied or deleted or forgotten:
        _log.info("retention: emptied %d inbound and deleted %d outbound mails older than %s; deleted %d inbound "
                  "rows older than %s", emptied, deleted, before.isoformat(timespec="minutes"), forgotten,
                  forget_before.isoformat(timespec="minutes"))
    return Purged(emptied, deleted, limit in (emptied, deleted, forgotten), forgotten)


RECLAIMED_TABLES = ("inbound_message", "outbound_message", "turn_record", "submission", "record_entry")
"""The tables whose rows the retention deletes or empties, and compaction moves into the games' archives."""


def reclaim_space(db: Database) -> None:
    """Make the space of the rows just purged (or compacted) reusable at once, so that the database's size levels
    off: PostgreSQL's VACUUM of :data:`RECLAIMED_TABLES` (their TOAST tables too: the pictures of sent mail),
    rather than waiting for autovacuum, which comes only once a fifth of a table changed. SQLite gives its free
    pages back to the file system (``incremental_vacuum``) and copies its write-ahead log into the file and cuts
    it to nothing (a checkpoint that never waits for a reader: :meth:`Database.checkpoint`)."""
    if db.engine.dialect.name == "sqlite":
        db.give_back_free_pages()
        db.checkpoint()
        return
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql(f"VACUUM {', '.join(RECLAIMED_TABLES)}")
