"""Start-up benchmark: the CPU the ``pbem`` command takes from start to exit, beside ``python -c pass``.

Prints numbers only; no assertions. Usage:

    python bench/bench_startup.py [--runs 7] [--pbem DIR]

Runs, each ``--runs`` times as a fresh process (after one unmeasured run that writes the bytecode
caches and lark's grammar cache, as an installed pbem has them): ``python -c pass``, ``pbem --version``,
``pbem check turkey-chase FILE`` (the standalone order checker, no database), ``pbem deliver`` of one
mail (a new Message-ID each run) into a migrated SQLite database made beforehand with ``pbem new``, and
``pbem show GAME`` (a database command, for comparison). For each it prints the median and the least
CPU seconds of the child (user + system, from ``os.wait4``), the median wall time, and whether the run
imported the database stack (sqlalchemy). The command is ``python -m pbem.cli`` (the ``pbem`` script's
entry point, :func:`pbem.cli.main`) of the pbem this Python imports, or of the source tree ``--pbem DIR``
(to measure an older checkout in the same run).

Targets (issue 33): ``pbem deliver``, ``pbem --version`` and ``pbem check KIND FILE`` at most 0.15 s of
CPU each; only commands that need the database import it.

Measured figures, before and after the lean start: docs/operators.md, "What a mail costs".
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ORDERS = "FEED F1\nMOVE F7-F8\n"
MAIL = "From: a@example.org\r\nTo: gm@example.org\r\nSubject: [tc-1] orders\r\nMessage-ID: <{n}@bench>\r\n\r\nHELP\r\n"
_SAYS_IMPORTED = "import sys; import atexit; atexit.register(lambda: print('sqlalchemy' in sys.modules, file=sys.stderr))"


def child_env(tree: Path | None) -> dict[str, str]:
    """The environment of the measured runs: bytecode caches written and read (as an installed pbem has
    them), and ``tree`` first on the path when given."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = f"{tree}{os.pathsep}{env.get('PYTHONPATH', '')}"
    return env


def run(argv: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None) -> tuple[float, float]:
    """Run ``argv`` once; return its CPU seconds (user + system) and wall seconds."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    if process.stdin is not None:
        process.stdin.write(stdin or b"")
        process.stdin.close()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {process.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def measure(argv: list[str], cwd: Path, env: dict[str, str], runs: int,
            stdin: list[bytes] | None = None) -> tuple[list[float], list[float]]:
    """Run ``argv`` once unmeasured, then ``runs`` times (``stdin[i]`` on the i-th run's input); return the
    CPU and the wall seconds of the measured runs."""
    cpu: list[float] = []
    wall: list[float] = []
    for index in range(runs + 1):
        spent, took = run(argv, cwd, env, stdin[index] if stdin else None)
        if index:
            cpu.append(spent)
            wall.append(took)
    return cpu, wall


def imports_database(args: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None) -> bool:
    """True when ``pbem ARGS`` imports sqlalchemy (checked in a separate run through ``python -c``)."""
    code = f"{_SAYS_IMPORTED}; import sys; sys.argv = ['pbem', *{args!r}]; from pbem.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, input=stdin or b"",
                          capture_output=True, check=False)
    return done.stderr.decode().strip().splitlines()[-1] == "True"


def main() -> None:
    """Measure and print the start-up CPU."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pbem", type=Path, help="the source tree of the pbem to measure (default: the one "
                                                  "this Python imports)")
    args = parser.parse_args()
    if not 1 <= args.runs <= 100:
        parser.error("--runs must be 1..100")
    tree = args.pbem.resolve() if args.pbem else None
    env = child_env(tree)
    pbem = [sys.executable, "-m", "pbem.cli"]
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        (cwd / "orders.txt").write_text(ORDERS)
        seats = [f"--seat={seat}={seat.lower()}@example.org" for seat in "ABCD"]
        subprocess.run([*pbem, "new", "turkey-chase", "tc-1", *seats, "--seed", "1"], cwd=cwd, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        mails = [MAIL.format(n=number).encode() for number in range(args.runs + 2)]
        cases: list[tuple[str, list[str], list[bytes] | None]] = [
            ("python -c pass", ["-c", "pass"], None),
            ("pbem --version", ["--version"], None),
            ("pbem check KIND FILE", ["check", "turkey-chase", "orders.txt"], None),
            ("pbem deliver (SQLite)", ["deliver", "--db", "pbem.db"], mails),
            ("pbem show GAME (database)", ["show", "tc-1"], None),
        ]
        load = " ".join(f"{value:.2f}" for value in os.getloadavg())
        print(f"pbem: {tree or 'as installed'} (python -m pbem.cli); {args.runs} runs each; load average {load} on "
              f"{os.cpu_count()} cores")
        print(f"{'command':<28} {'cpu median':>11} {'cpu least':>10} {'wall median':>12}  imports the database")
        for label, argv, stdin in cases:
            command = [sys.executable, *argv] if label.startswith("python") else [*pbem, *argv]
            cpu, wall = measure(command, cwd, env, args.runs, stdin)
            database = "" if label.startswith("python") else (
                "yes" if imports_database(argv, cwd, env, mails[-1] if stdin else None) else "no")
            print(f"{label:<28} {statistics.median(cpu):>10.3f}s {min(cpu):>9.3f}s {statistics.median(wall):>11.3f}s"
                  f"  {database}")
        print(f"(load average afterwards {' '.join(f'{value:.2f}' for value in os.getloadavg())})")


if __name__ == "__main__":
    main()
