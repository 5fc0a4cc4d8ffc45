"""How long mail is kept: the raw text of handled and sent mail goes after a retention period.

Inbound rows stay (their Message-ID recognises a mail delivered again) with
their text emptied; sent and failed outbound rows are deleted. Mail that held
a password is redacted at once instead (see :mod:`pbem.mail.mailstore`).
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import delete, update

from pbem.store import Database
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

_log = logging.getLogger(__name__)


def purge_old_mail(db: Database, before: datetime) -> tuple[int, int]:
    """Empty the text of inbound mail handled before ``before`` and delete outbound mail sent (or given
    up) before it; return how many inbound and outbound rows were purged."""
    inbound = InboundMessageRow.__table__  # type: ignore[attr-defined]
    outbound = OutboundMessageRow.__table__  # type: ignore[attr-defined]
    with db.engine.begin() as connection:
        emptied = connection.execute(
            update(inbound)
            .where(inbound.c.status != "new", inbound.c.handled_at < before, inbound.c.raw != b"")
            .values(raw=b"")
        ).rowcount
        deleted = connection.execute(
            delete(outbound).where(outbound.c.status != "queued", outbound.c.created_at < before)
        ).rowcount
    if emptied or deleted:
        _log.info("retention: emptied %d inbound and deleted %d outbound mails older than %s",
                  emptied, deleted, before.isoformat(timespec="minutes"))
    return emptied, deleted
