"""Shared fixtures: a fresh database file, the game service on it, and the test-only game ``tiny``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.service.api import GameService
from pbem.store import Database, open_database

sys.path.insert(0, str(Path(__file__).parent / "support"))


@pytest.fixture
def tiny_game() -> Iterator[str]:
    """Register the test-only game kind ``tiny`` (tests/support/tiny) for the duration of a test."""
    from new_game import TINY, registered

    with registered(TINY.parent, "tiny", "tiny") as kind:
        yield kind


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """A migrated SQLite database in a temporary file."""
    database = open_database(str(tmp_path / "pbem.db"))
    yield database
    database.close()


@pytest.fixture
def runner(db: Database) -> GameService:
    """The game service on the temporary database (the fixture keeps the name the shared tests use)."""
    return GameService(db)
