"""Start-up benchmark: how long the ``pbem`` command takes from start to exit.

Prints numbers only; no assertions. Usage:

    python bench/bench_startup.py [--runs 7]

Runs, each ``--runs`` times as a fresh process (after one unmeasured run to warm
the disk cache and lark's grammar cache): ``pbem --help``, ``pbem check
turkey-chase FILE`` (the standalone order checker, no database) and ``pbem
show GAME`` (a database command, on a game made beforehand with ``pbem new``).
For each it prints the fastest and the median wall time, and whether the run
imported the database stack (sqlalchemy). The command is the ``pbem`` script
next to this Python when installed, else ``python -m pbem.cli``.

Target (issue 10): ``pbem --help`` and ``pbem check`` start in under 0.2 s; only
commands that need the database import it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ORDERS = "FEED F1\nMOVE F7-F8\n"
_SAYS_IMPORTED = "import sys; import atexit; atexit.register(lambda: print('sqlalchemy' in sys.modules, file=sys.stderr))"


def command() -> list[str]:
    """The ``pbem`` command: the installed script beside this Python, else the module."""
    script = Path(sys.executable).with_name("pbem")
    if script.exists():
        return [str(script)]
    found = shutil.which("pbem")
    return [found] if found else [sys.executable, "-m", "pbem.cli"]


def timed(argv: list[str], cwd: Path, runs: int) -> list[float]:
    """Run ``argv`` once unmeasured, then ``runs`` times; return the wall times in seconds."""
    times: list[float] = []
    for index in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if index:
            times.append(time.perf_counter() - start)
    return times


def imports_database(args: list[str], cwd: Path) -> bool:
    """True when ``pbem ARGS`` imports sqlalchemy (checked in a separate run through ``python -c``)."""
    code = f"{_SAYS_IMPORTED}; import sys; sys.argv = ['pbem', *{args!r}]; from pbem.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=False)
    return done.stderr.strip().splitlines()[-1] == "True"


def main() -> None:
    """Measure and print the start-up times."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    pbem = command()
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        (cwd / "orders.txt").write_text(ORDERS)
        seats = [f"--seat={seat}={seat.lower()}@example.org" for seat in "ABCD"]
        subprocess.run([*pbem, "new", "turkey-chase", "tc-1", *seats, "--seed", "1"], cwd=cwd, check=True,
                       stdout=subprocess.DEVNULL)
        cases = [
            ("pbem --help", ["--help"]),
            ("pbem check KIND FILE", ["check", "turkey-chase", "orders.txt"]),
            ("pbem show GAME (database)", ["show", "tc-1"]),
        ]
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"command: {' '.join(pbem)}; {args.runs} runs each; load average {load:.2f} on {os.cpu_count()} cores")
        print(f"{'command':<28} {'fastest':>9} {'median':>9}  imports the database")
        for label, argv in cases:
            times = timed([*pbem, *argv], cwd, args.runs)
            database = "yes" if imports_database(argv, cwd) else "no"
            print(f"{label:<28} {min(times):>8.3f}s {statistics.median(times):>8.3f}s  {database}")


if __name__ == "__main__":
    main()
