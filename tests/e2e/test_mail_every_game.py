"""One full game of every seed game, played to its end purely by mail through the real
daemon and the real IMAP and SMTP servers on 127.0.0.1.

A GM creates the game by mail, players join by mail, one asks HELP <kind>, and
the GM starts it. Then every seat that owes a choice answers its newest mail
from the game with a plain reply (the reply token signs it on) holding orders a
robot chose from the current state (robots may peek at the state); forced
plays are left to the service. Along the way: every order mail is answered with
a clean check; the service resolves as soon as the owing seats' orders are in
and not before; every resolution brings each seat exactly one report of its
own and the GM the public one; hidden information (Three Pyramids hands, Race
on the River bids) never reaches another seat before it is revealed;
Farm-cheesi tells the roller what was rolled; no mail ever asks for a turn the
service played itself. At the end every seat has the final report naming the
winners and the game replays identically from its seed.

Seeds are picked so that each game is short but still has forced plays. Each
game is bounded by MAX_STEPS resolutions and GAME_SECONDS of wall-clock time.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mail_harness import MailHarness, Person, running_service

from pbem.core import Game, GameRng
from pbem.core.dice import describe_dice
from pbem.games import find_game
from pbem.games.three_pyramids.state import COLOURS
from pbem.mail.mailclient import ReceivedMail, plain_mail
from pbem.turns import GameInfo

MAX_STEPS = 200
"""Resolutions asked for by mail, at most, per game (the longest here, toe-sap-fungus, needs 79)."""
GAME_SECONDS = 90.0
"""Wall-clock limit of one game, setup included."""
MAIL_TIMEOUT = 10.0
"""How long one awaited mail may take to arrive."""

_CUBE_LIST = re.compile(rf"\d+ (?:{'|'.join(COLOURS)})(?:, \d+ (?:{'|'.join(COLOURS)}))*")


@dataclass(frozen=True)
class GameCase:
    """One game to play: its kind, player count, seed and creator options."""

    kind: str
    players: int
    seed: int
    options: str = ""

    @property
    def name(self) -> str:
        """The game's name (names have at most 20 characters)."""
        return self.kind[:20].rstrip("-")


VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_dice.py"

GAMES_OF_CHANCE = {"farm-cheesi", "race-on-the-river", "three-pyramids"}

CASES = [
    GameCase("toe-sap-fungus", players=2, seed=1),
    GameCase("fungus", players=2, seed=4, options="size=5"),
    GameCase("farm-cheesi", players=2, seed=39),
    GameCase("race-on-the-river", players=3, seed=9),
    GameCase("three-pyramids", players=2, seed=19),
]


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
    forced_bids: int = 0
    rolls_shown: int = 0

    async def take(self, seat: str) -> ReceivedMail:
        """Wait for the next mail of ``seat``; it becomes the seat's newest."""
        mail = await self.seats[seat].last(timeout=MAIL_TIMEOUT)
        self.newest[seat] = mail
        self.received.append(mail)
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
    await gm.send(f"CREATE {case.kind} {case.name} players={case.players} seed={case.seed} {case.options}\n")
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
    assert "public report" in gm_mails.pop(subject).body
    assert f"Game {case.name} started" in gm_mails.popitem()[1].body
    for seat in table.seats:
        report = await table.take(seat)
        assert report.subject == subject and f"report for seat {seat}" in report.body, report.subject


async def send_orders(table: Table, seat: str, orders: list[Any]) -> ReceivedMail:
    """Reply to the seat's newest game mail with ``orders``; return the check that answers it."""
    assert orders, f"{table.case.kind}: the robot found no orders for seat {seat}, who has a choice"
    newest = table.newest[seat]
    assert newest.reply_to and "+" in newest.reply_to, (newest.subject, newest.reply_to)
    subject = newest.subject if newest.subject.lower().startswith("re:") else f"Re: {newest.subject}"
    text = "\n".join(str(order) for order in orders) + "\n"
    message = plain_mail(table.seats[seat].address, newest.reply_to, subject, text, in_reply_to=newest.message_id)
    await table.seats[seat].send_message(message)
    check = await table.take(seat)
    assert check.in_reply_to == message["Message-ID"], (check.subject, check.body)
    assert f"{len(orders)} line(s) accepted, 0 refused." in check.body, check.body
    return check


def assert_bids_sealed(bids: dict[str, list[Any]], checks: dict[str, ReceivedMail]) -> None:
    """Every seat's check names its own bid and no other number as a bid."""
    for seat, check in checks.items():
        named = {int(n) for n in re.findall(r"\bBID\s+(\d+)", check.body, re.I)}
        assert named == {bids[seat][0].cubes}, (seat, bids, check.body)


def assert_hands_hidden(table: Table, info: GameInfo, reports: dict[str, ReceivedMail], public: ReceivedMail) -> None:
    """Each seat's report lists its own hand and draws and no other cubes; the public one lists none."""
    hands = {seat: info.state.hand(seat).describe(empty="no cubes") for seat in table.seats}
    draws: dict[str, set[str]] = {seat: set() for seat in table.seats}
    for record in table.service.runner.history(table.case.name):
        for event in record.events:
            if event["kind"] == "draw":
                draws[event["seat"]].update(_CUBE_LIST.findall(event["text"]))
    for seat, report in reports.items():
        shown = re.findall(r"Your hand \(\d+ cubes?\): (.*)\.", report.body)
        assert shown == [hands[seat]], (seat, shown, hands[seat])
        listed = set(_CUBE_LIST.findall(report.body))
        assert listed <= {hands[seat]} | draws[seat], (seat, listed - {hands[seat]} - draws[seat], hands)
    assert not _CUBE_LIST.findall(public.body) and "Your hand" not in public.body


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
        if table.case.kind == "race-on-the-river":
            assert "BID 0 is sent for you" in table.newest[seat].body
            table.forced_bids += 1
    orders = {seat: game.sample_orders(info.state, seat, robots) for seat in owing}
    checks: dict[str, ReceivedMail] = {}
    for seat in owing:
        checks[seat] = await send_orders(table, seat, orders[seat])
        if seat != owing[-1]:
            assert table.info().row.turn == info.row.turn, "resolved before every owing seat had sent orders"
    if table.case.kind == "race-on-the-river":
        assert_bids_sealed(orders, checks)

    reports = {seat: await table.take(seat) for seat in table.seats}
    public = await table.gm.last(timeout=MAIL_TIMEOUT)
    after = table.info()
    assert after.row.turn > info.row.turn
    subject = table.report_subject(after)
    for seat, report in reports.items():
        assert report.subject == subject and f"report for seat {seat}" in report.body, (seat, report.subject)
    assert public.subject == subject and "public report" in public.body, public.subject

    if table.case.kind == "three-pyramids":
        assert_hands_hidden(table, after, reports, public)
    if table.case.kind == "farm-cheesi" and after.phase is not None and after.phase.name == "move":
        roller = after.phase.seats[0]
        assert f"You rolled {describe_dice(after.state.roll)}." in reports[roller].body, reports[roller].body
        table.rolls_shown += 1
    return after


def assert_final(table: Table, info: GameInfo) -> None:
    """The final report went to every seat naming the winners; the game replays identically."""
    assert info.outcome is not None
    winners = info.outcome.winners
    named = f"Winner: {winners[0]}." if len(winners) == 1 else f"Shared win: {', '.join(winners)}."
    for seat in table.seats:
        final = table.newest[seat]
        assert final.subject == f"[{table.case.name}] Final report" and named in final.body, (seat, final.body)
    replay = table.service.runner.replay(table.case.name)
    assert replay.is_identical and replay.turns > 0, replay.mismatches


def assert_dice_verified_from_mails(table: Table, folder: Path) -> None:
    """The README's standalone verifier, run on the seats' mails alone, agrees with
    ``pbem verify``; with one reported draw changed it fails."""
    verified = table.service.runner.verify(table.case.name)
    assert verified.is_identical, verified.mismatches
    if table.case.kind in GAMES_OF_CHANCE:
        assert verified.draws_checked > 0
    folder.mkdir()
    paths = []
    for number, mail in enumerate(table.received):
        path = folder / f"{number:03}.eml"
        path.write_bytes(mail.raw)
        paths.append(str(path))
    checked = run_verifier(paths)
    assert checked.returncode == 0, checked.stdout
    assert f"{verified.draws_checked} draws, 0 wrong" in checked.stdout, (checked.stdout, verified.draws_checked)

    if not verified.draws_checked:
        return
    tampered = folder / "tampered.txt"
    tampered.write_text(tamper_one_draw(table.received))
    failed = run_verifier([str(tampered)])
    assert failed.returncode == 1 and "FAIL: draw at counter" in failed.stdout, failed.stdout


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


def assert_forced_plays_unasked(table: Table) -> None:
    """Every turn was resolved by mail or forced; the service played some itself and no mail asked for those."""
    records = table.service.runner.history(table.case.name)
    assert {record.reason for record in records} <= {"all-in", "forced"}
    forced = {record.turn for record in records if record.reason == "forced"}
    if table.case.kind == "race-on-the-river":
        assert table.forced_bids > 0  # bids of seats without cubes; a whole round is never forced
    else:
        assert forced, "this seed was picked for a forced play, and there was none"
    asked = {int(m.group(1)) for mail in table.received if (m := re.search(r"\] Turn (\d+)$", mail.subject))}
    assert not forced & asked, sorted(forced & asked)


@pytest.mark.parametrize("case", CASES, ids=[case.kind for case in CASES])
def test_a_full_game_is_played_to_its_end_by_mail(tmp_path: Path, case: GameCase) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = Table(service, case, find_game(case.kind), service.person(f"gm.{case.name}@example.org"))
            await create_and_start(table)
            robots = GameRng(case.seed + 1000)
            info = table.info()
            for _ in range(MAX_STEPS):
                if info.outcome is not None:
                    break
                info = await play_one_step(table, robots)
            assert info.outcome is not None, f"{case.kind} did not end in {MAX_STEPS} resolutions"
            assert_final(table, info)
            assert_dice_verified_from_mails(table, tmp_path / "mails")
            assert_forced_plays_unasked(table)
            if case.kind == "farm-cheesi":
                assert table.rolls_shown > 0
            await service.settle(0.3)
            for person in [table.gm, *table.seats.values()]:
                assert len(await person.inbox.all_mail()) == person.inbox.seen, f"{person.address}: unexpected mail"

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))
