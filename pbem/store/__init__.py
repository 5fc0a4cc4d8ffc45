"""Persistence: the sqlmodel tables, migrations, and the database handle."""

from pbem.store.database import Database, open_database

__all__ = ["Database", "open_database"]
