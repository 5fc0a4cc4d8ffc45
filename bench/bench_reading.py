"""Time to read one mail, for honest big mail and hostile shapes, in ms per MB of raw mail.

Prints numbers only. Usage:

    python bench/bench_reading.py [--sizes 32,256,1024] [--before /path/to/other/checkout] [--profile SHAPE]

Each shape (``SHAPES`` of tests/support/big_mails.py, which the test of linear
time reads too) is built at each size (KB of raw mail) and read as handling
reads a mail that is not oversized (``read_as_handling``: the mail, the
Authentication-Results verdict with a trusted server, whether it holds a
password, the command script). A cell is the shortest of three
readings, in milliseconds per MB; the last column is the time at the largest
size. A reading is linear when a row's numbers stay about the same; the target
is at most 500 ms for a 1 MB mail (the per-mail time budget is 2 s).

Measured on the 2-core development machine under a load average of 6 to 9
(other work running), at 1 MB: honest mail (newsletters, HTML only, many parts,
alternatives within mixed, quoted-printable and base64 bodies) 29 to 300 ms per
MB, the hostile shapes 18 to 540; the reading before (html.parser, the feed
parser's parts, a Python step per line) took 360 to 1,750 ms per MB of honest
mail and up to 4,850 (1 MB of ``<br>``) and 18,700 (a delivery report of empty
lines) for hostile mail.

``--before PATH`` runs the same shapes against the checkout at PATH (another
worktree: its ``pbem`` package is imported instead of this one) in a child
process right after, and prints both, so the two are measured under the same
load. ``--profile SHAPE`` prints the cProfile of reading that shape at the
largest size instead.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from big_mails import SHAPES, read_as_handling  # noqa: E402  (the shapes the linear-time test reads)

import pbem  # noqa: E402


def _seconds(raw: bytes) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        read_as_handling(raw)
        best = min(best, time.perf_counter() - started)
    return best


def measure(sizes: list[int]) -> dict[str, list[float]]:
    """For each shape, the ms per MB at each size (KB), then the ms of the largest size."""
    read_as_handling(next(iter(SHAPES.values()))(4096))  # warm caches: grammars, regular expressions
    figures = {}
    for name, build in SHAPES.items():
        row = []
        for size in sizes:
            raw = build(size * 1024)
            seconds = _seconds(raw)
            row.append(seconds * 1000 / (len(raw) / 2**20))
        row.append(seconds * 1000)
        figures[name] = row
    return figures


def _print(title: str, sizes: list[int], figures: dict[str, list[float]]) -> None:
    print(f"{title}: ms per MB at " + ", ".join(f"{size} KB" for size in sizes) + f"; ms at {sizes[-1]} KB")
    for name, row in figures.items():
        print(f"  {name:<30}" + "".join(f"{cell:>9.0f}" for cell in row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,256,1024", help="sizes in KB, comma-separated")
    parser.add_argument("--before", type=Path, help="also measure the pbem checkout at this path")
    parser.add_argument("--profile", help="profile reading this shape at the largest size")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child of --before
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    if args.profile:
        raw = SHAPES[args.profile](sizes[-1] * 1024)
        read_as_handling(raw)
        profile = cProfile.Profile()
        profile.runcall(read_as_handling, raw)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        return
    figures = measure(sizes)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"load average {os.getloadavg()[0]:.2f}")
    _print(f"this checkout ({Path(pbem.__file__).parent.parent})", sizes, figures)
    if args.before:
        child = subprocess.run(
            [sys.executable, __file__, "--sizes", args.sizes, "--json"], check=True, capture_output=True, text=True,
            env={**os.environ, "PYTHONPATH": str(args.before.resolve()), "PYTHONSAFEPATH": "1"})
        _print(f"before ({args.before})", sizes, json.loads(child.stdout))
        print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
