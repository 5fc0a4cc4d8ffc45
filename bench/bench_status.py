"""What one scrape of /metrics (and one ``pbem status``) costs on a big database. Prints numbers.

    python bench/bench_status.py [--games 10000] [--mails 1000000] [--engines sqlite,postgresql]

Builds, on each engine, a database with ``--games`` started games and ``--mails`` handled inbound
mails with as many sent outgoing ones (their text purged, as after the retention time), plus a few
new, failed and queued ones, then times :func:`pbem.ops.figures.read_figures`: a scrape as the
daemon makes it (stored mail by status counted at most once a minute: only indexed queries) and a
scrape that counts every stored mail by status (once a minute, and ``pbem status``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import Engines, make_games  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from pbem.clock import utcnow  # noqa: E402
from pbem.ops.figures import StatusCounts, read_figures  # noqa: E402
from pbem.store import Database, open_database  # noqa: E402
from pbem.store.tables import InboundMessageRow, OutboundMessageRow  # noqa: E402

BATCH = 20_000
SCRAPES = 20


def fill_mail(db: Database, mails: int) -> None:
    """``mails`` handled inbound and sent outbound mails (purged text), and a few waiting in each."""
    inbound, outbound = InboundMessageRow.__table__, OutboundMessageRow.__table__  # type: ignore[attr-defined]
    then = utcnow() - timedelta(days=30)
    waiting = {"new": 100, "failed": 50, "set_aside": 20}
    with db.engine.begin() as connection:
        for start in range(0, mails + sum(waiting.values()), BATCH):
            rows_in, rows_out = [], []
            for number in range(start, min(start + BATCH, mails + sum(waiting.values()))):
                status = "handled"
                if number >= mails:
                    over = number - mails
                    status = "new" if over < 100 else "failed" if over < 150 else "set_aside"
                rows_in.append({"message_id": f"<{number}@bench>", "raw": b"", "received_at": then,
                                "sender": f"p{number % 5000}@bench", "status": status,
                                "handled_at": None if status == "new" else then})
                sent = number < mails or number >= mails + 200
                rows_out.append({"created_at": then, "sender": "gm@bench", "recipients": [f"p{number % 5000}@bench"],
                                 "raw": b"", "status": "sent" if sent else "queued", "next_attempt_at": then,
                                 "sent_at": then if sent else None, "purpose": "reply", "priority": number % 2})
            connection.execute(insert(inbound), rows_in)
            connection.execute(insert(outbound), rows_out)


def median_ms(db: Database, counts: StatusCounts) -> float:
    times = []
    for _ in range(SCRAPES):
        started = time.perf_counter()
        read_figures(db, counts)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


@contextmanager
def big_databases(doc: str, *, games: int, mails: int) -> Iterator[tuple[argparse.Namespace, Engines]]:
    """The arguments of a benchmark on big databases (``--games``, ``--mails``, with these defaults, and
    ``--engines``) and the engines to make them on, in a temporary folder, stopped at the end; prints which
    engine is missing."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--mails", type=int, default=mails)
    parser.add_argument("--engines", default="sqlite,postgresql")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        engines = Engines(Path(workdir), args.engines.split(","))
        if engines.missing:
            print(engines.missing)
        try:
            yield args, engines
        finally:
            engines.close()


def main() -> None:
    with big_databases(__doc__, games=10_000, mails=1_000_000) as (args, engines):
        print(f"{args.games} games, {args.mails} handled and sent mails; median of {SCRAPES} reads")
        print(f"{'engine':<12}{'build s':>9}{'scrape ms':>11}{'full count ms':>15}")
        for engine in engines.wanted:
            started = time.perf_counter()
            db = open_database(engines.new(engine))
            make_games(db, args.games)
            fill_mail(db, args.mails)
            built = time.perf_counter() - started
            scrape = median_ms(db, StatusCounts(recount_seconds=3600.0))
            full = median_ms(db, StatusCounts(recount_seconds=0.0))
            figures = read_figures(db)
            assert figures.mails["new"] == 100 and figures.mails["set_aside"] == 20, figures
            print(f"{engine:<12}{built:>9.0f}{scrape:>11.2f}{full:>15.1f}")
            db.close()


if __name__ == "__main__":
    main()
