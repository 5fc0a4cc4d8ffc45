"""Opening a database: engine, SQLite pragmas, migrations to the newest schema, sessions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Session, create_engine

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def database_url(path_or_url: str) -> str:
    """Return an SQLAlchemy URL for a file path (SQLite) or pass a URL through."""
    if "://" in path_or_url:
        return path_or_url
    return f"sqlite:///{Path(path_or_url).expanduser()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


_TRANSIENT = ("locked", "busy", "full", "disk i/o", "unable to open", "could not connect", "connection",
              "server closed", "deadlock", "could not serialize")


def is_transient_error(error: BaseException) -> bool:
    """True for a database error that passes by itself (locked, busy, disk full, connection lost):
    the work is tried again later, and it is never a reason to stop."""
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if not isinstance(error, OperationalError):
        return False
    text_ = str(error.orig).lower()
    return any(fragment in text_ for fragment in _TRANSIENT)


class Database:
    """A migrated database and a factory for short sessions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def session(self) -> Iterator[Session]:
        """Yield a session that commits when the block ends normally and rolls back on error."""
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def close(self) -> None:
        """Release the engine's connections."""
        self.engine.dispose()


def newest_revision() -> str:
    """Return the revision id of the newest migration (the files are numbered ``NNNN_name.py``)."""
    return max(path.name.split("_", 1)[0] for path in (_MIGRATIONS / "versions").glob("[0-9]*_*.py"))


def is_current(engine: Engine) -> bool:
    """True when the database's schema is at the newest migration (alembic need not run)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return False
        versions = [row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))]
    return versions == [newest_revision()]


def migrate(engine: Engine) -> None:
    """Upgrade the schema to the newest migration (creating it on an empty database).

    alembic is imported only when there is something to do: most opens find
    the schema current, and the import is the slowest part of starting pbem.
    """
    if is_current(engine):
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def open_database(path_or_url: str) -> Database:
    """Open (creating and migrating as needed) the database at a path or URL."""
    url = database_url(path_or_url)
    engine = create_engine(url)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    migrate(engine)
    return Database(engine)
