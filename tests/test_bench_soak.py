"""The soak benchmark (bench/bench_soak.py) runs end to end in its ``--quick`` mode, so that it cannot rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import databases
import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_soak.py"


@pytest.mark.slow
def test_the_soak_benchmark_quick_run_plays_three_months_and_gives_every_verdict(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(BENCH), "--quick", "--engine", databases.engine()], cwd=tmp_path,
                         capture_output=True, text=True, timeout=280, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    months = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s", run.stdout, re.MULTILINE)
    assert [int(month) for month, _, _ in months] == [1, 2, 3], run.stdout
    assert all(int(mails) > 0 and int(lost) == 0 for _, mails, lost in months), run.stdout  # every mail answered
    for target in ("mails:", "RSS:", "CPU per mail:", "p99 latency:", "database size, last three months:"):
        verdict = rf"^{re.escape(target)} .*\((?:.*; )?target .*: (?:met|NOT met)\)"
        assert re.search(verdict, run.stdout, re.MULTILINE), (target, run.stdout)
