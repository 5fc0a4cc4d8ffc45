"""The daemon's worker alone, per order mail: store and handle it, claim its reply, mark the reply sent.

Prints numbers only. Usage:

    python bench/bench_handler.py [-n 100] [--rounds 8]

What bench/bench_mail.py's pbem pays in the daemon's worker thread for each mail, without mail servers,
players or event loop: Turkey Chase games set up as bench_mail.py sets them up, each order mail (from a
distinct seat, to its reply address) taken as the intake hands it over (``MailDaemon._store_and_handle``,
in one unit of work with one commit), its reply claimed for the sender and marked sent. After 20
unmeasured mails, ``--rounds`` rounds of ``-n`` mails; each round's thread CPU per mail (user and system
apart) and the median of the rounds. On a machine shared with other work the thread time swings by a
third; run the trees to compare side by side, at the same time, and compare pair by pair.

Steadier, on a busy machine: the instructions the worker's path runs, under callgrind, which counts only
the mails run through ``itertools.starmap`` (``--callgrind``: one round, nothing else in it)::

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect='starmap_next*' \\
        python bench/bench_handler.py --callgrind -n 30

("Collected" over ``-n`` is the instructions per mail; the time budget is lifted for the slow run, and the
cyclic garbage collector is off while the counted mails run: with ``pbem serve``'s setting it collects once in
about a hundred order mails, some ten million instructions at a time, so that a run of thirty would count one
collection or none, a third of a million instructions a mail either way. Its own cost is measured apart.)
"""

from __future__ import annotations

import argparse
import gc
import itertools
import resource
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mail import prepare_games  # noqa: E402
from mail_world import Letter  # noqa: E402

from pbem.mail.outbound.config import SmtpUrl  # noqa: E402
from pbem.mail.running.daemon import DaemonOptions, MailDaemon, tune_gc_for_serving  # noqa: E402
from pbem.store import open_database  # noqa: E402

WARMUP = 20
NO_BUDGET = 1e6  # seconds: under callgrind a mail takes fifty times as long


def handle_one(daemon: MailDaemon, uid: int, letter: Letter) -> None:
    """Store and handle one order mail as the worker does, claim its reply and mark it sent."""
    taken, claimed = daemon._store_and_handle([(uid, letter.raw)], 1)  # noqa: SLF001 - the worker's step
    if taken[0].outcome is None or len(claimed) != 1:
        raise RuntimeError(f"mail {uid} was not handled and answered: {taken[0]}")
    for mail in claimed:
        daemon.outbox.mark_sent(mail.id, daemon.clock())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=100, help="mails per round (default 100)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds (default 8)")
    parser.add_argument("--callgrind", action="store_true",
                        help="one round through itertools.starmap, untimed (see the module's text)")
    args = parser.parse_args()
    if not (0 < args.n <= 5000 and 0 < args.rounds <= 50):
        parser.error("-n must be 1..5000, --rounds 1..50")
    rounds = 1 if args.callgrind else args.rounds
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        db = open_database(str(Path(tmp) / "pbem.db"))
        try:
            daemon = MailDaemon(db, imap=None, smtp=SmtpUrl.parse("smtp://127.0.0.1:1"), address="gm@pbem.bench",
                                options=DaemonOptions(mail_budget=NO_BUDGET) if args.callgrind else DaemonOptions())
            letters = prepare_games(daemon, WARMUP + args.n * rounds, auth="token", resolve="deadline")
            tune_gc_for_serving()
            daemon._in_order = True  # noqa: SLF001 - every mail stored before is handled: store and handle at once
            daemon._worker_started()  # noqa: SLF001 - this thread is the worker: it keeps its connection
            numbered = list(enumerate(letters, start=1))
            for uid, letter in numbered[:WARMUP]:
                handle_one(daemon, uid, letter)
            if args.callgrind:
                gc.disable()
                list(itertools.starmap(lambda uid, letter: handle_one(daemon, uid, letter), numbered[WARMUP:]))
                print(f"{args.n} mails handled")
                return
            user, system = [], []
            for number in range(rounds):
                start = resource.getrusage(resource.RUSAGE_THREAD)
                for uid, letter in numbered[WARMUP + number * args.n : WARMUP + (number + 1) * args.n]:
                    handle_one(daemon, uid, letter)
                end = resource.getrusage(resource.RUSAGE_THREAD)
                user.append((end.ru_utime - start.ru_utime) / args.n * 1000)
                system.append((end.ru_stime - start.ru_stime) / args.n * 1000)
        finally:
            db.close()
    total = [u + s for u, s in zip(user, system, strict=True)]
    print("thread CPU per mail, ms, round by round: " + ", ".join(f"{t:.2f}" for t in total))
    print(f"median {statistics.median(total):.2f} ms (user {statistics.median(user):.2f}, "
          f"system {statistics.median(system):.2f}); best {min(total):.2f}")


if __name__ == "__main__":
    main()
