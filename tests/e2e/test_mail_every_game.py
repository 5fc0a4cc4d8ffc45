"""One full game of every registered game kind, played to its end purely by mail through the
real daemon and the real IMAP and SMTP servers on 127.0.0.1.

Nothing here names a game: each case comes from the registry and the game's declared
facts. It takes the fewest players the game allows, the game's ``quick_options``, and the
seed (of ``SEED_CANDIDATES``) whose game, played offline by the same robots and the same
rules as the service plays it, asks for the fewest mails, preferring a seed in which the
service plays some move itself. A game added later is covered without editing this file.

A GM creates the game by mail, players join by mail, one asks HELP <kind>, and the GM
starts it. Then every seat that owes a choice answers its newest mail from the game with a
plain reply (the reply token signs it on) holding orders a robot chose from the current
state (robots may peek at the state); forced plays are left to the service. Along the way:
every order mail is answered with a clean check; the service resolves as soon as the owing
seats' orders are in and not before; every resolution brings each seat exactly one report
of its own (with the phase's prompt for a seat that owes a choice) and the GM the public
one, or under the game's report digests (``reports=digest``) exactly one to each seat that
owes a choice and nothing to the others and the GM until the end; no mail ever asks for a
play the service made itself; the game takes exactly the resolutions the offline play
predicted.

Hidden information, for every seat and the public after every step (see
``Game.hidden_variant``): the newest report, rendered for a reader, is the same whatever
the secrets the reader does not hold (redrawn, then rendered again); no mail a seat or the
GM received holds the text of another seat's secret (a string of at least two words in that
seat's view that redrawing changes, and that the reader does not see anyway); and a check
reply never shows the orders another seat sent for the same step (sealed orders). At the
end every seat has the final report with the outcome, the dice check out from the mails
alone, and the game replays identically from its seed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from game_views import normal, strings
from mail_games import eventually
from mail_harness import TEST_MAIL_BUDGET, MailHarness, Person, running_service

from pbem.core import Game, GameError, GameRng
from pbem.core.rng import CURRENT_VERSION, derive_seed
from pbem.games import GAMES, find_game
from pbem.mail.running.daemon import DaemonOptions
from pbem.reports import render_report
from pbem.sandbox.mailclient import ReceivedMail, plain_mail
from pbem.service.snapshot import GameInfo

pytestmark = pytest.mark.slow

SEED_CANDIDATES = range(1, 13)
"""Seeds tried offline for each game; the one asking for the fewest mails is played."""
MAX_STEPS = 200
"""Resolutions by mail, at most, in the game picked for a kind."""
SECONDS_PER_STEP = 2.0
"""Wall-clock allowance per resolution by mail (the game gets 30 s more for setup and the checks at the end)."""
MAIL_TIMEOUT = 10.0
"""How long one awaited mail may take to arrive."""
REDRAWINGS = 2
"""Hidden variants drawn per reader and step."""
QUICK_DAEMON = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.1, send_retry_min=0.5, clock_interval=0.1)
"""The daemon looks for new mail every 0.1 s even when the server's IDLE misses a wake-up:
a game here is hundreds of mails in a row."""

VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_dice.py"


@dataclass(frozen=True)
class GameCase:
    """One game to play: its kind, player count, seed, creator options and what offline play predicts."""

    kind: str
    players: int
    seed: int
    options: Mapping[str, str]
    steps: int
    forced: int

    @property
    def name(self) -> str:
        """The game's name (names have at most 20 characters)."""
        return self.kind[:20].rstrip("-")


def robots_for(seed: int) -> GameRng:
    """The robots' own generator: the same offline and by mail."""
    return GameRng(seed + 1000)


def play_offline(game: Game[Any, Any], players: int, seed: int, options: Mapping[str, str]) -> tuple[int, int]:
    """Play the game as the service will (its seed derived from ``seed``, forced plays made by
    the service, every other owing seat a robot); return (resolutions asked by mail, forced plays)."""
    rng = GameRng(derive_seed(str(seed)), version=CURRENT_VERSION)
    robots = robots_for(seed)
    state = game.setup(game.seat_names(players), dict(options), rng)
    steps = forced = 0
    for _ in range(10 * MAX_STEPS):
        if game.outcome(state) is not None or steps > MAX_STEPS:
            break
        orders: dict[str, list[Any]] = {}
        for seat in game.phase(state).seats:
            play = game.forced_orders(state, seat)
            if play is not None:
                orders[seat] = list(play)
                forced += 1
        choosing = [seat for seat in game.phase(state).seats if seat not in orders]
        for seat in choosing:
            orders[seat] = game.sample_orders(state, seat, robots)
        steps += bool(choosing)
        state = game.resolve(state, orders, rng).state
    return steps, forced


def pick_case(kind: str) -> GameCase:
    """The case of ``kind``: fewest players, quick options, and the shortest seed with a forced play if any has one."""
    game = find_game(kind)
    players, options = game.min_players, dict(getattr(game, "quick_options", {}))
    tried = [(play_offline(game, players, seed, options), seed) for seed in SEED_CANDIDATES]
    (steps, forced), seed = min(tried, key=lambda t: (t[0][1] == 0, t[0][0], t[1]))
    assert steps <= MAX_STEPS, f"{kind}: no seed of {SEED_CANDIDATES} ends within {MAX_STEPS} resolutions"
    return GameCase(kind, players, seed, options, steps, forced)


@dataclass
class Table:
    """One game as its people see it: the GM, the seats and every mail they got."""

    service: MailHarness
    case: GameCase
    game: Game[Any, Any]
    gm: Person
    seats: dict[str, Person] = field(default_factory=dict)
    newest: dict[str, ReceivedMail] = field(default_factory=dict)
    received: list[ReceivedMail] = field(default_factory=list)
    step_mail: dict[str | None, list[ReceivedMail]] = field(default_factory=dict)
    forced_seen: int = 0
    secrets_checked: int = 0
    variants: GameRng = field(default_factory=lambda: GameRng(77))

    async def take(self, seat: str) -> ReceivedMail:
        """Wait for the next mail of ``seat``; it becomes the seat's newest."""
        mail = await self.seats[seat].last(timeout=MAIL_TIMEOUT)
        self.newest[seat] = mail
        self.received.append(mail)
        self.step_mail.setdefault(seat, []).append(mail)
        return mail

    async def take_public(self) -> ReceivedMail:
        """Wait for the GM's next mail."""
        mail = await self.gm.last(timeout=MAIL_TIMEOUT)
        self.step_mail.setdefault(None, []).append(mail)
        return mail

    def info(self) -> GameInfo:
        """The game as the service holds it now."""
        return self.service.runner.info(self.case.name)

    def report_subject(self, info: GameInfo) -> str:
        """The subject of the reports that show ``info``."""
        if info.outcome is not None:
            return f"[{self.case.name}] Final report"
        return f"[{self.case.name}] Turn {info.row.turn}"


async def create_and_start(table: Table) -> None:
    """CREATE by mail, JOIN every player by mail, HELP <kind>, START; take the opening reports."""
    case, gm = table.case, table.gm
    options = " ".join(f"{key}={value}" for key, value in case.options.items())
    await gm.send(f"CREATE {case.kind} {case.name} players={case.players} seed={case.seed} {options}\n")
    created = await gm.last(timeout=MAIL_TIMEOUT)
    password = re.search(r"GM password is (\S+):", created.body)
    assert password is not None and "you are its GM" in created.body, created.body
    for number in range(case.players):
        person = table.service.person(f"p{number}.{case.name}@example.org")
        await person.send(f"JOIN {case.name}\n")
        joined = await person.last(timeout=MAIL_TIMEOUT)
        seat = re.search(rf"You joined game {case.name} \(.*\) as seat (\S+)\.", joined.body)
        assert seat is not None, joined.body
        table.seats[seat.group(1)] = person
        notice = await gm.last(timeout=MAIL_TIMEOUT)
        assert f"joined {case.name} as seat {seat.group(1)}" in notice.body, notice.body
    assert sorted(table.seats) == sorted(table.game.seat_names(case.players))

    asker = next(iter(table.seats.values()))
    await asker.send(f"HELP {case.kind}\n")
    helped = await asker.last(timeout=MAIL_TIMEOUT)
    assert table.game.help().strip() in helped.body.replace("\r\n", "\n"), helped.body

    await gm.send(f"GM {case.name} {password.group(1)}\nSTART\n")
    gm_mails = {mail.subject: mail for mail in await gm.receive(2, timeout=MAIL_TIMEOUT)}
    info = table.info()
    subject = table.report_subject(info)
    public = gm_mails.pop(subject)
    assert "public report" in public.body
    assert f"Game {case.name} started" in gm_mails.popitem()[1].body
    table.step_mail = {None: [public]}
    reports = {}
    for seat in table.seats:
        reports[seat] = await table.take(seat)
        assert reports[seat].subject == subject and f"report for seat {seat}" in reports[seat].body, subject
    assert_reports_hold_no_secret(table, info)
    assert_no_mail_holds_another_seats_secret(table, [info])


async def send_orders(table: Table, seat: str, orders: list[Any]) -> ReceivedMail:
    """Reply to the seat's newest game mail with ``orders``; return the check that answers it."""
    assert orders, f"{table.case.kind}: the robot found no orders for seat {seat}, who has a choice"
    check = await reply_to_newest(table, seat, "\n".join(str(order) for order in orders) + "\n")
    assert f"{len(orders)} line(s) accepted, 0 refused." in check.body, check.body
    return check


async def reply_to_newest(table: Table, seat: str, text: str) -> ReceivedMail:
    """Reply to the seat's newest game mail with ``text``; return the answer to the reply."""
    newest = table.newest[seat]
    assert newest.reply_to and "+" in newest.reply_to, (newest.subject, newest.reply_to)
    subject = newest.subject if newest.subject.lower().startswith("re:") else f"Re: {newest.subject}"
    message = plain_mail(table.seats[seat].address, newest.reply_to, subject, text, in_reply_to=newest.message_id)
    await table.seats[seat].send_message(message)
    check = await table.take(seat)
    assert check.in_reply_to == message["Message-ID"], (check.subject, check.body)
    return check


def assert_orders_sealed(orders: Mapping[str, list[Any]], checks: Mapping[str, ReceivedMail]) -> None:
    """A seat's check shows no order line another seat sent for the same step (unless it sent the same)."""
    for seat, check in checks.items():
        own = {str(order) for order in orders[seat]}
        others = {str(order) for other, sent in orders.items() if other != seat for order in sent} - own
        body = normal(check.body)
        shown = sorted(line for line in others if re.search(rf"(?<!\w){re.escape(normal(line))}(?!\w)", body))
        assert not shown, f"seat {seat}'s check shows other seats' sealed orders {shown}"


def assert_reports_hold_no_secret(table: Table, info: GameInfo) -> None:
    """The report of the newest turn, rendered for each seat and the public, is the same with
    every secret its reader does not hold redrawn."""
    report = None
    for reader in [*table.seats, None]:
        variants = [table.game.hidden_variant(info.state, reader, table.variants) for _ in range(REDRAWINGS)]
        variants = [variant for variant in variants if variant != info.state]
        if not variants:
            continue
        report = report or table.service.runner.last_report(table.case.name)
        expected = render_report(report, reader)
        for variant in variants:
            table.secrets_checked += 1
            again = render_report(dataclasses.replace(report, state=variant), reader)
            assert again == expected, f"the report for {reader or 'the public'} shows a secret it does not hold"


def knowledge(game: Game[Any, Any], state: Any, reader: str | None) -> list[str]:
    """What ``reader`` sees anyway: the strings of its own view and the public view, and HELP
    (not the events: they are a channel this test checks)."""
    texts = [text for _, text in strings(game.view(state, reader))]
    texts += [text for _, text in strings(game.view(state, None))]
    return [normal(text) for text in [*texts, game.help()]]


def secrets_of_others(table: Table, state: Any, reader: str | None) -> set[str]:
    """The strings of the other seats' views (two words or more) that redrawing what ``reader``
    does not hold changes: the text of secrets ``reader`` must never get."""
    game, found = table.game, set()
    for _ in range(REDRAWINGS):
        variant = game.hidden_variant(state, reader, table.variants)
        if variant == state:
            continue
        for holder in table.seats:
            if holder == reader:
                continue
            redrawn = dict(strings(game.view(variant, holder)))
            found |= {normal(text) for path, text in strings(game.view(state, holder))
                      if redrawn.get(path) != text and len(text.split()) >= 2}
    return found


def assert_no_mail_holds_another_seats_secret(table: Table, states: list[GameInfo]) -> None:
    """No mail of this step holds another seat's secret text that its reader does not see anyway."""
    for reader, mails in table.step_mail.items():
        secrets = set().union(*(secrets_of_others(table, info.state, reader) for info in states))
        if not secrets:
            continue
        known = [text for info in states for text in knowledge(table.game, info.state, reader)]
        hidden = {secret for secret in secrets if not any(secret in text for text in known)}
        for mail in mails:
            body = normal(mail.body)
            leaked = sorted(s for s in hidden if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", body))
            assert not leaked, f"{reader or 'the GM'} got another seat's secret {leaked} in {mail.subject!r}"
    table.step_mail = {}


async def play_one_step(table: Table, robots: GameRng) -> GameInfo:
    """Send the orders of every seat that has a choice, take the reports; return the game after."""
    runner, name, game = table.service.runner, table.case.name, table.game
    info = table.info()
    assert info.phase is not None
    owing = [seat for seat in info.phase.seats if game.forced_orders(info.state, seat) is None]
    assert owing, f"turn {info.row.turn}: nobody has a choice, yet the service waits"
    for seat in set(info.phase.seats) - set(owing):
        stored = runner.current_orders(name, seat)
        assert stored is not None and stored.source == "forced", (seat, stored)
        table.forced_seen += 1
    orders = {seat: game.sample_orders(info.state, seat, robots) for seat in owing}
    checks: dict[str, ReceivedMail] = {}
    for seat in owing:
        checks[seat] = await send_orders(table, seat, orders[seat])
        if seat != owing[-1]:
            assert table.info().row.turn == info.row.turn, "resolved before every owing seat had sent orders"
    if not info.phase.shared_orders:
        assert_orders_sealed(orders, checks)
    if game.all_waited_warning(info.state) is not None and all(game.is_wait(info.state, s, orders[s]) for s in owing):
        # Everyone waited (The Epic Quest): the step does not end early, and the last reply said so first.
        assert "so the step does not end early" in checks[owing[-1]].body, checks[owing[-1]].body
        assert table.info().row.turn == info.row.turn
        for seat in owing:
            assert "READY" in (await reply_to_newest(table, seat, "READY\n")).body

    await eventually(lambda: table.info().row.turn > info.row.turn, timeout=MAIL_TIMEOUT)
    after = table.info()
    told = told_now(table, after)
    reports = {seat: await table.take(seat) for seat in told}
    subject = table.report_subject(after)
    for seat, report in reports.items():
        assert report.subject == subject and f"report for seat {seat}" in report.body, (seat, report.subject)
    if told_now(table, after, gm=True):
        public = await table.take_public()
        assert public.subject == subject and "public report" in public.body, public.subject
    if after.phase is not None:
        for seat in after.phase.seats:
            if game.forced_orders(after.state, seat) is None:
                assert normal(after.phase.prompt) in normal(reports[seat].body), (seat, after.phase.prompt)
            elif seat in reports:
                assert "Your orders are due" not in reports[seat].body, f"seat {seat} is asked for a forced play"
    assert_reports_hold_no_secret(table, after)
    assert_no_mail_holds_another_seats_secret(table, [info, after])
    return after


def told_now(table: Table, after: GameInfo, *, gm: bool = False) -> list[str]:
    """The seats a resolution into ``after`` mails (with ``gm``: ``["GM"]`` when the GM gets the public
    copy, else ``[]``): every seat and the GM under ``reports=each`` and at the end; under ``digest`` only
    the seats that owe a choice now (the others, and the GM, hear of it later in one mail)."""
    if after.row.reports == "each" or after.outcome is not None:
        return ["GM"] if gm else list(table.seats)
    if gm:
        return []
    return [seat for seat in after.phase.seats if table.game.forced_orders(after.state, seat) is None]


def assert_final(table: Table, info: GameInfo, steps: int) -> None:
    """The final report went to every seat with the outcome; the game took the predicted resolutions,
    made the forced plays it predicted itself, and replays identically."""
    assert info.outcome is not None
    for seat in table.seats:
        final = table.newest[seat]
        assert final.subject == f"[{table.case.name}] Final report", (seat, final.subject)
        assert f"The game is over. {info.outcome.headline}." in final.body, (seat, final.body)
    assert steps == table.case.steps, f"{steps} resolutions by mail, but offline play took {table.case.steps}"
    replay = table.service.runner.replay(table.case.name)
    assert replay.is_identical and replay.turns > 0, replay.mismatches
    if table.game.facts().has_hidden_information:
        assert table.secrets_checked > 0, "no report was checked against redrawn secrets"


def assert_forced_plays_unasked(table: Table) -> None:
    """Every turn was resolved by mail or forced; the service made the forced plays offline play
    predicted, and no mail asked for a turn it played itself."""
    records = table.service.runner.history(table.case.name)
    assert {record.reason for record in records} <= {"all-in", "all-ready", "forced"}  # all-ready: all waited
    forced_turns = {record.turn for record in records if record.reason == "forced"}
    if table.case.forced:
        assert forced_turns or table.forced_seen, "offline play had forced plays, the game by mail none"
    asked = {int(m.group(1)) for mail in table.received if (m := re.search(r"\] Turn (\d+)$", mail.subject))}
    assert not forced_turns & asked, sorted(forced_turns & asked)


def assert_dice_verified_from_mails(table: Table, folder: Path) -> None:
    """The standalone verifier of docs/playing.md, run on the seats' mails alone, agrees with
    ``pbem verify``; with one reported draw changed it fails. A game that keeps its seed secret
    (``reveals_seed`` False) is refused by ``pbem verify``, and no mail reveals its seed."""
    if not getattr(table.game, "reveals_seed", True):
        with pytest.raises(GameError, match="keeps its seed secret"):
            table.service.runner.verify(table.case.name)
        assert not [m.subject for m in table.received if "Seed revealed" in m.body]
        refused = run_verifier(saved_mails(table, folder))
        assert refused.returncode == 1 and "the seed is not revealed in these mails" in refused.stdout, refused.stdout
        return
    verified = table.service.runner.verify(table.case.name)
    assert verified.is_identical, verified.mismatches
    info = table.service.runner.info(table.case.name)
    listed = len(info.row.setup_draws) + sum(len(record.draws) for record in table.service.runner.history(info.name))
    assert verified.draws_checked == listed, (verified.draws_checked, listed)  # sealed draws are never listed
    if table.game.facts().has_chance and not table.game.facts().has_hidden_information:
        assert listed > 0
    checked = run_verifier(saved_mails(table, folder))
    assert checked.returncode == 0, checked.stdout
    assert f"{verified.draws_checked} draws, 0 wrong" in checked.stdout, (checked.stdout, verified.draws_checked)

    if not verified.draws_checked:
        return
    tampered = folder / "tampered.txt"
    tampered.write_text(tamper_one_draw(table.received))
    failed = run_verifier([str(tampered)])
    assert failed.returncode == 1 and "FAIL: draw at counter" in failed.stdout, failed.stdout


def saved_mails(table: Table, folder: Path) -> list[str]:
    """Save every mail the seats received in ``folder`` as ``.eml`` files; return their paths."""
    folder.mkdir()
    paths = []
    for number, mail in enumerate(table.received):
        path = folder / f"{number:03}.eml"
        path.write_bytes(mail.raw)
        paths.append(str(path))
    return paths


def run_verifier(paths: list[str]) -> subprocess.CompletedProcess[str]:
    """Run tools/verify_dice.py as a separate program, as a player would."""
    return subprocess.run([sys.executable, str(VERIFIER), *paths], capture_output=True, text=True, timeout=60,
                          check=False, cwd="/", env={"PATH": os.environ.get("PATH", "")})


def tamper_one_draw(mails: list[ReceivedMail]) -> str:
    """Every report body joined, with the first reported die result changed by one."""
    text = "\n".join(mail.body for mail in mails).replace("\r\n", "\n")
    match = re.search(r"^Draws \(counter:range=result\): (\d+):(\d+)=(\d+)", text, re.M)
    assert match is not None, "no draws reported"
    counter, n, result = (int(g) for g in match.groups())
    changed = f"{counter}:{n}={(result + 1) % n}"
    other = [line for line in text.split("\n") if not line.startswith("Draws ")]
    draws = [line.replace(match.group(0)[len("Draws (counter:range=result): "):], changed)
             if line.startswith("Draws ") else line for line in text.split("\n") if line.startswith("Draws ")]
    return "\n".join(other + draws)


async def play_by_mail(service: MailHarness, case: GameCase, folder: Path) -> None:
    """Play ``case`` to its end by mail on ``service`` with every check of this module."""
    table = Table(service, case, find_game(case.kind), service.person(f"gm.{case.name}@example.org"))
    await create_and_start(table)
    robots = robots_for(case.seed)
    info = table.info()
    steps = 0
    while info.outcome is None:
        assert steps < case.steps, f"{case.kind}: more resolutions by mail than the {case.steps} of offline play"
        info = await play_one_step(table, robots)
        steps += 1
    assert_final(table, info, steps)
    assert_dice_verified_from_mails(table, folder)
    assert_forced_plays_unasked(table)
    await service.settle(0.3)
    for person in [table.gm, *table.seats.values()]:
        assert len(await person.inbox.all_mail()) == person.inbox.seen, f"{person.address}: unexpected mail"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_full_game_is_played_to_its_end_by_mail(tmp_path: Path, kind: str) -> None:
    case = pick_case(kind)

    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK_DAEMON) as service:
            await play_by_mail(service, case, tmp_path / "mails")

    asyncio.run(asyncio.wait_for(scenario(), timeout=30 + SECONDS_PER_STEP * case.steps))
