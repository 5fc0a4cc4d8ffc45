"""The PostgreSQL run leaves out only the tests that the SQLite run saw reach no database
(tests/support/engine_record.py): a test, a fixture or a test module that asks for the engine is run."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

SUPPORT = Path(__file__).parent / "support"

CONFTEST = """
import databases
from engine_record import EngineRecord

def pytest_addoption(parser):
    parser.addoption("--db-engine", default="sqlite")
    parser.addoption("--every-test", action="store_true")

def pytest_configure(config):
    databases.configure(config.getoption("--db-engine"))
    record = EngineRecord(config, recording=config.getoption("--db-engine") == "sqlite")
    databases.listen(record.touch)
    config.pluginmanager.register(record, "pbem-engine-record")
"""

TESTS = """
import pytest
from databases import engine, on_postgresql

@pytest.fixture(scope="module")
def shared_database():
    return engine()

def test_pure_rules():
    assert 1 + 1 == 2

def test_asks_in_its_body():
    assert engine() in ("sqlite", "postgresql")

def test_uses_the_shared_fixture_first(shared_database):
    assert shared_database

def test_uses_the_shared_fixture_later(shared_database):
    assert shared_database
"""

AT_IMPORT = """
from databases import on_postgresql
ENGINE_IS_POSTGRESQL = on_postgresql()

def test_reads_what_the_import_asked():
    assert ENGINE_IS_POSTGRESQL in (True, False)
"""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(SUPPORT))
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_mixed=TESTS, test_at_import=AT_IMPORT)
    return pytester


def test_the_postgresql_run_leaves_out_only_the_tests_that_reached_no_database(suite: pytest.Pytester) -> None:
    suite.runpytest_subprocess("-q").assert_outcomes(passed=5)
    again = suite.runpytest_subprocess("-v", "--db-engine", "postgresql")
    again.assert_outcomes(passed=4, deselected=1)
    ran = again.stdout.str()
    assert "test_pure_rules" not in ran.split("deselected")[0]
    for name in ("test_asks_in_its_body", "test_uses_the_shared_fixture_first", "test_uses_the_shared_fixture_later",
                 "test_reads_what_the_import_asked"):
        assert f"{name} PASSED" in ran
    assert "1 tests that reach no database ran on SQLite only" in ran


def test_every_test_and_a_run_with_no_record_run_them_all(suite: pytest.Pytester) -> None:
    suite.runpytest_subprocess("-q", "--db-engine", "postgresql").assert_outcomes(passed=5)
    suite.runpytest_subprocess("-q").assert_outcomes(passed=5)
    suite.runpytest_subprocess("-q", "--db-engine", "postgresql", "--every-test").assert_outcomes(passed=5)


def test_a_test_added_after_the_sqlite_run_is_run(suite: pytest.Pytester) -> None:
    suite.runpytest_subprocess("-q").assert_outcomes(passed=5)
    suite.makepyfile(test_new="def test_new_rule():\n    assert True\n")
    suite.runpytest_subprocess("-q", "--db-engine", "postgresql").assert_outcomes(passed=5, deselected=1)


def test_runs_split_over_workers_record_and_apply_the_same(suite: pytest.Pytester) -> None:
    """With pytest-xdist (``-n 2``, as .ci/run runs the suite) every worker's part reaches the record."""
    suite.runpytest_subprocess("-q", "-n", "2").assert_outcomes(passed=5)
    again = suite.runpytest_subprocess("-v", "-n", "2", "--db-engine", "postgresql")
    again.assert_outcomes(passed=4)
    ran = again.stdout.str()
    assert "test_pure_rules" not in ran
    assert "1 tests that reach no database ran on SQLite only" in ran
