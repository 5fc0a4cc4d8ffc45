"""How long ``pbem backup`` and ``pbem restore`` take on a big database, and the backup's size. Prints numbers.

    python bench/bench_backup.py [--games 1000] [--mails 100000] [--engines sqlite,postgresql]

Builds, on each engine, the database of bench/bench_status.py (``--games`` started games, ``--mails``
handled inbound mails with as many sent outgoing ones, their text purged), then times
:func:`pbem.store.backup.backup` of it and :func:`pbem.store.backup.restore` of that backup into a new,
empty database (migrations and the summary included).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import make_games  # noqa: E402
from bench_status import big_databases, fill_mail  # noqa: E402

from pbem.store import open_database  # noqa: E402
from pbem.store.backup import backup, restore  # noqa: E402


def main() -> None:
    with big_databases(__doc__, games=1_000, mails=100_000) as (args, engines):
        print(f"{args.games} games, {args.mails} handled and sent mails")
        print(f"{'engine':<12}{'backup s':>10}{'size MB':>9}{'restore s':>11}")
        for engine in engines.wanted:
            url = engines.new(engine)
            db = open_database(url)
            make_games(db, args.games)
            fill_mail(db, args.mails)
            db.close()
            file = engines.workdir / f"{engine}.backup"
            started = time.perf_counter()
            size = backup(url, file)
            copied = time.perf_counter() - started
            started = time.perf_counter()
            restored = restore(file, engines.new(engine, empty=True))
            filled = time.perf_counter() - started
            assert restored.games == args.games and restored.handled >= args.mails, restored
            print(f"{engine:<12}{copied:>10.1f}{size / 1e6:>9.1f}{filled:>11.1f}")


if __name__ == "__main__":
    main()
