"""``pbem demo``: robots play a whole game, offline or with the game master by real email.

Offline (``pbem demo --offline``), each robot's orders go through the same
call as ``pbem orders`` and a line per turn is printed.

Its database is the demo's own (see :func:`others_games`): its clock jumps
past deadlines, which would play out any other game in it.

By mail, one process starts the embedded IMAP and SMTP servers on 127.0.0.1,
the mail daemon on the given database, a robot game master and four robot
players. The GM creates a Turkey Chase game by mail, the players join and
answer every turn report with orders (SMTP in, replies read back over IMAP).
Robot B makes a mistake now and then and corrects it after the check reply;
robot D sleeps through turn 2 and gets the NMR defaults at the deadline.

Time: the daemon runs on a demo clock. A turn whose orders are all in
resolves at once; the clock moves an hour per turn (the robots read their
mail an hour later) and jumps to the reminder and then past the deadline
when orders are missing, so nobody waits two days. Every robot's mail is
written to an mbox file in ``demo-mail/`` next to the database.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from pbem.core import GameRng
from pbem.games import find_game
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.running.daemon import DaemonOptions, MailDaemon
from pbem.sandbox.embedded import EmbeddedMailServers
from pbem.sandbox.mailclient import ReceivedMail
from pbem.sandbox.robots import MailRobot, RobotGm, RobotPlayer, is_report, subject_is
from pbem.service.api import GameService
from pbem.service.creation import GAME_NAME
from pbem.service.owing import owing_seats
from pbem.store import open_database
from pbem.store.tables import reminder_time

MAX_DEMO_TURNS = 2_000
"""Most turns the offline demo plays before it gives up on an end."""


def robot_orders(service: GameService, game_name: str, seat: str, rng: GameRng) -> str:
    """Return the order text a robot sends for ``seat``: a random legal submission."""
    info = service.info(game_name)
    orders = info.rules.sample_orders(info.state, seat, rng)
    return "\n".join(str(order) for order in orders) + "\n"


def free_name(service: GameService, name: Callable[[int], str]) -> str:
    """Return ``name(n)`` for the first number n from 1 on that names no game yet."""
    taken = {row.name.lower() for row in service.games()}
    number = 1
    while name(number).lower() in taken:
        number += 1
    return name(number)


OFFLINE_DOMAIN, MAIL_DOMAIN = "demo.invalid", "demo.localhost"
DEMO_DOMAINS = (OFFLINE_DOMAIN, MAIL_DOMAIN)
"""The domains of the robots' addresses, offline and by mail (reserved names: no real mail goes there)."""


def others_games(service: GameService) -> list[str]:
    """Return the names of the games in the service's database that the demo did not create: those with
    any address (a seat's, the GM's) outside :data:`DEMO_DOMAINS`, or with none at all."""
    others = []
    for info in service.snapshots():
        addresses = [seat.address for seat in info.seats if seat.address] + [info.row.gm_address or ""]
        addresses = [address for address in addresses if address]
        if not addresses or any(address.rpartition("@")[2].lower() not in DEMO_DOMAINS for address in addresses):
            others.append(info.name)
    return others


def play_to_the_end(service: GameService, name: str, robots: GameRng, out: TextIO) -> bool:
    """Play the game ``name`` to its end with robots' random legal orders (drawn from ``robots``), resolving
    each turn at once; write a line per turn (and any refused orders) to ``out``. Returns whether it ended
    within :data:`MAX_DEMO_TURNS` turns."""
    for _ in range(MAX_DEMO_TURNS):
        info = service.info(name)
        if info.outcome is not None:
            return True
        for seat in owing_seats(info):
            result = service.submit(name, seat, robot_orders(service, name, seat, robots))
            if not result.is_clean:
                out.write(result.render())
        resolved = service.resolve(name, reason="gm")
        scores = service.state_json(name)["scores"]
        for turn in resolved.turns:
            out.write(f"turn {turn.record.turn:>3} resolved; scores: "
                      + ", ".join(f"{s}={v}" for s, v in scores.items()) + "\n")
    return service.info(name).outcome is not None


def run_offline_demo(service: GameService, *, kind: str, seed: int, out: TextIO) -> int:
    """Create a game of ``kind`` with robot seats and play it to the end; return 0 when it ended.

    Each robot's orders go through :meth:`GameService.submit` (what ``pbem
    orders`` calls); a line per turn and the final public report are printed.
    """
    rules = find_game(kind)
    seats = rules.seat_names(rules.max_players)
    name = free_name(service, lambda number: _demo_name(rules.name, number))
    service.create_game(
        rules.name, name, seats={s: f"robot-{s.lower()}@{OFFLINE_DOMAIN}" for s in seats}, seed=seed,
        options={"turn_hours": "0"},
    )
    if not play_to_the_end(service, name, GameRng(seed), out):
        out.write(f"the demo stopped after {MAX_DEMO_TURNS} turns without an end\n")
        return 1
    history = service.history(name)
    last = history[-1].turn if history else 0
    out.write(f"\nThe game ended with turn {last}. The final position:\n\n" + service.report_text(name, None))
    return 0


def _demo_name(kind: str, number: int) -> str:
    """``demo-KIND-N``, or ``demo-K-N`` from the kind's initials where that would be too long for a game name."""
    name = f"demo-{kind}-{number}"
    if GAME_NAME.fullmatch(name):
        return name
    return f"demo-{''.join(word[:1] for word in kind.split('-'))}-{number}"


KIND = "turkey-chase"
GM_SERVICE = "gm@pbem.localhost"
GM_ROBOT = f"gamemaster@{MAIL_DOMAIN}"
PLAYERS = tuple(f"{name}@{MAIL_DOMAIN}" for name in ("alice", "bob", "carol", "dave"))
CLUMSY_SEAT = "B"  # sends a bad line now and then and corrects it after the check
SLEEPY_SEAT = "D"  # sends nothing in SLEEPY_TURN
SLEEPY_TURN = 2
MISTAKES = ("FEED Z9", "MOVE F7F8", "BUILD C3-C4", "JUMP A1")
MAX_TURNS = 100
MAIL_FOLDER = "demo-mail"


class DemoClock:
    """The daemon's clock in the demo: stands still until the demo moves it."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        """Move the clock forward by ``delta``."""
        self.now += delta

    def set(self, moment: datetime) -> None:
        """Move the clock to ``moment`` (never backwards)."""
        self.now = max(self.now, moment)


def mail_folder(db_path: str) -> Path:
    """Return where the demo writes its mbox files: ``demo-mail/`` next to the database file
    (in the current folder for a database URL)."""
    if "://" in db_path:
        return Path.cwd() / MAIL_FOLDER
    return Path(db_path).expanduser().resolve().parent / MAIL_FOLDER


def run_mail_demo(*, db_path: str, seed: int, out: TextIO) -> int:
    """Play a Turkey Chase game to its end by mail, with robots; return 0 when it ended.

    Prints a line per turn on ``out``, then the result and where each robot's
    mail transcript (an mbox file) is. Returns 1 when the game did not end
    within :data:`MAX_TURNS` or a mail did not arrive in time.
    """
    return asyncio.run(_run(db_path, seed, out))


async def _run(db_path: str, seed: int, out: TextIO) -> int:
    clock = DemoClock()
    folder = mail_folder(db_path)
    async with EmbeddedMailServers() as servers:
        await servers.add_user(GM_SERVICE)
        db = open_database(db_path)
        stop = asyncio.Event()
        daemon = MailDaemon(
            db, imap=ImapUrl.parse(servers.imap_url(GM_SERVICE)), smtp=SmtpUrl.parse(servers.smtp_url()),
            address=GM_SERVICE, clock=clock,
            options=DaemonOptions(idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.05),
        )
        task = asyncio.create_task(daemon.run(stop), name="pbem daemon")
        robots: list[MailRobot] = []
        try:
            out.write(f"Mail servers on {servers.host} (IMAP port {servers.imap_port}, SMTP port "
                      f"{servers.smtp_port}); the game master is {GM_SERVICE}, database {db_path}.\n")
            gm = RobotGm.on(servers, GM_ROBOT, gm_address=GM_SERVICE, clock=clock)
            players = [RobotPlayer.on(servers, address, gm_address=GM_SERVICE, clock=clock) for address in PLAYERS]
            robots.extend([gm, *players])
            async with AsyncExitStack() as stack:
                for each in robots:
                    await servers.add_user(each.address)
                    await stack.enter_async_context(each)
                code = await _play(daemon.service, clock, gm, players, seed=seed, out=out, settle=daemon.caught_up)
        except (TimeoutError, RuntimeError) as error:
            out.write(f"The demo stopped: {error}\n")
            code = 1
        finally:
            stop.set()
            await asyncio.wait_for(task, timeout=15)
            db.close()
    _write_transcripts(robots, folder, out)
    return code


async def _play(service: GameService, clock: DemoClock, gm: RobotGm, players: Sequence[RobotPlayer], *,
                seed: int, out: TextIO, settle: Callable[[], Awaitable[None]]) -> int:
    name = free_name(service, lambda n: f"mail-demo-{n}")
    await gm.create(KIND, name, f"seed={seed} nmr=feed")
    out.write(f"{gm.address} created {name} by mail (GM password {gm.password}).\n")
    for player in players:
        await player.join(name)
        out.write(f"{player.address} joined as seat {player.seat}.\n")
    await gm.expect(lambda m: "every seat is taken" in m.body)
    await gm.command("START")
    reports = {player.seat: await player.next_report() for player in players}
    await gm.expect(subject_is(f"[{name}] Turn 1"))
    out.write(f"{name} started; turn reports go out by mail.\n")
    rng = GameRng(seed)
    for _ in range(MAX_TURNS):
        clock.advance(timedelta(hours=1))  # the robots read their mail an hour later
        turn = service.info(name).row.turn
        notes = await _send_orders(service, name, players, reports, rng, turn)
        await settle()  # a check reply can arrive just before the resolution its orders caused
        if service.info(name).row.turn == turn:  # not resolved at once: some orders are missing
            await _pass_deadline(service, clock, name, players, service.missing_seats(name), notes)
        reports = {player.seat: await player.next_report() for player in players}
        final = await gm.expect(is_report(name))
        scores = service.state_json(name)["scores"]
        out.write(f"turn {turn:>2}: " + "; ".join(f"{seat} {notes[seat]}" for seat in sorted(notes))
                  + " -> scores " + ", ".join(f"{s}={v}" for s, v in scores.items()) + "\n")
        out.flush()
        if final.subject == f"[{name}] Final report":
            state = service.state_json(name)
            winners = " and ".join(state["winners"])
            word = "winner" if len(state["winners"]) == 1 else "winners"
            result = f"{word} {winners}" if winners else {"draw": "a draw", "loss": "nobody wins"}[state["outcome"]]
            out.write(f"Game over after {turn} turns: {result} "
                      f"(scores {', '.join(f'{s}={v}' for s, v in scores.items())}).\n")
            return 0
    out.write(f"The game did not end within {MAX_TURNS} turns.\n")
    return 1


async def _send_orders(service: GameService, name: str, players: Sequence[RobotPlayer],
                       reports: dict[str, ReceivedMail], rng: GameRng, turn: int) -> dict[str, str]:
    """Each robot answers its newest report; returns a note per seat for the progress line.

    The clumsy robot goes first and alone, so that its correction is in
    before the others' orders complete the turn (which resolves it at once).
    """
    notes: dict[str, str] = {}
    plans: dict[str, str] = {}
    for player in players:
        if player.seat == SLEEPY_SEAT and turn == SLEEPY_TURN:
            notes[player.seat] = "sent nothing"
            continue
        plans[player.seat] = robot_orders(service, name, player.seat, rng)
        if not plans[player.seat].strip():
            notes[player.seat] = "had nothing to order"
            del plans[player.seat]

    async def play(player: RobotPlayer) -> None:
        orders = plans[player.seat]
        count = _orders(len(orders.strip().splitlines()))
        if player.seat == CLUMSY_SEAT and turn % 3 == 1:
            mistake = MISTAKES[(turn // 3) % len(MISTAKES)]
            checks = await player.send_orders_with_mistake(reports[player.seat], orders, mistake)
            fixed = "REFUSED, corrected after the check" if len(checks) == 2 else "not refused"
            notes[player.seat] = f"{count} (wrote {mistake!r}: {fixed})"
        else:
            check = await player.send_orders(reports[player.seat], orders)
            refused = check.body.count("REFUSED")
            notes[player.seat] = count + (f" ({refused} refused)" if refused else "")

    ordering = [p for p in players if p.seat in plans]
    clumsy = [p for p in ordering if p.seat == CLUMSY_SEAT]
    for player in clumsy:
        await play(player)
    await asyncio.gather(*(play(p) for p in ordering if p not in clumsy))
    return notes


async def _pass_deadline(service: GameService, clock: DemoClock, name: str, players: Sequence[RobotPlayer],
                         missing: Sequence[str], notes: dict[str, str]) -> None:
    """Move the clock to the reminder (the silent robots get one), then past the deadline."""
    row = service.info(name).row
    assert row.deadline is not None, "a demo game always has a deadline"
    deadline, reminder = row.deadline, reminder_time(row)
    assert reminder is not None, "a demo turn is long enough for a reminder"
    clock.set(reminder + timedelta(minutes=1))
    for player in players:
        if player.seat in missing:
            await player.expect(lambda m: m.subject.startswith(f"[{name}] Reminder"))
            notes[player.seat] += ", reminded, NMR at the deadline"
    clock.set(deadline + timedelta(minutes=1))


def _orders(count: int) -> str:
    return f"{count} order" + ("" if count == 1 else "s")


def _write_transcripts(robots: Sequence[MailRobot], folder: Path, out: TextIO) -> None:
    out.write(f"Every robot's mail, sent and received, is in an mbox file in {folder}:\n")
    for robot in robots:
        seat = f"seat {robot.seat}" if isinstance(robot, RobotPlayer) and robot.seat else "GM"
        path = robot.write_mbox(folder / f"{robot.address}.mbox")
        out.write(f"  {seat:<7} {robot.address:<27} {path}  ({len(robot.transcript)} mails)\n")
    out.flush()
