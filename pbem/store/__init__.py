"""Persistence: the sqlmodel tables, migrations, and the database handle."""

from pbem.store.database import Database, UnsupportedDatabase, engine_name, is_transient_error, open_database

__all__ = ["Database", "UnsupportedDatabase", "engine_name", "is_transient_error", "open_database"]
