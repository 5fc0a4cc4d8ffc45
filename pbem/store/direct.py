"""The database without SQLAlchemy: where it is, whether its schema is current, and one INSERT through the
driver itself (the standard library's sqlite3, or psycopg), for the short-lived ``pbem deliver``, which
must start and store a mail in a fraction of the time importing the ORM takes (bench/bench_startup.py).

Whether the schema is current is read without alembic: the revision the database records against the
newest migration file's number. A database that is not current is left to
:func:`pbem.store.open_database`, which migrates it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
POSTGRES_DRIVER = "postgresql+psycopg"
BUSY_TIMEOUT_MS = 10_000
"""How long an SQLite statement waits for another connection's lock before it fails as busy."""
TRANSIENT_WORDS = ("locked", "busy", "full", "disk i/o", "unable to open", "could not connect", "connection",
                   "server closed", "deadlock", "could not serialize", "could not obtain lock", "terminating",
                   "canceling statement", "the database system is")
"""Words of a database error that passes by itself (locked, busy, full, the connection lost)."""


class SchemaNotCurrent(RuntimeError):
    """The database's schema is not at the newest migration (or it has none): it needs migrating first."""


def database_url(path_or_url: str) -> str:
    """Return an SQLAlchemy URL for a file path (SQLite) or a URL: ``postgresql://`` and
    ``postgres://`` URLs get the psycopg 3 driver, other URLs pass through."""
    if "://" not in path_or_url:
        return f"sqlite:///{Path(path_or_url).expanduser()}"
    scheme, rest = path_or_url.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"{POSTGRES_DRIVER}://{rest}"
    return path_or_url


def engine_name(path_or_url: str) -> str:
    """The engine a path or URL names: ``sqlite``, ``postgresql``, or another dialect's name."""
    return database_url(path_or_url).split("://", 1)[0].split("+", 1)[0]


def sqlite_path(url: str) -> str | None:
    """The file of an ``sqlite://`` URL (None for another engine, or an in-memory database)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("://", 1)[1][1:].split("?", 1)[0]
    return path if path and path != ":memory:" else None


def server_identity(url: str) -> str:
    """Which database a server URL names, without its password (the same for every spelling of one URL
    that differs in the password's escaping or the driver's name)."""
    parts = urlsplit(url)
    scheme = parts.scheme.split("+", 1)[0]
    port = f":{parts.port}" if parts.port else ""
    return f"{scheme}://{parts.username or ''}@{parts.hostname or ''}{port}{parts.path}?{parts.query}"


def newest_revision() -> str:
    """Return the revision id of the newest migration (the files are numbered ``NNNN_name.py``)."""
    return max(path.name.split("_", 1)[0] for path in (_MIGRATIONS / "versions").glob("[0-9]*_*.py"))


def is_transient_text(message: str) -> bool:
    """True when a database error's message says it passes by itself (see :data:`TRANSIENT_WORDS`)."""
    text = message.lower()
    return any(word in text for word in TRANSIENT_WORDS)


def insert_row(path_or_url: str, table: str, values: Mapping[str, Any], *, durable: bool = True) -> int | None:
    """Insert one row of ``values`` into ``table`` and commit (synced to the disk on SQLite with ``durable``);
    return its id, or None when a unique key refused it (stored before). Raises :class:`SchemaNotCurrent`
    when the schema is not the newest (nothing is written), and the driver's errors (sqlite3's, psycopg's)."""
    url = database_url(path_or_url)
    columns = ", ".join(values)
    path = sqlite_path(url)
    if path is not None:
        connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            connection.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            connection.execute("PRAGMA foreign_keys=ON")
            _check_current(connection.execute("SELECT version_num FROM alembic_version").fetchall()
                           if _sqlite_has_versions(connection) else [])
            marks = ", ".join("?" for _ in values)
            try:
                with connection:  # BEGIN ... COMMIT
                    connection.execute("BEGIN IMMEDIATE")
                    cursor = connection.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                                                [_sqlite_value(value) for value in values.values()])
            except sqlite3.IntegrityError:
                return None
            return int(cursor.lastrowid or 0)
        finally:
            connection.close()
    if engine_name(url) != "postgresql":
        raise SchemaNotCurrent(f"{engine_name(url)}: only SQLite and PostgreSQL are stored to directly")
    import psycopg

    with psycopg.connect(url.replace(POSTGRES_DRIVER, "postgresql", 1), options="-c timezone=UTC") as connection:
        found = connection.execute("SELECT to_regclass('alembic_version') IS NOT NULL").fetchone()
        _check_current(connection.execute("SELECT version_num FROM alembic_version").fetchall()
                       if found and found[0] else [])
        marks = ", ".join("%s" for _ in values)
        try:
            row = connection.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING id",
                                     list(values.values())).fetchone()
        except psycopg.errors.UniqueViolation:
            return None
        return int(row[0]) if row else None


def _sqlite_has_versions(connection: sqlite3.Connection) -> bool:
    return connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").fetchone() is not None


def _check_current(versions: list[tuple[Any, ...]]) -> None:
    if [row[0] for row in versions] != [newest_revision()]:
        raise SchemaNotCurrent("the database's schema is not the newest: it needs migrating")


def _sqlite_value(value: object) -> object:
    """A value as SQLAlchemy writes it to SQLite: a datetime as ``YYYY-MM-DD HH:MM:SS.ffffff`` (its zone
    dropped: pbem's times are UTC)."""
    if hasattr(value, "strftime"):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")  # type: ignore[attr-defined]
    return value
