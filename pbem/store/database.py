"""Opening a database: engine, SQLite pragmas, migrations to the newest schema, sessions.

Two engines: SQLite (a file path; the embedded default, for one daemon) and
PostgreSQL (``postgresql+psycopg://user:password@host/db``, with ``pip install
'pbem[postgres]'``), which several daemons may share.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Session, create_engine

from pbem import budget
from pbem.store.driver_path import DriverStatement
from pbem.store.direct import (  # noqa: F401  (database_url, engine_name: re-exported)
    BUSY_TIMEOUT_MS,
    POSTGRES_DRIVER,
    database_url,
    engine_name,
    is_transient_text,
    newest_revision,
)

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"

MIGRATION_LOCK = 0x7062656D_6D696772  # "pbemmigr": PostgreSQL advisory lock held while migrating


class UnsupportedDatabase(ValueError):
    """A database URL of an engine pbem does not run on, or whose driver is not installed."""




def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # Set before the first table of a new database is made, and only then (an existing one keeps its setting until
    # a VACUUM): the pages rows leave go back to the file system at each incremental_vacuum.
    cursor.execute("PRAGMA auto_vacuum=INCREMENTAL")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA secure_delete=ON")  # content removed (a password redacted) is zeroed, not left in free space
    # A checkpoint comes once the log holds WAL_SIZE_LIMIT of pages (SQLite's default, 1,000 pages, let it swing
    # by 4 MB), and once it copied the log into the file, the log is cut back to that size: without a limit it
    # keeps the largest size it ever reached (a burst of mail), for good.
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_SIZE_LIMIT // PAGE_SIZE}")
    cursor.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
    cursor.close()
    # A statement still running when the work's time budget is spent is ended by SQLite itself ("interrupted"):
    # the transaction then rolls back as after any error, and the connection stays healthy (see pbem.budget).
    dbapi_connection.set_progress_handler(budget.is_spent, PROGRESS_STEPS)


WAL_SIZE_LIMIT = 2**20
"""Bytes of SQLite's write-ahead log that bring a checkpoint, and that the log is cut back to after one."""

PAGE_SIZE = 4096
"""SQLite's page size (its default, which pbem keeps)."""

PROGRESS_STEPS = 1000
"""How many of SQLite's virtual machine steps a statement takes between two looks at the time budget (about
a tenth of a millisecond: a statement of a few rows never looks)."""


def is_transient_error(error: BaseException) -> bool:
    """True for a database error that passes by itself (locked, busy, disk full, connection lost):
    the work is tried again later, and it is never a reason to stop."""
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if not isinstance(error, OperationalError):
        return False
    return is_transient_text(str(error.orig))


class Database:
    """A migrated database and a factory for short sessions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._forgotten = False  # a secret was removed from a row since the last scrub
        self._held: dict[int, tuple[Any, Any]] = {}  # thread id -> (DBAPI connection, pool record) it holds
        self._kept: dict[int, Connection | None] = {}  # thread id -> the connection it keeps (see keep_connection)
        self._lent: dict[int, int] = {}  # thread id -> the thread whose kept connection it uses now (see lent)
        event.listen(engine, "checkout", self._checked_out)
        event.listen(engine, "checkin", self._checked_in)

    def _checked_out(self, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        self._held[threading.get_ident()] = (dbapi_connection, record)

    def _checked_in(self, dbapi_connection: Any, _record: Any) -> None:
        for thread_id, (held, _) in list(self._held.items()):
            if held is dbapi_connection:
                self._held.pop(thread_id, None)

    def interrupt(self, thread_id: int) -> None:
        """End the statement the thread ``thread_id`` runs in the database now, if any, by the driver's own
        means; callable from any thread. On PostgreSQL the server is asked to cancel it (the transaction is
        then aborted, to be rolled back, and the connection stays healthy); on SQLite nothing is needed: its
        progress handler ends a statement whose thread's time budget is spent (see :mod:`pbem.budget`)."""
        held = self._held.get(thread_id)
        if held is None or self.engine.dialect.name != "postgresql":
            return
        connection = held[0]
        from psycopg.pq import TransactionStatus

        if connection.info.transaction_status == TransactionStatus.ACTIVE:
            connection.cancel()

    def _discard_held(self) -> None:
        """Close the connection this thread holds, without asking it anything (its transaction is rolled back
        by the database, its locks released), and have the pool forget it."""
        thread_id = threading.get_ident()
        held = self._held.pop(thread_id, None)
        kept = self._kept.get(thread_id)
        if kept is not None:  # the connection it keeps, with its pool record: its next session connects anew
            kept.invalidate()
        elif held is not None:
            held[1].invalidate()

    def forgot_secret(self) -> None:
        """Note that a secret (a password in a mail) was removed from a row: the next :meth:`scrub` rewrites
        the files that may still hold it."""
        self._forgotten = True

    @property
    def has_forgotten(self) -> bool:
        """True when a secret was removed since the last :meth:`scrub` that reached every file."""
        return self._forgotten

    def scrub(self) -> bool:
        """Leave no copy on disk of the secrets removed since the last scrub; return True when done.

        SQLite zeroes removed content in the database file (``secure_delete``, set on every
        connection), but its write-ahead log keeps the old pages: a checkpoint copies the newest
        pages into the file and truncates the log. When a reader holds the log (another process)
        the checkpoint stops short, returns False and is tried at the next scrub. PostgreSQL keeps
        old row versions until VACUUM reuses their space (autovacuum, see docs/operators.md): nothing to do here.
        """
        if not self._forgotten:
            return True
        if not self.checkpoint():
            return False
        self._forgotten = False
        return True

    def checkpoint(self) -> bool:
        """SQLite: copy the write-ahead log into the database file and cut the log to nothing, without waiting:
        when a reader in another process holds the log, stop short and return False (tried again at the next
        call; the daemon goes on meanwhile). True at once for PostgreSQL."""
        if self.engine.dialect.name != "sqlite":
            return True
        with self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA busy_timeout=0")
            try:
                busy = connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").scalar()
            finally:
                connection.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return not busy

    def give_back_free_pages(self) -> None:
        """SQLite: give the pages freed by deleted rows back to the file system (``PRAGMA incremental_vacuum``),
        for a database made with ``auto_vacuum = INCREMENTAL`` (every new one: see docs/operators.md for an older
        one); a database without keeps them for its next rows. Nothing for PostgreSQL."""
        if self.engine.dialect.name != "sqlite":
            return
        connection = self.engine.raw_connection()
        try:  # as a script: each step of the statement frees one page, and a plain execute takes only the first
            connection.driver_connection.executescript("PRAGMA incremental_vacuum;")  # type: ignore[union-attr]
        finally:
            connection.close()

    @property
    def shared(self) -> bool:
        """True when several daemons may use the database at once (PostgreSQL); False for SQLite,
        which serves one daemon."""
        return self.engine.dialect.name == "postgresql"

    def keep_connection(self) -> None:
        """SQLite: from now on the calling thread's sessions and :meth:`begin` blocks use one connection, kept
        between them until :meth:`give_back_connection`, instead of taking one from the pool and giving it back
        each time (with the pool's reset and events: some 60 us, twice a mail). For the daemon's worker thread,
        the one thread that uses the database (see :meth:`lent`). Nothing on PostgreSQL, whose pool replaces a
        connection the server dropped."""
        if self.engine.dialect.name == "sqlite":
            self._kept[threading.get_ident()] = None

    def give_back_connection(self, thread_id: int) -> None:
        """Give the connection thread ``thread_id`` keeps back to the pool (once the thread is done with the
        database: a thread that goes on takes its connections from the pool again)."""
        connection = self._kept.pop(thread_id, None)
        if connection is not None:
            connection.close()

    @contextmanager
    def lent(self, thread_id: int) -> Iterator[None]:
        """While the block runs, the calling thread's sessions and :meth:`begin` blocks use the connection thread
        ``thread_id`` keeps (:meth:`keep_connection`; that thread must not use the database meanwhile), and do not
        wait for another connection's write lock: a write then fails at once, "database is locked". The one
        connection keeps its page cache: SQLite empties a connection's cache whenever another connection of the
        file wrote, which cost the worker 150 to 300 us of CPU at its next mail (the handler of
        bench/bench_handler.py with its marks made on a second connection)."""
        if thread_id not in self._kept:
            raise ValueError(f"thread {thread_id} keeps no connection")
        borrower = threading.get_ident()
        self._lent[borrower] = thread_id
        try:
            connection = self._bind()
            assert isinstance(connection, Connection)
            _driver(connection).execute("PRAGMA busy_timeout=0")
            try:
                yield
            finally:
                if not connection.invalidated:
                    _driver(connection).execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        finally:
            del self._lent[borrower]

    def _bind(self) -> Engine | Connection:
        """What this thread's next session or transaction runs on: the connection it keeps, or is lent
        (connected now when there is none, or it was lost), or the engine."""
        thread_id = self._lent.get(threading.get_ident(), threading.get_ident())
        if thread_id not in self._kept:
            return self.engine
        connection = self._kept[thread_id]
        if connection is None or connection.invalidated:
            if connection is not None:
                connection.close()
            connection = self._kept[thread_id] = self.engine.connect()
        elif connection.in_transaction():  # a session inside a session: its own connection, as before
            return self.engine
        return connection

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """Yield a connection in a transaction that commits when the block ends normally and rolls back on error
        (as ``engine.begin()``, on the thread's kept connection when it keeps one)."""
        bind = self._bind()
        if isinstance(bind, Engine):
            with bind.begin() as connection:
                yield connection
        else:
            with bind.begin():
                yield bind

    def write_alone(self, statement: DriverStatement, params: Mapping[str, Any]) -> int:
        """Run one INSERT or UPDATE in a transaction of its own and commit it, as ``with begin() as c:
        statement.run(c, params)`` does, on the thread's kept (or lent) connection without SQLAlchemy's
        transaction around it (:meth:`DriverStatement.run_alone`); return how many rows it wrote or matched."""
        bind = self._bind()
        if isinstance(bind, Engine):
            with bind.connect() as connection:
                return statement.run_alone(connection, params)
        return statement.run_alone(bind, params)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """Yield a session that commits when the block ends normally and rolls back on error."""
        bind = self._bind()
        with Session(bind, expire_on_commit=False) as session, _ended(bind):
            try:
                yield session
                budget.check()  # a unit whose budget ran out is rolled back, not committed
                session.commit()
            except BaseException as error:
                try:
                    session.rollback()
                finally:
                    if isinstance(error, budget.OverBudget) and _reached_driver(error):
                        self._discard_held()
                raise

    def close(self) -> None:
        """Release the engine's connections."""
        for thread_id in list(self._kept):
            self.give_back_connection(thread_id)
        self.engine.dispose()


@contextmanager
def _ended(bind: Engine | Connection) -> Iterator[None]:
    """Leave a kept connection with no transaction once the block is done with it, whatever ended the block (as
    the pool resets a connection given back to it)."""
    try:
        yield
    finally:
        if isinstance(bind, Connection) and not bind.invalidated and bind.in_transaction():
            bind.rollback()


def _driver(connection: Connection) -> Any:
    """The DBAPI connection under ``connection`` (a statement run on it begins no transaction of SQLAlchemy's)."""
    return connection.connection.driver_connection


def _reached_driver(error: BaseException) -> bool:
    """True when ``error`` was raised in, or passed through, the code of SQLAlchemy or the database's driver
    (the watchdog's last resort, in a race it lost): the connection's state is then unknown."""
    tb = error.__traceback__.tb_next if error.__traceback__ is not None else None  # below this module's frame
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if budget.is_locking_code(name) and "/pbem/store/" not in name:
            return True
        tb = tb.tb_next
    return False


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
    On PostgreSQL the migration holds an advisory lock, so that daemons started
    together migrate one after the other (the later ones find nothing to do).
    On SQLite foreign keys are not enforced while migrating: a migration that
    changes a table copies it, and dropping the old copy must not check the rows
    that refer to it (alembic's "batch" migrations).
    """
    if is_current(engine):
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction, or it does nothing
            connection.commit()
        with connection.begin():
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


DEAD_PEER_SECONDS = 4
"""On PostgreSQL, for a daemon's connections: the server probes a connection silent for 2 s every second and
ends it after two probes unanswered, or once data it sent stays unacknowledged this long."""
_DEAD_PEER_OPTIONS = (" -c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=2"
                      f" -c tcp_user_timeout={DEAD_PEER_SECONDS * 1000}")


def open_database(path_or_url: str, *, stuck_seconds: float | None = None) -> Database:
    """Open (creating and migrating as needed) the database at a path or URL.

    On PostgreSQL every connection works in UTC; with ``stuck_seconds`` the server
    ends a session that stays that long inside a transaction without a statement
    (a daemon that hangs while it holds a mail's or a game's lock), so its locks
    pass to another daemon, and notices within :data:`DEAD_PEER_SECONDS` that the
    other end of a connection is gone (the daemon's machine died or was cut off:
    no connection is closed then), through TCP keepalives, so that its locks pass
    at once too. Raises UnsupportedDatabase when the URL's driver is
    not installed (PostgreSQL needs ``pip install 'pbem[postgres]'``).
    """
    url = database_url(path_or_url)
    if url.startswith("sqlite"):
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_pragmas)
    elif url.startswith(POSTGRES_DRIVER):
        options = "-c timezone=UTC"
        if stuck_seconds is not None:
            options += f" -c idle_in_transaction_session_timeout={round(stuck_seconds * 1000)}" + _DEAD_PEER_OPTIONS
        try:
            engine = create_engine(url, pool_pre_ping=True, connect_args={"options": options})
        except ModuleNotFoundError as error:
            raise UnsupportedDatabase(
                f"PostgreSQL needs the psycopg driver: pip install 'pbem[postgres]' ({error})") from error
    else:
        engine = create_engine(url)
    migrate(engine)
    return Database(engine)
