"""How long mail is kept: the raw text of handled and sent mail goes after a retention period.

Inbound rows stay (their Message-ID recognises a mail delivered again) with
their text emptied; sent and failed outbound rows are deleted. Mail that held
a password is redacted at once instead (see :mod:`pbem.mail.reading.redaction`). The
purge goes a bounded batch at a time, through indexes (the inbound mail whose
text is still kept, the outbound mail by age), so a purge after a deadline storm
never holds the database for long.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, func, select, update

from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

_log = logging.getLogger(__name__)

PURGE_BATCH = 1000
"""Most inbound and most outbound rows one call purges."""


class Purged(NamedTuple):
    """What one call of :func:`purge_old_mail` purged, and whether more may be due."""

    inbound: int
    outbound: int
    more: bool


def purge_old_mail(db: Database, before: datetime, *, limit: int = PURGE_BATCH) -> Purged:
    """Empty the text of inbound mail handled before ``before`` and delete outbound mail sent (or given
    up) before it, at most ``limit`` of each; return how many inbound and outbound rows were purged and
    whether a further call may find more."""
    inbound = InboundMessageRow.__table__  # type: ignore[attr-defined]
    outbound = OutboundMessageRow.__table__  # type: ignore[attr-defined]
    kept = (select(inbound.c.id)
            .where(func.length(inbound.c.raw) > 0, inbound.c.handled_at < before, inbound.c.status != "new")
            .limit(limit))
    old = (select(outbound.c.id)
           .where(outbound.c.created_at < before, outbound.c.status != "queued")
           .limit(limit))
    with db.engine.begin() as connection:
        emptied_ids = [row.id for row in connection.execute(kept)]
        if emptied_ids:
            connection.execute(update(inbound).where(inbound.c.id.in_(emptied_ids)).values(raw=b""))
        deleted_ids = [row.id for row in connection.execute(old)]
        if deleted_ids:
            connection.execute(delete(outbound).where(outbound.c.id.in_(deleted_ids)))
    emptied, deleted = len(emptied_ids), len(deleted_ids)
    if emptied or deleted:
        _log.info("retention: emptied %d inbound and deleted %d outbound mails older than %s",
                  emptied, deleted, before.isoformat(timespec="minutes"))
    return Purged(emptied, deleted, emptied == limit or deleted == limit)
