"""Persistence: the sqlmodel tables, migrations, and the database handle."""

from pbem.store.database import Database, is_transient_error, open_database

__all__ = ["Database", "is_transient_error", "open_database"]
