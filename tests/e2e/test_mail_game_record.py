"""The game record by real mail: a Race on the River (sealed bids) played to its end and checked from each
player's saved mails alone with tools/verify_record.py (the chain, every receipt against the bids the
reports reveal, the dice); one stored bid changed in the database afterwards, found by ``pbem verify`` and,
once a player asks for that turn's report again, by the tool; a GM's rollback told to every player in the
next report, and the record still checked across it."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from mail_games import accept_invitations
from mail_harness import MailHarness, Person, running_service
from sqlmodel import select

from pbem.sandbox.mailclient import ReceivedMail
from pbem.service.owing import choosing_seats
from pbem.store.tables import TurnRecordRow

NAME = "rr"
SEATS = {"1": "rosa@players.test", "2": "otto@players.test"}
TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_record.py"
HEAD = re.compile(r"^Game record: (?:turn (\d+)|the start), chain ([0-9a-f]{64})\s*$", re.M)


@dataclass
class Race:
    """A race by mail: its GM and password, its players and every mail each player got."""

    gm: Person
    password: str
    players: dict[str, Person]
    mails: dict[str, list[ReceivedMail]] = field(default_factory=dict)


async def start_race(service: MailHarness, seed: int) -> Race:
    """Create and start a two-seat race by mail; wait for each seat's password and opening report."""
    gm = service.person("gm-record@players.test")
    seats = "".join(f"SEAT {seat} {address}\n" for seat, address in SEATS.items())
    await gm.send(f"CREATE race-on-the-river {NAME} players=2 seed={seed}\n{seats}")
    found = re.search(r"GM password is (\S+):", (await gm.last()).body)
    assert found is not None
    players = {seat: service.person(address) for seat, address in SEATS.items()}
    await accept_invitations(NAME, players.values())
    await gm.receive(len(players))
    await gm.send(f"GM {NAME} {found.group(1)}\nSTART\n")
    race = Race(gm, found.group(1), players, {seat: [] for seat in players})
    for seat, player in players.items():
        race.mails[seat] += await player.receive(2)
    return race


async def until(player: Person, kept: list[ReceivedMail], *needles: str, limit: int = 8) -> None:
    """Receive (and keep) ``player``'s mails until every needle is in one of them, counting from now."""
    start = len(kept)
    for _ in range(limit):
        if all(any(needle in mail.body for mail in kept[start:]) for needle in needles):
            return
        kept.append(await player.last())
    raise AssertionError(f"no mails with {needles}")


def bid_for(service: MailHarness, seat: str) -> str:
    """Seat 1 bids 2 when it can, seat 2 bids 1 (each as much as its hand allows)."""
    for bid in ((2, 1, 0) if seat == "1" else (1, 0)):
        if service.runner.submit(NAME, seat, f"BID {bid}\n", store=False).is_clean:
            return f"BID {bid}\n"
    raise AssertionError("no bid can be played")


async def play_turn(service: MailHarness, race: Race) -> None:
    """Every seat that owes a bid replies to its newest report; each gets its receipt, then the report."""
    info = service.runner.info(NAME)
    turn = info.row.turn
    sent = {seat: bid_for(service, seat) for seat in choosing_seats(info)}
    starts = {seat: len(race.mails[seat]) for seat in race.players}
    for seat, bid in sent.items():
        newest = [mail for mail in race.mails[seat]
                  if "Game record: " in mail.body or "Rolled back to turn" in mail.subject][-1]
        await race.players[seat].reply(newest, bid)
        await until(race.players[seat], race.mails[seat], f"Receipt for game {NAME}, turn {turn}, seat {seat}")
    for seat, player in race.players.items():
        await until(player, race.mails[seat], "Game record: turn")
    for seat, bid in sent.items():  # a bid is sealed: the other seat's receipt reply does not show it
        other = next(s for s in race.players if s != seat)
        replies = [m for m in race.mails[other][starts[other]:] if "Receipt for game" in m.body]
        assert all(bid.strip() not in m.body for m in replies) or sent.get(other) == bid, replies


def save(race: Race, folder: Path) -> dict[str, Path]:
    """Save each player's mails as .eml files, one folder a player."""
    folders = {}
    for seat, mails in race.mails.items():
        folders[seat] = folder / f"seat-{seat}"
        folders[seat].mkdir(parents=True, exist_ok=True)
        for number, mail in enumerate(mails):
            (folders[seat] / f"{number:03}.eml").write_bytes(mail.raw)
    return folders


def verify_record(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *map(str, paths)], capture_output=True, text=True, timeout=60)


def test_a_sealed_bid_game_is_checked_from_the_players_saved_mails_and_a_changed_bid_is_found(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            race = await start_race(service, seed=11)
            for _ in range(20):
                if service.runner.info(NAME).outcome is not None:
                    break
                await play_turn(service, race)
            assert service.runner.info(NAME).outcome is not None
            final = {seat: mails[-1] for seat, mails in race.mails.items()}
            for seat, mail in final.items():
                assert "The game is over" in mail.body and "Seed revealed" in mail.body, mail.body
                heads = HEAD.findall(mail.body)
                assert heads and heads[-1][1] == service.runner.verify(NAME).head, mail.body
                assert mail.html is not None and f"chain <code>{heads[-1][1][:8]}\u2026</code>" in mail.html
                assert "~~~ record" not in mail.html and heads[-1][1] not in mail.html
            folders = save(race, tmp_path / "mails")
            for seat, folder in folders.items():
                checked = verify_record(folder)
                assert checked.returncode == 0, checked.stdout + checked.stderr
                assert "dice: commitment ok" in checked.stdout and "FAIL" not in checked.stdout, checked.stdout
                assert int(re.search(r"(\d+) receipts checked", checked.stdout).group(1)) > 0  # type: ignore[union-attr]
            assert service.runner.verify(NAME, operator=True).is_identical

            # someone changes seat 1's stored bid of turn 2 in the database
            with service.runner.db.session() as session:
                game_id = service.runner.info(NAME).row.id
                record = session.exec(select(TurnRecordRow).where(TurnRecordRow.game_id == game_id,
                                                                  TurnRecordRow.turn == 2)).one()
                record.orders = {**record.orders, "1": ["BID 0"]}
                session.add(record)
                session.commit()
            found = service.runner.verify(NAME, operator=True).mismatches
            assert any(m.startswith("turn 2: seat 1's orders as stored do not match their receipt") for m in found), found
            rosa = race.players["1"]
            await rosa.send(f"REPORT {NAME} 2\n")
            await until(rosa, race.mails["1"], "Game record: turn 2")
            folder = save(race, tmp_path / "after")["1"]
            checked = verify_record(folder)
            assert checked.returncode == 1, checked.stdout
            assert "turn 2: seat 1's orders as revealed (BID 0) do not match their receipt" in checked.stdout

    asyncio.run(scenario())


def test_a_rollback_is_told_to_every_player_and_the_record_still_checks(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            race = await start_race(service, seed=11)
            await play_turn(service, race)
            await play_turn(service, race)
            gm_mail = f"GM {NAME} {race.password}\n"
            await race.gm.send(gm_mail + "ROLLBACK 2\n")
            code = None
            for _ in range(6):
                found = re.search(r"ROLLBACK 2 ([0-9a-f]{8})", (await race.gm.last()).body)
                if found:
                    code = found.group(1)
                    break
            assert code is not None
            await race.gm.send(gm_mail + f"ROLLBACK 2 {code}\n")
            for seat, player in race.players.items():
                await until(player, race.mails[seat], "rolled game rr back to the start of turn 2")
            assert service.runner.info(NAME).row.turn == 2
            await play_turn(service, race)
            for seat, mails in race.mails.items():
                report = [mail for mail in mails if "Game record: " in mail.body][-1]
                told = re.search(r"Turn 2 was rolled back by the GM at (\S+): turn\(s\) 2 undone", report.body)
                assert told is not None, report.body
                assert report.html is not None and "Turn 2 was rolled back by the GM" in report.html
            folders = save(race, tmp_path / "mails")
            for folder in folders.values():
                checked = verify_record(folder)
                assert checked.returncode == 0, checked.stdout + checked.stderr
            assert service.runner.replay(NAME).is_identical

    asyncio.run(scenario())
