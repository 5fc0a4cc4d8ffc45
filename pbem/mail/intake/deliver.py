"""``pbem deliver``: one mail on standard input stored for the daemon (``.forward``, procmail, Postfix ``pipe``).

The mail is stored in the inbound table and committed, and the running
``pbem serve`` on the same database handles it at once: ``deliver`` nudges it
(:mod:`pbem.mail.intake.wake`; on Linux, on the same host), and without a nudge its
processing loop finds the mail at its next look (every second, every 0.2 s on
PostgreSQL). The exit codes are the
ones mail servers understand (``sysexits.h``):

* 0 (EX_OK): stored, or stored before (the same Message-ID: a mail delivered
  again is handled once). A mail over the size limit is stored as its
  beginning and its size, as the IMAP intake stores it, and answered with a
  refusal that says the limit: the player learns why, which a bounce from the
  mail server would tell less clearly. The rest of it is read and dropped.
* 75 (EX_TEMPFAIL): not stored, try again later: the database is locked, busy,
  full or unreachable, or it does not exist (a wrong ``--db``; ``pbem serve``
  creates it), or storing failed otherwise. The mail server keeps the mail and
  tries again, so nothing is lost.
* 65 (EX_DATAERR): the input is empty: no mail to store (the mail server
  bounces it).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import BinaryIO

from pbem.clock import utcnow
from pbem.mail.intake.wake import nudge
from pbem.mail.reading.bounded_mime import DEFAULT_MAX_SIZE, OVERSIZED_PREFIX
from pbem.mail.reading.identity import identity_of
from pbem.store.direct import SchemaNotCurrent, engine_name, insert_row, is_transient_text

__all__ = ["EX_DATAERR", "EX_OK", "EX_TEMPFAIL", "deliver", "read_mail"]

_log = logging.getLogger(__name__)

EX_OK = os.EX_OK
EX_DATAERR = os.EX_DATAERR
EX_TEMPFAIL = os.EX_TEMPFAIL
CHUNK = 64 * 1024


class NoDatabase(OSError):
    """``pbem deliver`` was pointed at a SQLite file that does not exist (it never creates one)."""


def read_mail(stream: BinaryIO, max_size: int = DEFAULT_MAX_SIZE) -> tuple[bytes, int]:
    """Read a mail from ``stream`` to its end: return what to keep of it (all of it, or its first
    :data:`~pbem.mail.reading.bounded_mime.OVERSIZED_PREFIX` bytes when it is over ``max_size``) and its size.
    A leading mbox ``From `` line (procmail and ``pipe`` flag F write one) is not part of the mail.
    Memory stays bounded by ``max_size`` whatever the input's size."""
    kept = bytearray()
    size = 0
    first = True
    while chunk := stream.read(CHUNK):
        if first and chunk.startswith(b"From "):
            while b"\n" not in chunk and len(chunk) < max_size:  # the From_ line is longer than a chunk
                more = stream.read(CHUNK)
                if not more:
                    break
                chunk += more
            chunk = chunk.partition(b"\n")[2]
        first = False
        within = size <= max_size  # before this chunk
        size += len(chunk)
        if within:
            kept += chunk
            if size > max_size:  # over the limit from here on: its beginning is all that is kept
                del kept[OVERSIZED_PREFIX:]
    return bytes(kept), size


def deliver(db_path: str, stream: BinaryIO, *, max_size: int = DEFAULT_MAX_SIZE) -> int:
    """Store the mail on ``stream`` in the database at ``db_path`` (committed) and return the exit code
    for the mail server: :data:`EX_OK`, :data:`EX_TEMPFAIL` or :data:`EX_DATAERR` (see the module).
    Never raises for a failure to store: it is logged, and the code says to try again."""
    raw, size = read_mail(stream, max_size)
    if not raw.strip():
        _log.error("pbem deliver: the input holds no mail")
        return EX_DATAERR
    try:
        if engine_name(db_path) == "sqlite" and "://" not in db_path and not Path(db_path).is_file():
            raise NoDatabase(f"no database at {db_path} (pbem serve creates it; is --db right?)")
        try:
            stored = _store_directly(db_path, raw, size)
        except SchemaNotCurrent:
            stored = _store_migrating(db_path, raw, size, max_size)
        if stored is not None:
            nudge(db_path)
    except Exception as error:  # not stored: the mail server keeps the mail and tries again
        expected = isinstance(error, NoDatabase) or _is_transient(error)
        _log.error("pbem deliver: not stored, to be tried again: %s", error, exc_info=None if expected else error)
        return EX_TEMPFAIL
    _log.info("pbem deliver: %s", "stored before" if stored is None else f"stored as inbound {stored}")
    return EX_OK


def _store_directly(db_path: str, raw: bytes, size: int) -> int | None:
    """Store the mail with one INSERT through the database's driver, without the ORM (a lean start: see
    :mod:`pbem.store.direct`); the row :meth:`~pbem.mail.reading.mailstore.InboundStore.store` writes. Return its id, or
    None when its Message-ID was stored before. Raises :class:`~pbem.store.direct.SchemaNotCurrent` when the
    database needs migrating."""
    identity = identity_of(raw)
    return insert_row(db_path, "inbound_message", {
        "message_id": identity.message_id, "uid": None, "raw": raw, "size": size, "received_at": utcnow(),
        "status": "new", "sender": identity.sender, "subject": identity.subject, "attempts": 0})


def _store_migrating(db_path: str, raw: bytes, size: int, max_size: int) -> int | None:
    """Store the mail in a database whose schema is older than pbem's: opened as ``pbem serve`` opens it
    (migrated), through the inbound store."""
    from pbem.mail.reading.mailstore import InboundStore
    from pbem.store import open_database

    db = open_database(db_path)
    try:
        return InboundStore(db, max_size=max_size).store(None, raw, size=size, durable=True)
    finally:
        db.close()


def _is_transient(error: BaseException) -> bool:
    """True when storing failed for a reason that passes by itself (the database locked, busy, away)."""
    if "sqlalchemy" in type(error).__module__:
        from pbem.store import is_transient_error

        return is_transient_error(error)
    return type(error).__name__ == "OperationalError" and is_transient_text(str(error))
