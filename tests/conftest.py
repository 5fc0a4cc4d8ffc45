"""Shared fixtures: a fresh database (a SQLite file, or a PostgreSQL database with
``--db-engine postgresql``), the game service on it, and the test-only game ``tiny``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.service.api import GameService
from pbem.store import Database, open_database

sys.path.insert(0, str(Path(__file__).parent / "support"))

import databases  # noqa: E402  (tests/support, put on the path just above)
from engine_record import EngineRecord  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--db-engine", choices=databases.ENGINES, default=os.environ.get("PBEM_TEST_DB", databases.SQLITE),
        help="the database the tests run on: sqlite (default) or postgresql, a server the tests start "
             "themselves from Debian's postgresql package (env PBEM_TEST_DB)")
    parser.addoption(
        "--every-test", action="store_true",
        help="on PostgreSQL, run also the tests that the SQLite run found reach no database (by default they "
             "are deselected there: they ran on SQLite already; see tests/support/engine_record.py)")


def pytest_configure(config: pytest.Config) -> None:
    databases.configure(config.getoption("--db-engine"))
    record = EngineRecord(config, recording=not databases.on_postgresql())
    databases.listen(record.touch)
    config.pluginmanager.register(record, "pbem-engine-record")


def pytest_report_header(config: pytest.Config) -> str:
    return databases.describe()


def pytest_unconfigure(config: pytest.Config) -> None:
    databases.stop_server()


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    """Drop the PostgreSQL databases a test made, when it ends (nothing to do on SQLite)."""
    yield
    databases.drop_test_databases()


@pytest.fixture
def tiny_game() -> Iterator[str]:
    """Register the test-only game kind ``tiny`` (tests/support/tiny) for the duration of a test."""
    from new_game import TINY, registered

    with registered(TINY.parent, "tiny", "tiny") as kind:
        yield kind


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A new database of the run's engine: a SQLite file path, or a PostgreSQL URL."""
    return databases.database_url(tmp_path)


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    """The migrated database of :func:`db_url`, open."""
    database = open_database(db_url)
    yield database
    database.close()


@pytest.fixture
def runner(db: Database) -> GameService:
    """The game service on the temporary database (the fixture keeps the name the shared tests use)."""
    return GameService(db)
