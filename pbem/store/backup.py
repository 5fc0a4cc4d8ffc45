"""``pbem backup`` and ``pbem restore``: a consistent copy of a live database, and an empty database filled
from one.

A backup is one moment of the database, taken while ``pbem serve`` runs:
every mail in it is wholly handled (its orders, its reply queued, its status
``handled``) or not at all (status ``new``), since a mail is handled in one
transaction and the copy reads one snapshot.

* SQLite: ``VACUUM INTO`` reads the file in one read transaction (the daemon
  goes on writing meanwhile: the write-ahead log keeps readers and the writer
  apart) and writes a compact copy without free pages, so no old page (a
  password removed from a mail) travels with it. The backup is itself a
  SQLite file.
* PostgreSQL: ``pg_dump --format=custom`` (see :mod:`pbem.store.pg_programs`),
  which reads one snapshot of the database; ``pg_restore`` fills the target
  in one transaction.

The backup holds password hashes and mail: it is written to a temporary
file of mode 0600 beside ``FILE`` and renamed over it once complete (and on
the disk), so ``FILE`` is always a whole backup, the new or the old one.

A restore fills only an empty database (no table at all; a SQLite file that
does not exist yet is empty), of the backup's engine, and migrates it to this
pbem's schema. Mail the daemon stored after the backup is not in it: see
docs/operators.md ("Backups") for getting it back from the mailbox.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from pbem.core.errors import PbemError
from pbem.store.database import BUSY_TIMEOUT_MS, database_url, engine_name, newest_revision, open_database
from pbem.store.pg_programs import run_program, shown_url

__all__ = ["BackupError", "BackupRefused", "NoDatabase", "NotABackup", "NotEmpty", "Restored", "backup",
           "restore"]

SQLITE_MAGIC = b"SQLite format 3\x00"
"""How a SQLite file (a backup of a SQLite database) begins."""
PG_DUMP_MAGIC = b"PGDMP"
"""How a file of ``pg_dump --format=custom`` begins."""


class BackupError(PbemError):
    """A backup or a restore that failed; the message says why."""


class BackupRefused(BackupError):
    """A backup or a restore refused before anything was written: the command names a database, file or
    folder it cannot use."""


class NoDatabase(BackupRefused):
    """The database to back up is not there, or it is no pbem database."""


class NotABackup(BackupRefused):
    """The file to restore is no backup of pbem, or one of the other engine than the target's."""


class NotEmpty(BackupRefused):
    """The database to restore into already holds tables: a restore fills only an empty one."""


@dataclass(frozen=True)
class Restored:
    """What a restored database holds."""

    games: int
    mails: int
    """Stored mail, of every status."""
    handled: int
    """Stored mail whose handling ended (handled, failed or set aside)."""
    newest_mail: datetime | None
    """When the newest stored mail was received: mail received after it is not in the backup."""


def backup(db: str, file: Path) -> int:
    """Write a consistent copy of the live database at ``db`` (a SQLite path or a PostgreSQL URL) to
    ``file``, atomically and with mode 0600; return its size in bytes. Raises :class:`NoDatabase` when
    there is no pbem database at ``db``, :class:`BackupRefused` when ``file`` cannot be written there,
    :class:`BackupError` when the copy fails, and :class:`~pbem.store.pg_programs.PostgresProgramFailed` when
    ``pg_dump`` is missing or fails."""
    file = file.expanduser()
    if file.is_dir() or not file.parent.is_dir():
        raise BackupRefused(f"cannot write a backup file at {file}: "
                            + ("it is a folder" if file.is_dir() else "no such folder"))
    sqlite = engine_name(db) == "sqlite"
    if sqlite and Path(db).expanduser().resolve() == file.resolve():
        raise BackupRefused(f"{file} is the database itself: give the backup another file")
    _check_source(db)
    with _atomic_file(file) as temporary:
        if sqlite:
            _vacuum_into(Path(db).expanduser(), temporary)
        else:
            run_program("pg_dump", "--format=custom", f"--file={temporary}", url=db)
    return file.stat().st_size


def restore(file: Path, db: str) -> Restored:
    """Fill the empty database at ``db`` from the backup ``file`` (of :func:`backup`), migrate it to this
    pbem's schema and return what it holds. Raises :class:`NotABackup` for a file that is no backup of
    the target's engine (or one of a newer pbem), :class:`NotEmpty` when the target holds tables,
    :class:`BackupRefused` when the target cannot be made or reached, and
    :class:`~pbem.store.pg_programs.PostgresProgramFailed` when ``pg_restore`` is missing or fails."""
    file = file.expanduser()
    if not file.is_file():
        raise NotABackup(f"no backup file at {file}")
    with file.open("rb") as stream:
        magic = stream.read(len(SQLITE_MAGIC))
    sqlite = engine_name(db) == "sqlite"
    if not magic.startswith(SQLITE_MAGIC if sqlite else PG_DUMP_MAGIC):
        if magic.startswith(PG_DUMP_MAGIC):
            raise NotABackup(f"{file} is the backup of a PostgreSQL database: restore it into one "
                             "(--db postgresql+psycopg://...)")
        if magic.startswith(SQLITE_MAGIC):
            raise NotABackup(f"{file} is the backup of a SQLite database: restore it into a SQLite file (--db PATH)")
        raise NotABackup(f"{file} is no backup of pbem backup (neither a SQLite file nor a pg_dump archive)")
    if sqlite:
        _restore_sqlite(file, Path(db).expanduser())
    else:
        _check_revision(file, _dump_revision(file))
        _check_empty_postgres(db)
        run_program("pg_restore", "--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges",
                    str(file), url=db)
    return _contents(db)


def _check_source(db: str) -> None:
    """Raise :class:`NoDatabase` unless ``db`` is a pbem database one can read (never creating one)."""
    if engine_name(db) == "sqlite":
        path = Path(db).expanduser()
        if not path.is_file():
            raise NoDatabase(f"no database at {db}")
        with contextlib.closing(_open_sqlite(path)) as connection:
            try:
                connection.execute("SELECT version_num FROM alembic_version").fetchall()
            except sqlite3.DatabaseError as error:
                raise NoDatabase(f"{db} is no pbem database ({error})") from error
        return
    engine = create_engine(database_url(db), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except SQLAlchemyError as error:
        raise NoDatabase(f"no pbem database at {shown_url(db)}: {_first_line(error)}") from error
    finally:
        engine.dispose()


def _open_sqlite(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection to the existing SQLite file ``path`` (never creating it), read-only with ``read_only``."""
    mode = "ro" if read_only else "rw"
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True)
    connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return connection


def _vacuum_into(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` into the empty file ``target``, as one snapshot."""
    with contextlib.closing(_open_sqlite(source)) as connection:
        try:
            connection.execute("VACUUM INTO ?", (str(target),))
        except sqlite3.Error as error:
            raise BackupError(f"cannot copy {source}: {error}") from error


@contextlib.contextmanager
def _atomic_file(file: Path) -> Iterator[Path]:
    """Yield an empty temporary file of mode 0600 beside ``file``; once the block ended normally, put it on
    the disk and rename it to ``file`` (replacing the old one); otherwise remove it."""
    descriptor, name = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".tmp")
    os.close(descriptor)
    temporary = Path(name)
    try:
        yield temporary
        _sync(temporary)
        os.replace(temporary, file)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync(file.parent)


def _sync(path: Path) -> None:
    """Put the file or folder ``path`` on the disk (fsync)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _restore_sqlite(file: Path, target: Path) -> None:
    """Copy the SQLite backup ``file`` into the empty SQLite database ``target`` (a new file of mode 0600
    when there is none)."""
    if target.is_dir() or not target.parent.is_dir():
        raise BackupRefused(f"cannot make a database file at {target}: "
                            + ("it is a folder" if target.is_dir() else "no such folder"))
    with contextlib.closing(_open_sqlite(file, read_only=True)) as source:
        try:
            revision = source.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError as error:
            raise NotABackup(f"{file} is no backup of pbem ({error})") from error
        _check_revision(file, revision[0] if revision else None)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        with contextlib.closing(sqlite3.connect(target)) as destination:
            try:
                tables = destination.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            except sqlite3.DatabaseError as error:
                raise NotEmpty(f"--db {target} is not an empty database ({error})") from error
            if tables:
                raise NotEmpty(_not_empty(str(target), [name for (name,) in tables]))
            source.backup(destination)


def _check_empty_postgres(db: str) -> None:
    """Raise :class:`NotEmpty` when the PostgreSQL database ``db`` holds a table, :class:`BackupRefused` when
    it cannot be reached."""
    engine = create_engine(database_url(db), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            tables = inspect(connection).get_table_names()
    except SQLAlchemyError as error:
        raise BackupRefused(f"cannot reach the database {shown_url(db)} to restore into (createdb makes an empty "
                          f"one): {_first_line(error)}") from error
    finally:
        engine.dispose()
    if tables:
        raise NotEmpty(_not_empty(shown_url(db), tables))


def _not_empty(where: str, tables: list[str]) -> str:
    shown = ", ".join(sorted(tables)[:3]) + (", ..." if len(tables) > 3 else "")
    return (f"--db {where} is not empty (it holds {len(tables)} table(s): {shown}): a restore fills only an empty "
            "database; give a new file, or a new database (createdb)")


def _dump_revision(file: Path) -> str | None:
    """The schema revision a PostgreSQL backup holds (its ``alembic_version`` row), None when it holds none."""
    listing = run_program("pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(file))
    lines = listing.splitlines()
    for number, line in enumerate(lines[:-1]):
        if line.startswith("COPY ") and "alembic_version" in line:
            return lines[number + 1].strip() if lines[number + 1].strip() != "\\." else None
    return None


def _check_revision(file: Path, revision: str | None) -> None:
    """Raise :class:`NotABackup` for a backup without pbem's schema, or with a schema newer than this pbem's."""
    if revision is None:
        raise NotABackup(f"{file} holds no pbem database (no schema revision)")
    if revision > newest_revision():
        raise NotABackup(f"{file} was made by a newer pbem (schema {revision}; this one knows up to "
                         f"{newest_revision()}): restore it with that version")


def _contents(db: str) -> Restored:
    """Open (and migrate) the restored database and say what it holds."""
    database = open_database(db)
    try:
        with database.engine.connect() as connection:
            games = connection.execute(text("SELECT count(*) FROM game")).scalar_one()
            mails, handled, newest = connection.execute(text(
                "SELECT count(*), sum(CASE WHEN status = 'new' THEN 0 ELSE 1 END), max(received_at) "
                "FROM inbound_message")).one()
    finally:
        database.close()
    if isinstance(newest, str):  # SQLite gives the text of a max() back
        newest = datetime.fromisoformat(newest)
    if newest is not None and newest.tzinfo is None:
        newest = newest.replace(tzinfo=UTC)
    return Restored(games=games, mails=mails, handled=handled or 0, newest_mail=newest)


def _first_line(error: BaseException) -> str:
    text_ = str(getattr(error, "orig", None) or error)
    return (text_.strip().splitlines() or [type(error).__name__])[0]
