"""How long ``pbem backup`` and ``pbem restore`` take on a big database, and the backup's size. Prints numbers.

    python bench/bench_backup.py [--games 1000] [--mails 100000] [--engines sqlite,postgresql]

Builds, on each engine, the database of bench/bench_status.py (``--games`` started games, ``--mails``
handled inbound mails with as many sent outgoing ones, their text purged), then times
:func:`pbem.store.backup.backup` of it and :func:`pbem.store.backup.restore` of that backup into a new,
empty database (migrations and the summary included).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import Engines, make_games  # noqa: E402
from bench_status import fill_mail  # noqa: E402

from pbem.store import open_database  # noqa: E402
from pbem.store.backup import backup, restore  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--mails", type=int, default=100_000)
    parser.add_argument("--engines", default="sqlite,postgresql")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        engines = Engines(Path(workdir), args.engines.split(","))
        if engines.missing:
            print(engines.missing)
        try:
            print(f"{args.games} games, {args.mails} handled and sent mails")
            print(f"{'engine':<12}{'backup s':>10}{'size MB':>9}{'restore s':>11}")
            for engine in engines.wanted:
                url = engines.new(engine)
                db = open_database(url)
                make_games(db, args.games)
                fill_mail(db, args.mails)
                db.close()
                file = Path(workdir) / f"{engine}.backup"
                started = time.perf_counter()
                size = backup(url, file)
                copied = time.perf_counter() - started
                target = engines.new(engine, empty=True)
                started = time.perf_counter()
                restored = restore(file, target)
                filled = time.perf_counter() - started
                assert restored.games == args.games and restored.handled >= args.mails, restored
                print(f"{engine:<12}{copied:>10.1f}{size / 1e6:>9.1f}{filled:>11.1f}")
        finally:
            engines.close()


if __name__ == "__main__":
    main()
