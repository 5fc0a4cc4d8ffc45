"""Statements every mail runs, run on SQLite's driver itself: :class:`DriverStatement`.

SQLAlchemy costs some 25 us of CPU to execute a statement whose own work in SQLite takes 5 to 20 (building
the execution context, its cursor and result objects), and a daemon runs about ten such statements for
each mail it handles: the mail stored, the game's version, the sender's consent and preferences, the seat's
last version and its new submission, the reply queued and claimed, the marks of a mail handled and of a
mail sent. A :class:`DriverStatement` is compiled
once, by SQLAlchemy's compiler, with the processors of its types (a time to its text and back, JSON, a
boolean), and on SQLite runs on the connection's DBAPI connection, in the transaction SQLAlchemy began
there. A driver error is raised as SQLAlchemy raises it (:class:`~sqlalchemy.exc.DBAPIError` and its
subclasses, such as an OperationalError for "database is locked"), so callers tell transient errors apart
as before. On another engine (PostgreSQL, whose lost connections SQLAlchemy's own handling invalidates), and
while anything listens to the engine's statements (SQLAlchemy's ``before_execute`` and the like: a test, a
tracer), the statement runs through SQLAlchemy as any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Insert, Select, Update
from sqlalchemy.exc import DBAPIError

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Compiled:
    """A statement as SQLite's driver takes it: its SQL, its parameters' names in order with their
    processors, the values of the parameters the statement holds itself, and its columns' processors."""

    sql: str
    binds: tuple[tuple[str, Processor], ...]
    fixed: dict[str, Any]
    results: tuple[Processor, ...]

    def values(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The driver's parameters for ``params`` (the statement's own values where ``params`` has none)."""
        fixed, values = self.fixed, []
        for name, process in self.binds:  # a plain loop: a third of the time of nested generators
            value = params[name] if name in params else fixed[name]
            values.append(value if process is None else process(value))
        return tuple(values)

    def row(self, found: tuple[Any, ...]) -> tuple[Any, ...]:
        """A row as the driver gave it, with its columns' processors applied."""
        return tuple([value if process is None else process(value)
                      for value, process in zip(found, self.results, strict=True)])


class DriverStatement:
    """A SELECT, or an INSERT or UPDATE without RETURNING, whose parameters are plain values (no expanding
    ``IN``) and that leaves no column to a default computed in Python: run on SQLite's driver (see the
    module), through SQLAlchemy elsewhere. An INSERT or UPDATE writes the columns its parameters name, as
    SQLAlchemy's ``execute`` does (each set of names is compiled once)."""

    def __init__(self, statement: Select[Any] | Insert | Update) -> None:
        self.statement = statement
        self._compiled: dict[frozenset[str], _Compiled] = {}

    def first(self, connection: Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row the statement finds, as a tuple of its columns, or None."""
        if _through_sqlalchemy(connection):
            found = connection.execute(self.statement, params).first()
            return tuple(found) if found is not None else None
        compiled = self._for(connection, params)
        cursor = self._run(connection, compiled, params)
        try:
            found = cursor.fetchone()
        finally:
            cursor.close()
        return compiled.row(found) if found is not None else None

    def all(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every row the statement finds, each a tuple of its columns."""
        if _through_sqlalchemy(connection):
            return [tuple(found) for found in connection.execute(self.statement, params)]
        compiled = self._for(connection, params)
        cursor = self._run(connection, compiled, params)
        try:
            return [compiled.row(found) for found in cursor.fetchall()]
        finally:
            cursor.close()

    def run(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """Run the statement (an INSERT or UPDATE); return how many rows it wrote or matched."""
        if _through_sqlalchemy(connection):
            return connection.execute(self.statement, params).rowcount
        cursor = self._run(connection, self._for(connection, params), params)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def run_alone(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """Run the statement (an INSERT or UPDATE) in a transaction of its own on ``connection``, which is in
        none, and commit it; return how many rows it wrote or matched. On SQLite's driver the transaction is
        the driver's own (it begins at the statement, it commits or, when the statement fails, rolls back),
        without SQLAlchemy's transaction around it: for one small write made for every mail (a reply marked
        sent), whose transaction cost more CPU than its statement and its commit."""
        if _through_sqlalchemy(connection):
            with connection.begin():
                return self.run(connection, params)
        driver = connection.connection.driver_connection
        assert driver is not None
        try:
            count = self.run(connection, params)
            try:
                driver.commit()
            except connection.dialect.loaded_dbapi.Error as error:  # raised as SQLAlchemy raises it
                raise DBAPIError.instance("COMMIT", (), error, connection.dialect.loaded_dbapi.Error,
                                          dialect=connection.dialect) from error
        except BaseException:
            driver.rollback()
            raise
        return count

    def new_id(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """Run the statement (an INSERT of one row); return the row's id."""
        if _through_sqlalchemy(connection):
            return int(connection.execute(self.statement, params).inserted_primary_key[0])
        cursor = self._run(connection, self._for(connection, params), params)
        try:
            return int(cursor.lastrowid)
        finally:
            cursor.close()

    def _for(self, connection: Connection, params: Mapping[str, Any]) -> _Compiled:
        """The statement compiled for SQLite with the parameters ``params`` names."""
        keys = frozenset(params)
        compiled = self._compiled.get(keys)
        if compiled is None:
            compiled = self._compiled[keys] = _compile(self.statement, connection, keys)
        return compiled

    @staticmethod
    def _run(connection: Connection, compiled: _Compiled, params: Mapping[str, Any]) -> Any:
        """Execute ``compiled`` with ``params`` on the connection's driver; return its cursor."""
        dialect = connection.dialect
        values = compiled.values(params)
        driver = connection.connection.driver_connection
        assert driver is not None
        try:
            return driver.execute(compiled.sql, values)
        except dialect.loaded_dbapi.Error as error:
            raise DBAPIError.instance(compiled.sql, values, error, dialect.loaded_dbapi.Error,
                                      dialect=dialect) from error


def _through_sqlalchemy(connection: Connection) -> bool:
    """True when a statement on ``connection`` must run through SQLAlchemy: not SQLite, or something listens to
    its statements (the flags SQLAlchemy itself looks at before it calls the listeners)."""
    return (connection.dialect.name != "sqlite"
            or connection._has_events or connection.engine._has_events)  # noqa: SLF001


def _compile(statement: Select[Any] | Insert | Update, connection: Connection, keys: frozenset[str]) -> _Compiled:
    """``statement`` compiled by SQLAlchemy for the connection's dialect (positional parameters, as SQLite's
    driver takes them), with its types' processors for that dialect. Raises ValueError for a statement whose
    execution needs more of SQLAlchemy: expanding parameters, defaults computed in Python, RETURNING."""
    dialect = connection.dialect
    compiled = statement.compile(dialect=dialect, column_keys=sorted(keys))
    names = compiled.positiontup
    if (not compiled.positional or names is None or compiled.literal_execute_params or compiled.post_compile_params
            or compiled.insert_prefetch or compiled.update_prefetch or compiled.effective_returning):
        raise ValueError(f"not a statement with plain positional parameters alone: {compiled.string}")
    binds = tuple((name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)) for name in names)
    fixed = {name: value for name, value in compiled.construct_params(_check=False).items() if name not in keys}
    columns = statement.selected_columns if isinstance(statement, Select) else ()
    results = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns)
    return _Compiled(compiled.string, binds, fixed, results)
