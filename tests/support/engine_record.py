"""Which tests reach a database of the run's engine: learnt on a SQLite run, used by a PostgreSQL run.

The engine of a run reaches a test only through tests/support/databases.py (a database for it, or which
engine runs). A test that never asks does exactly the same on either engine: the game rules, the
grammars, the drawings and the pages of a game kind. The SQLite run records in pytest's cache every test
that asked (by node id), every fixture being set up when one was asked for (so that every test using that
fixture counts, whatever its scope), and every test module that asked while it was imported. A PostgreSQL
run then runs the tests so recorded, and every test the record does not know (a new test, a module the
SQLite run did not reach), and deselects the rest, saying how many: they ran on SQLite already.
``--every-test`` runs them all again.

Under pytest-xdist (``-n``) the workers run the tests: each hands what it saw to the controller when it
ends (its ``workeroutput``), and the controller alone writes the record, so that no worker's part is
lost to another's write."""

from __future__ import annotations

import inspect
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

CACHE_KEY = "pbem/engine-record"
WORKER_OUTPUT_KEY = "pbem_engine_record"


class EngineRecord:
    """The pytest plugin that records (on SQLite) and applies (on PostgreSQL) which tests reach a database."""

    def __init__(self, config: pytest.Config, *, recording: bool) -> None:
        self.config = config
        self.recording = recording
        self.item: pytest.Item | None = None
        self.fixtures_in_setup: list[str] = []
        self.ran: set[str] = set()
        self.touched: set[str] = set()
        self.fixtures: set[str] = set()
        self.modules: set[str] = set()
        self.collected_modules: set[str] = set()
        self.deselected = 0

    def touch(self) -> None:
        """Note that the running test (or the module being imported) asked for the run's engine."""
        if not self.recording:
            return
        if self.item is not None:
            self.touched.add(self.item.nodeid)
            self.fixtures.update(self.fixtures_in_setup)
            return
        module = self._importing_test_module()
        if module is not None:
            self.modules.add(module)

    def _importing_test_module(self) -> str | None:
        """The test module (its path from the root, as in node ids) whose import asked, if one did."""
        root = self.config.rootpath
        support = root / "tests" / "support"
        for frame in inspect.stack(context=0):
            path = Path(frame.filename)
            if path.name.startswith("test_") and support not in path.parents and root in path.parents:
                return path.relative_to(root).as_posix()
        return None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, Any, None]:
        self.item = item
        self.ran.add(item.nodeid)
        try:
            yield
        finally:
            self.item = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[Any]) -> Generator[None, Any, None]:
        self.fixtures_in_setup.append(fixturedef.argname)
        try:
            yield
        finally:
            self.fixtures_in_setup.pop()

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        self.collected_modules = {item.nodeid.split("::", 1)[0] for item in items}
        if self.recording or config.getoption("--every-test") or getattr(config, "cache", None) is None:
            return
        record = config.cache.get(CACHE_KEY, None)
        if not record:
            return
        ran, touched = set(record["ran"]), set(record["touched"])
        fixtures, modules = set(record["fixtures"]), set(record["modules"])
        kept, deselected = [], []
        for item in items:
            needed = (item.nodeid not in ran or item.nodeid in touched or item.nodeid.split("::", 1)[0] in modules
                      or not fixtures.isdisjoint(getattr(item, "fixturenames", ())))
            (kept if needed else deselected).append(item)
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = kept
            self.deselected = len(deselected)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """A pytest-xdist worker ended: take in what it saw (the controller writes the record)."""
        seen = getattr(node, "workeroutput", {}).get(WORKER_OUTPUT_KEY)
        if seen is None:
            return
        self.ran.update(seen["ran"])
        self.touched.update(seen["touched"])
        self.fixtures.update(seen["fixtures"])
        self.modules.update(seen["modules"])
        self.collected_modules.update(seen["collected_modules"])
        self.deselected = max(self.deselected, seen["deselected"])

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[WORKER_OUTPUT_KEY] = {
                "ran": sorted(self.ran), "touched": sorted(self.touched), "fixtures": sorted(self.fixtures),
                "modules": sorted(self.modules), "collected_modules": sorted(self.collected_modules),
                "deselected": self.deselected,
            }
            return
        if not self.recording or getattr(session.config, "cache", None) is None or not self.ran:
            return
        old = session.config.cache.get(CACHE_KEY, None) or {"ran": [], "touched": [], "fixtures": [], "modules": []}
        record = {
            "ran": sorted(set(old["ran"]) | self.ran),
            "touched": sorted((set(old["touched"]) - self.ran) | self.touched),
            "fixtures": sorted(set(old["fixtures"]) | self.fixtures),
            "modules": sorted((set(old["modules"]) - self.collected_modules) | self.modules),
        }
        session.config.cache.set(CACHE_KEY, record)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.deselected:
            terminalreporter.write_line(
                f"{self.deselected} tests that reach no database ran on SQLite only (the engine record of the "
                f"SQLite run; --every-test runs them here too)")
