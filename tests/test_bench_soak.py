"""The soak benchmark (bench/bench_soak.py): its ``--quick`` run goes end to end, so that it cannot rot, and its
verdicts say "NOT met" when a figure misses its target."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import databases
import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_soak.py"
TARGETS = ("mails:", "RSS:", "CPU per mail:", "p99 latency:", "database size, last three months:")


@pytest.mark.slow
def test_the_soak_benchmark_quick_run_plays_three_months_and_gives_every_verdict(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(BENCH), "--quick", "--engine", databases.engine()], cwd=tmp_path,
                         capture_output=True, text=True, timeout=280, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    months = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+([\d.]+)\s+([\d.]+)\s", run.stdout, re.MULTILINE)
    assert [int(month) for month, *_ in months] == [1, 2, 3], run.stdout
    assert all(int(mails) > 0 and int(lost) == 0 for _, mails, lost, _, _ in months), run.stdout  # every mail answered
    assert all(float(rss) > 10 and float(db) > 0 for *_, rss, db in months), run.stdout  # RSS and size measured
    for target in TARGETS:
        verdict = rf"^{re.escape(target)} .*\((?:.*; )?target .*: (?:met|NOT met)\)"
        assert re.search(verdict, run.stdout, re.MULTILINE), (target, run.stdout)
    assert re.search(r"^largest at month 3 \(MB\): \S+ \d+\.\d\d", run.stdout, re.MULTILINE), run.stdout


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCH.parent))
    try:
        return importlib.import_module("bench_soak")
    finally:
        sys.path.remove(str(BENCH.parent))


def _year(bench: ModuleType, *, rss: float = 0.0, db: float = 0.0, cpu: float = 0.0, p99: float = 0.0) -> list:
    """Twelve months of 1,800 mails each; each figure grows by the given share a month after month 2."""
    months = []
    for number in range(1, 13):
        grown = max(0, number - 2)
        month = bench.Month(number, mails=1800, cpu=1800 * 0.02 * (1 + cpu) ** grown,
                            latencies=[0.2] * 98 + [1.0 * (1 + p99) ** grown] * 2,
                            rss_mb=130 * (1 + rss) ** grown, db_mb=20 * (1 + db) ** grown)
        months.append(month)
    return months


@pytest.mark.parametrize("grows", ["rss", "db", "cpu", "p99"])
def test_each_verdict_is_met_for_a_flat_year_and_not_met_when_its_figure_creeps(bench: ModuleType,
                                                                                 grows: str) -> None:
    flat = bench.verdicts(_year(bench))
    assert len([line for line in flat if line.startswith(TARGETS)]) == len(TARGETS)
    assert all("NOT met" not in line for line in flat if line.startswith(TARGETS)), flat
    creeping = bench.verdicts(_year(bench, **{grows: 0.05}))  # 5% a month
    missed = [line.split(":")[0] for line in creeping if line.startswith(TARGETS) and "NOT met" in line]
    assert missed == [{"rss": "RSS", "db": "database size, last three months", "cpu": "CPU per mail",
                       "p99": "p99 latency"}[grows]], creeping
