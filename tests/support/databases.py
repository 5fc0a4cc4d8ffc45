"""The database engine the tests run on: SQLite files, or a PostgreSQL server the tests start themselves.

``pytest --db-engine postgresql`` (or ``PBEM_TEST_DB=postgresql``) runs every
test that uses a database on PostgreSQL: a server of Debian's ``postgresql``
package (``/usr/lib/postgresql/<version>/bin``, or ``initdb`` on the PATH, or
the folder in ``PBEM_PG_BIN``) is set up with ``initdb`` in a temporary
directory and started with ``pg_ctl`` on a free port of 127.0.0.1 the first
time a test asks for a database, and stopped at the end of the run. PostgreSQL
refuses to run as root: as root (CI) the server runs as the ``postgres`` user
(or ``nobody``). Each test gets a database of its own, copied from a migrated
template and dropped after the test. Without the binaries those tests skip,
saying why; with ``CI`` set they fail instead, since CI must run them.
"""

from __future__ import annotations

import atexit
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from pbem.store import open_database
from pbem.store.database import database_url as sqlalchemy_url
from pbem.store.pg_programs import postgres_program

SQLITE = "sqlite"
POSTGRESQL = "postgresql"
ENGINES = (SQLITE, POSTGRESQL)
TEMPLATE = "pbem_template"
_USER = "pbem"


class _Settings:
    engine = SQLITE
    asked: Callable[[], None] | None = None  # told whenever a test asks for the engine (engine_record.py)
    server: PostgresServer | None = None
    created: list[str] = []  # noqa: RUF012  (the databases of the running test)


def configure(engine: str) -> None:
    """Choose the engine of this run (from ``--db-engine``)."""
    if engine not in ENGINES:
        raise ValueError(f"--db-engine {engine}: give one of {', '.join(ENGINES)}")
    _Settings.engine = engine


def _asked() -> None:
    """Tell the engine record that the running test (or the module being imported) depends on the engine."""
    if _Settings.asked is not None:
        _Settings.asked()


def listen(asked: Callable[[], None]) -> None:
    """Have ``asked`` called whenever a test asks for a database or for the run's engine."""
    _Settings.asked = asked


def engine() -> str:
    """The engine of this run: ``sqlite`` or ``postgresql``."""
    _asked()
    return _Settings.engine


def on_postgresql() -> bool:
    """True when this run's databases are PostgreSQL databases."""
    _asked()
    return _Settings.engine == POSTGRESQL


def database_url(tmp_path: Path, name: str = "pbem.db") -> str:
    """A new, empty database for a test: the file ``tmp_path/name`` on SQLite, or a new PostgreSQL
    database (already migrated to the newest schema) that is dropped when the test ends."""
    _asked()
    return str(tmp_path / name) if _Settings.engine == SQLITE else _new_database(TEMPLATE)


def empty_database_url(tmp_path: Path, name: str = "empty.db") -> str:
    """A new database with no table at all (what ``pbem restore`` fills): the path of a file ``tmp_path/name``
    that does not exist yet on SQLite, or a new, empty PostgreSQL database, dropped when the test ends."""
    _asked()
    return str(tmp_path / name) if _Settings.engine == SQLITE else _new_database("template0")


def _new_database(template: str) -> str:
    """The URL of a new PostgreSQL database copied from ``template``, dropped when the test ends."""
    server = _server()
    database = f"t_{uuid.uuid4().hex[:16]}"
    server.execute(f'CREATE DATABASE "{database}" TEMPLATE {template}')
    _Settings.created.append(database)
    return server.url(database)


def drop_test_databases() -> None:
    """Drop the PostgreSQL databases made for the test that just ended (whoever is still connected)."""
    created, _Settings.created = _Settings.created, []
    if _Settings.server is not None:
        for database in created:
            _Settings.server.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def stop_server() -> None:
    """Stop the PostgreSQL server of the run, if one was started."""
    server, _Settings.server = _Settings.server, None
    if server is not None:
        server.stop()


def describe() -> str:
    """A line for the test report's header."""
    if _Settings.engine == SQLITE:
        return "database engine: sqlite (a file per test); --db-engine postgresql runs them on PostgreSQL"
    found = postgres_bin()
    where = f"server from {found}" if found else "PostgreSQL is not installed: the database tests will skip"
    return f"database engine: postgresql ({where})"


def query(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """Run one statement on the database at ``url`` (a file path or URL) in its own transaction;
    return the rows it gave (none for a statement that gives none)."""
    engine_ = create_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        with engine_.begin() as connection:
            result = connection.execute(text(sql), params)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine_.dispose()


def dump(url: str, *, skip: Collection[str] = ()) -> dict[str, list[str]]:
    """Every row of every table of the database at ``url`` but those named in ``skip``, as text, each
    table's rows sorted: equal dumps mean equal contents, on either engine."""
    engine_ = create_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        with engine_.connect() as connection:
            tables = sorted(set(inspect(connection).get_table_names()) - set(skip))
            return {table: sorted(repr(tuple(row)) for row in connection.execute(text(f'SELECT * FROM "{table}"')))
                    for table in tables}
    finally:
        engine_.dispose()


# --- the server ---------------------------------------------------------------------------


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's ``initdb`` and ``pg_ctl``: ``PBEM_PG_BIN``, Debian's newest
    ``/usr/lib/postgresql/<version>/bin``, or the PATH's (where pbem finds ``pg_dump``); None when there is none."""
    found = postgres_program("initdb")
    return found.parent if found else None


def _server() -> PostgresServer:
    if _Settings.server is None:
        binaries = postgres_bin()
        if binaries is None or not (binaries / "pg_ctl").exists():
            reason = ("PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin, on the PATH or in "
                      "PBEM_PG_BIN): apt-get install postgresql to run the tests on PostgreSQL")
            if os.environ.get("CI"):
                pytest.fail(reason + "; CI must run them")
            pytest.skip(reason)
        server = PostgresServer(binaries)
        try:
            server.start()
        except BaseException:
            server.stop()
            raise
        _Settings.server = server
        atexit.register(stop_server)
    return _Settings.server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """A throw-away PostgreSQL server in a temporary directory, on 127.0.0.1 (no durability: tests only)."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.root = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.account = self._account()

    @staticmethod
    def _account() -> pwd.struct_passwd | None:
        """The unprivileged user the server runs as when the tests run as root (PostgreSQL refuses root)."""
        if os.geteuid() != 0:
            return None
        for name in ("postgres", "nobody"):
            try:
                return pwd.getpwnam(name)
            except KeyError:
                continue
        raise RuntimeError("running as root, and there is no postgres or nobody user to run PostgreSQL as")

    def _run(self, *argv: str) -> None:
        account = self.account
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=120, cwd=self.root,
            user=account.pw_uid if account else None, group=account.pw_gid if account else None,
            extra_groups=[] if account else None,
        )
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}): {done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        """initdb, start the server and make the migrated template database."""
        if self.account is not None:
            os.chown(self.root, self.account.pw_uid, self.account.pw_gid)
        self._run(str(self.binaries / "initdb"), "-D", str(self.data), "-U", _USER, "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        settings = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300 "
                    "-c shared_buffers=64MB")
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-o", settings,
                  "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")
        self.execute(f"CREATE DATABASE {TEMPLATE}")
        open_database(self.url(TEMPLATE)).close()

    def stop(self) -> None:
        """Stop the server at once (when it runs) and remove its directory."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        """The URL of one database of the server."""
        return f"postgresql+psycopg://{_USER}@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str) -> None:
        """Run one statement outside a transaction, on the maintenance database."""
        engine_ = create_engine(self.url("postgres"), poolclass=NullPool, isolation_level="AUTOCOMMIT")
        try:
            with engine_.connect() as connection:
                connection.execute(text(sql))
        finally:
            engine_.dispose()
