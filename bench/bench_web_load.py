"""Reply latency of order mail while the web archive of the same ``pbem serve --web`` is busy, or flooded
with idle connections. Prints numbers only; everything runs on 127.0.0.1. Usage:

    python bench/bench_web_load.py [-n 20] [--rate 1] [--clients 20] [--idle 1100] [--nofile 1024]
                                   [--turns 20] [--pbem /path/to/other/checkout]

``pbem serve --web`` runs as a real process (its file limit set to ``--nofile``, the default of a
system without LimitNOFILE), over a fresh SQLite file with Turkey Chase games, with the mail servers
and players in a process of their own (bench/mail_world.py) and the web readers in another
(bench/web_load.py). In each phase players send ``-n`` order mails (legal orders to their reply
addresses) at ``--rate`` per second, and the reply latency is timed:

* quiet: nobody reads the archive;
* busy: ``--clients`` readers fetch pages as fast as they are answered (the history page of a game played
  ``--turns`` turns, its board after a turn, the game list, a new game's page);
* flood: ``--idle`` connections are opened to the web port and held, sending nothing.

In every phase ``/healthz`` is asked for once a second on a fresh connection (at most 5 s each). Each row
gives the replies' median, 90th percentile and longest time, the pages served per second (and the
answers other than 200), the /healthz probes answered, what ``pbem serve`` wrote to its log meanwhile,
and the load average at the end of the phase. The target (issue "A mail that runs over its budget must
never harm the next one"): web traffic never delays a reply beyond 2 s.

``--pbem`` runs the ``pbem`` of another checkout (say a git worktree of main: the figures before a
change) with this benchmark.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mail import GM, KIND, prepare_games  # noqa: E402
from mail_world import Letter, MailWorld, send_letters  # noqa: E402

from pbem.mail.outbound.config import ImapUrl, SmtpUrl  # noqa: E402
from pbem.mail.running.daemon import MailDaemon  # noqa: E402
from pbem.store import open_database  # noqa: E402

_HERE = Path(__file__).resolve().parent
WARMUP = 4
RAMP = 2.0
"""Seconds the web readers run before the first timed mail of a phase."""


@dataclass
class Phase:
    """One phase's figures."""

    name: str
    latencies: list[float]
    sent: int
    web: dict[str, object]
    seconds: float
    log_bytes: int
    load: tuple[float, float, float]

    def line(self) -> str:
        """The phase as one row of the table."""
        ordered = sorted(self.latencies) or [float("nan")]
        p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
        pages, refused = int(self.web.get("pages", 0)), int(self.web.get("refused", 0))
        probes = list(self.web.get("healthz", []))
        answered = [ms for ms in probes if ms is not None]
        idle = f"{self.web.get('idle_open', 0)}/{self.web.get('idle_closed', 0)}"
        return (f"{self.name:<7}{len(self.latencies):>4}/{self.sent:<4}{statistics.median(ordered) * 1000:>8.0f}"
                f"{p90 * 1000:>8.0f}{ordered[-1] * 1000:>8.0f}{pages / self.seconds:>9.1f}{refused:>8}"
                f"{len(answered):>5}/{len(probes):<4}{max(answered, default=0):>7.0f}{idle:>11}"
                f"{self.log_bytes:>11,}   {' '.join(f'{x:.2f}' for x in self.load)}")


HEADER = (f"{'phase':<7}{'replies':>9}{'median':>8}{'p90':>8}{'max':>8}{'pages/s':>9}{'non-200':>8}"
          f"{'healthz':>10}{'max ms':>7}{'idle/shut':>11}{'log bytes':>11}   load average")


def prepare(db_path: Path, count: int, turns: int) -> list[Letter]:
    """Create the games in a fresh database, one of them (``history``) played ``turns`` turns for the readers,
    and return ``count`` order mails (one per seat of the others)."""
    db = open_database(str(db_path))
    try:
        daemon = MailDaemon(db, imap=ImapUrl("127.0.0.1", 1, GM, "x"), smtp=SmtpUrl("127.0.0.1", 1), address=GM)
        letters = prepare_games(daemon, count, auth="token", resolve="deadline")
        daemon.service.create_game(KIND, "history", seats={s: f"{s.lower()}@readers.bench" for s in "ABCD"}, seed=9)
        for _ in range(turns):
            if daemon.service.info("history").outcome is None:
                daemon.service.resolve("history")
        return letters
    finally:
        db.close()


class Serving:
    """``pbem serve --web`` as a process, with its file limit and its log in a file."""

    def __init__(self, db_path: Path, world: MailWorld, log: Path, *, nofile: int, checkout: str | None) -> None:
        self.argv = [sys.executable, "-m", "pbem.cli", "serve", "--db", str(db_path), "--imap", world.imap_url(GM),
                     "--smtp", world.smtp_url(), "--address", GM, "--web", "127.0.0.1:0", "--log-level", "WARNING"]
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if checkout:
            self.env["PYTHONPATH"] = checkout
        self.log, self.nofile = log, nofile
        self.process: asyncio.subprocess.Process | None = None
        self.url = ""

    def _limit(self) -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(self.nofile, hard), hard))

    async def start(self) -> None:
        """Start it and wait until it serves; :attr:`url` is then the archive's address."""
        with open(self.log, "ab") as log:  # noqa: ASYNC230  (a log file, opened once)
            self.process = await asyncio.create_subprocess_exec(  # not in a checkout: ``-m`` imports from there first
                *self.argv, stdout=asyncio.subprocess.PIPE, stderr=log, env=self.env, preexec_fn=self._limit,
                cwd=self.log.parent)
        assert self.process.stdout is not None
        while not self.url:
            line = (await asyncio.wait_for(self.process.stdout.readline(), 60)).decode()
            if not line:
                raise RuntimeError(f"pbem serve ended at start; see {self.log}")
            if line.startswith("The web archive is at "):
                self.url = line.split()[5].rstrip("/")
        await asyncio.sleep(1.5)  # logged in to the mailbox

    async def stop(self) -> None:
        """SIGTERM it and wait for it to end."""
        if self.process is not None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 60)


async def phase(name: str, serving: Serving, world: MailWorld, letters: list[Letter], args: argparse.Namespace,
                *, clients: int = 0, idle: int = 0) -> Phase:
    """Send ``letters`` at the rate while the web readers (``clients`` busy, ``idle`` idle) run; the figures."""
    seconds = RAMP + len(letters) / args.rate + 3.0
    paths = ["/game/history", "/", "/game/history/1.svg", "/game/bench-0"]
    readers = await asyncio.create_subprocess_exec(
        sys.executable, str(_HERE / "web_load.py"), serving.url, "--paths", ",".join(paths), "--clients", str(clients),
        "--idle", str(idle), "--seconds", str(seconds), stdout=asyncio.subprocess.PIPE)
    log_size = serving.log.stat().st_size
    await asyncio.sleep(RAMP)
    timing = await send_letters(world, letters, rate=args.rate, timeout=60)
    output, _ = await readers.communicate()
    web = json.loads(output) if output.strip() else {}
    return Phase(name, timing.latencies, len(letters), web, seconds, serving.log.stat().st_size - log_size,
                 os.getloadavg())


async def run(workdir: Path, args: argparse.Namespace) -> list[Phase]:
    """The three phases against one ``pbem serve --web``."""
    letters = prepare(workdir / "pbem.db", WARMUP + 3 * args.n, args.turns)
    async with MailWorld() as world:
        await world.add_user(GM)
        serving = Serving(workdir / "pbem.db", world, workdir / "serve.log", nofile=args.nofile, checkout=args.pbem)
        await serving.start()
        try:
            await send_letters(world, letters[:WARMUP], rate=None, timeout=60)
            batches = [letters[WARMUP + k * args.n: WARMUP + (k + 1) * args.n] for k in range(3)]
            return [await phase("quiet", serving, world, batches[0], args),
                    await phase("busy", serving, world, batches[1], args, clients=args.clients),
                    await phase("flood", serving, world, batches[2], args, idle=args.idle)]
        finally:
            await serving.stop()


def main() -> None:
    """Parse the arguments, run the phases and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=20, help="order mails per phase (default 20)")
    parser.add_argument("--rate", type=float, default=1.0, help="order mails per second (default 1)")
    parser.add_argument("--clients", type=int, default=20, help="busy web readers (default 20)")
    parser.add_argument("--idle", type=int, default=1100, help="idle web connections in the flood (default 1100)")
    parser.add_argument("--nofile", type=int, default=1024, help="pbem serve's file limit (default 1024)")
    parser.add_argument("--turns", type=int, default=20, help="turns played in the game the readers read (default 20)")
    parser.add_argument("--pbem", help="a checkout whose pbem to run (default: this one)")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        phases = asyncio.run(run(Path(folder), args))
    print(f"pbem serve --web of {args.pbem or 'this checkout'}; {args.n} order mails per phase at {args.rate:g}/s; "
          f"reply latency in ms; {os.cpu_count()} cores")
    print(HEADER)
    for row in phases:
        print(row.line())
    print(f"run took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
