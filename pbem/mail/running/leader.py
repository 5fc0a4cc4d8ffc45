"""Which of several daemons sharing a database fetches the mail: one elected fetcher, with failover.

Several ``pbem serve`` processes on one PostgreSQL database watch one mailbox.
One of them fetches: the daemon that holds a PostgreSQL advisory lock, taken
with ``pg_try_advisory_lock`` on a connection of its own and held as long as
that connection lives. The others try again every few seconds; when the
fetcher dies (or its connection breaks), the server releases the lock and the
next daemon that tries becomes the fetcher. Every daemon handles and sends,
whoever fetched.

One fetcher rather than several: every mail is fetched, parsed and stored
once, one IMAP connection stays in IDLE (providers limit the connections per
account), and the intake's search starts where its last one stopped. Safety
does not depend on the election: while a lost connection is noticed, two
daemons may fetch for a moment, and each mail is still stored once (its
Message-ID is unique) and handled once (its row lock).
"""

from __future__ import annotations

import logging

from sqlalchemy import text
from sqlalchemy.engine import Connection

from pbem.store import Database

_log = logging.getLogger(__name__)

INTAKE_LOCK = 0x7062656D_696D6170
"""The advisory lock key of the fetcher ("pbemimap")."""


class IntakeLeadership:
    """The fetcher's lock, for one daemon: :meth:`try_lead`, :meth:`still_leading`, :meth:`resign`.
    Each call does blocking database work (run it off the event loop)."""

    def __init__(self, db: Database, key: int = INTAKE_LOCK) -> None:
        self.db = db
        self.key = key
        self._connection: Connection | None = None

    @property
    def leading(self) -> bool:
        """True while this daemon holds the lock (as far as it knows)."""
        return self._connection is not None

    def try_lead(self) -> bool:
        """Take the lock if no other daemon holds it; True when this daemon holds it now."""
        if self._connection is not None:
            return self.still_leading()
        connection = self.db.engine.connect()
        try:
            taken = bool(connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": self.key}).scalar())
            connection.commit()  # the lock belongs to the session, not to a transaction left open
        except Exception:
            connection.invalidate()
            connection.close()
            raise
        if not taken:
            connection.close()
            return False
        self._connection = connection
        return True

    def still_leading(self) -> bool:
        """True while the lock's connection is alive (so the lock is still held); False, and the connection
        dropped, when it broke."""
        connection = self._connection
        if connection is None:
            return False
        try:
            connection.execute(text("SELECT 1"))
            connection.commit()
        except Exception as error:  # noqa: BLE001  (any failure of the connection ends the leadership)
            _log.warning("the connection that holds the fetcher's lock broke: %s", error)
            self._drop()
            return False
        return True

    def resign(self) -> None:
        """Give the lock up (another daemon may fetch from now on)."""
        connection = self._connection
        if connection is None:
            return
        try:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": self.key})
            connection.commit()
        except Exception:  # noqa: BLE001  (closing the connection releases the lock anyway)
            _log.debug("unlocking the fetcher's lock failed; closing its connection", exc_info=True)
        self._drop()

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.invalidate()  # never back to the pool: the server ends the session and its lock
                connection.close()
            except Exception:  # noqa: BLE001
                _log.debug("closing the fetcher's connection failed", exc_info=True)
