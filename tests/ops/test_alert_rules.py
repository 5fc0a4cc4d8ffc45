"""The Prometheus alert rules of deploy/prometheus: Prometheus's own ``promtool`` checks them and runs their
unit tests (each alert fires on the metrics as pbem exports them, and only once its condition held long
enough), and every metric they name is one pbem exports.

``promtool`` is Debian's ``prometheus`` package (``.ci/run`` installs it); without it these tests skip,
saying so, and fail under ``CI``, which must run them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.clock import utcnow
from pbem.ops.figures import LAST_SEEN_KEY
from pbem.ops.health import WATCHED_LOOPS, LoopWatch
from pbem.ops.metrics import DaemonMetrics, DaemonView, metrics_registry
from pbem.store import Database
from pbem.store.tables import SettingRow

RULES = Path(__file__).resolve().parents[2] / "deploy" / "prometheus"


def _promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        reason = "promtool is not installed: apt-get install prometheus to check the alert rules"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must run them")
        pytest.skip(reason)
    return found


def _promtool_says(*args: str) -> str:
    done = subprocess.run([_promtool(), *args], cwd=RULES, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_promtool_finds_the_rules_well_formed() -> None:
    out = _promtool_says("check", "rules", "pbem-alerts.yml")
    assert "SUCCESS: 13 rules found" in out, out


def test_every_alert_fires_in_the_unit_tests_of_promtool() -> None:
    assert "SUCCESS" in _promtool_says("test", "rules", "pbem-alerts.test.yml")
    rules = (RULES / "pbem-alerts.yml").read_text()
    tests = (RULES / "pbem-alerts.test.yml").read_text()
    alerts = re.findall(r"^\s+- alert: (\w+)$", rules, re.MULTILINE)
    firing = re.findall(r"alertname: (\w+)\n\s+exp_alerts:\n\s+- exp_labels", tests)
    assert len(alerts) == 13 and set(firing) == set(alerts)


def test_the_rules_name_only_metrics_pbem_exports(db: Database) -> None:
    watch = LoopWatch()
    for loop in WATCHED_LOOPS:
        watch.running(loop)
    watch.beat("clock")
    with db.session() as session:
        session.add(SettingRow(key=LAST_SEEN_KEY, value=utcnow().isoformat()))
    view = DaemonView(watch=watch, outages=lambda: {"intake": None, "sender": None}, restarts={},
                      sent=lambda: {"reply": 1}, send_failed=lambda: 0, clock_lag=lambda: 0.0)
    registry = metrics_registry(db, (DaemonMetrics(), view))
    exported = {sample.name for family in registry.collect() for sample in family.samples}
    named = set(re.findall(r"\bpbem_[a-z_]+", (RULES / "pbem-alerts.yml").read_text()))
    assert named and named <= exported, named - exported
