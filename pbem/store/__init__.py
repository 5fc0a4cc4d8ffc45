"""Persistence: the sqlmodel tables, migrations, and the database handle.

The names below are imported when first used, so that a module of this package that needs no ORM
(:mod:`pbem.store.direct`, for ``pbem deliver``) loads without it."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.store.database import Database, UnsupportedDatabase, engine_name, is_transient_error, open_database

__all__ = ["Database", "UnsupportedDatabase", "engine_name", "is_transient_error", "open_database"]


def __getattr__(name: str) -> Any:
    """The names of :mod:`pbem.store.database`, imported on first use."""
    if name in __all__:
        return getattr(import_module("pbem.store.database"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
