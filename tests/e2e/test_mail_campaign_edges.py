"""The edges of the campaign toolkit through real mail, as a careless or hostile player and GM meet
them: absences with impossible dates, unknown zones and kinds, offers nobody takes and offers taken
at once, a GM's preview that only the GM sees, rollback codes that are wrong, stale or too late, and
every step in ``pbem log`` with its actor."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path

import pytest
from databases import database_url
from mail_games import OPENING_ORDERS, eventually, open_game
from mail_harness import Person, running_service
from mail_secrets import mailbox, newest_report, readable, start_by_mail
from test_mail_observers import OWN_HAND

from pbem.cli import main
from pbem.clock import format_utc
from pbem.games import find_game
from pbem.sandbox.mailclient import ReceivedMail

pytestmark = pytest.mark.slow


async def mail_saying(person: Person, text: str) -> ReceivedMail:
    """The next new mail of ``person`` that says ``text`` (the mails before it are passed over)."""
    while True:
        mail = await person.last()
        if text in mail.body:
            return mail


def test_honest_mistakes_and_hostile_lines_get_clear_refusals(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, gm, sub = game.players["A"], game.gm, service.person("sub@outside.test")
            signon = f"SIGNON tc-1 A {game.passwords['A']}\n"
            today = service.clock.now.date()
            for line, why in [("ABSENT 9999-12-31", "in the years 2000 to 2099"),
                              ("ABSENT 2026-13-01", "give the first and last day away"),
                              (f"ABSENT {today + timedelta(days=9)} {today + timedelta(days=2)}",
                               "comes before the first"),
                              ("ABSENT 2001-01-01", "is over"),
                              (f"ABSENT {today.replace(year=today.year + 3)}", "a year ahead")]:
                await alice.send(signon + line + "\n")
                answer = (await alice.last()).body
                assert "REFUSED" in answer and why in answer, (line, answer)
            await alice.send("SET ZONE Europe/Atlantis\n")
            answer = (await alice.last()).body
            assert "Europe/Atlantis" in answer and "not a time zone" in answer, answer
            await sub.send("STANDBY chess\n")
            answer = (await sub.last()).body
            assert "no game kind 'chess'" in answer and "turkey-chase" in answer, answer
            await sub.send("ACCEPT tc-1\n")
            assert "no open seat offers" in (await sub.last()).body
            await sub.send("UNOBSERVE tc-1\n")
            assert "sub@outside.test does not observe game tc-1" in (await sub.last()).body
            gm_mail = f"GM tc-1 {game.gm_password}\n"
            await gm.send(gm_mail + "ROLLBACK 1\n")
            assert "not a resolved turn" in (await gm.last()).body

            # PREVIEW mails the GM alone: no player and no observer hears of it
            await sub.send("OBSERVE tc-1\n")
            await sub.last()
            seen = {seat: len(await mailbox(service, p)) for seat, p in game.players.items()}
            await gm.send(gm_mail + "PREVIEW\n")
            mails = await gm.receive(2)
            assert {m.subject for m in mails} >= {"[tc-1] Preview of turn 1"}
            await service.settle(1.0)
            assert {seat: len(await mailbox(service, p)) for seat, p in game.players.items()} == seen
            assert not any("Preview" in m.subject for m in await mailbox(service, sub))
            assert service.runner.info("tc-1").row.turn == 1
            log = [(e.actor, e.action) for e in service.runner.log("tc-1")]
            assert ("gm boss@players.test", "PREVIEW") in log and ("sub@outside.test", "OBSERVE") in log
            assert not any(action in ("ABSENT", "EXTEND") for _, action in log)

            # in a game that grants no extensions, an absence is noted and says the deadlines stay
            await gm.send(gm_mail + "SET absence_days=0\n")
            await mail_saying(gm, "Options set")
            deadline = service.runner.info("tc-1").row.deadline
            await alice.send(signon + f"ABSENT {today} {today + timedelta(days=3)}\n")
            answer = await mail_saying(alice, "ABSENT: seat A of tc-1 is away")
            assert "no extensions for absences" in answer.body and "moves to a day after" not in answer.body
            assert service.runner.info("tc-1").row.deadline == deadline

    asyncio.run(scenario())


def test_an_offer_nobody_takes_passes_on_and_replace_auto_hands_the_seat_over_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_url(tmp_path)

    async def scenario() -> None:
        async with running_service(tmp_path, db_url=db) as service:
            runner, clock = service.runner, service.clock
            game = await open_game(service)
            gm, dave = game.gm, game.players["D"]
            first, second = service.person("first@outside.test"), service.person("second@outside.test")
            await gm.send(f"GM tc-1 {game.gm_password}\nSET replace=auto replace_after=0\n")
            assert "Options set" in (await gm.last()).body
            for standby in (first, second):
                await standby.send("STANDBY turkey-chase\n")
                await standby.last()
            await dave.reply(game.reports["D"], "RESIGN\n")
            assert "You resigned seat D" in (await dave.last()).body
            offer = await first.last()
            assert offer.subject == "[tc-1] Seat D is offered to you" and "its player resigned" in offer.body
            for seat in "ABC":  # everyone but the resigned seat plays; the first standby never answers
                await game.players[seat].reply(game.reports[seat], OPENING_ORDERS.get(seat, "READY\n"))
            clock.now = runner.info("tc-1").row.deadline
            await eventually(lambda: runner.info("tc-1").row.turn == 2)
            offer = await second.last()
            assert offer.subject == "[tc-1] Seat D is offered to you" and "did not accept" in offer.body
            await first.reply(offer, "ACCEPT tc-1\n")  # too late: the offer was withdrawn
            assert "no open seat offers" in (await first.last()).body
            old_report = await newest_report(service, dave, "tc-1", 2)
            await second.reply(offer, "ACCEPT\n")
            mails = await second.receive(2)
            assert any("it is yours now" in m.body for m in mails), [m.body for m in mails]
            assert any("Your password is" in m.body for m in mails)
            assert runner.info("tc-1").seats[3].address == "second@outside.test"
            while "gave your seat D of game tc-1" not in (await dave.last()).body:
                pass  # the old holder is told; the mails of turn 2 come first
            await dave.reply(old_report, "READY\n")
            assert "REFUSED" in (await dave.last()).body  # the old reply address no longer works

    asyncio.run(scenario())
    assert main(["log", "tc-1", "--db", db]) == 0
    log = capsys.readouterr().out
    for step in ("seat D dave@players.test  RESIGN", "service  OFFER  seat D offered to standby first@outside.test",
                 "service  OFFER  offer of seat D to standby first@outside.test withdrawn",
                 "service  OFFER  seat D offered to standby second@outside.test",
                 "second@outside.test  ACCEPT", "service  REPLACE  seat D handed from dave@players.test"):
        assert step in log, step


def test_rollback_codes_by_mail_wrong_late_and_after_the_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            runner, clock = service.runner, service.clock
            game = await open_game(service)
            gm, alice = game.gm, game.players["A"]
            gm_mail = f"GM tc-1 {game.gm_password}\n"
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])
            await alice.last()
            await gm.send(gm_mail + "PROCESS\n")
            await eventually(lambda: runner.info("tc-1").row.turn == 2)
            await gm.send(gm_mail + "ROLLBACK 1 deadbeef\n")
            await mail_saying(gm, "wrong or expired")
            await gm.send(gm_mail + "ROLLBACK 1\n")
            code_mail = await mail_saying(gm, "To return game tc-1 to the start of turn 1")
            code = code_mail.body.split("ROLLBACK 1 ")[1].split()[0]
            clock.now += timedelta(hours=24, minutes=1)
            await gm.send(gm_mail + f"ROLLBACK 1 {code}\n")
            await mail_saying(gm, "wrong or expired")
            assert runner.info("tc-1").row.turn == 2
            await gm.send(gm_mail + "ROLLBACK 1\n")
            code_mail = await mail_saying(gm, "To return game tc-1 to the start of turn 1")
            code = code_mail.body.split("ROLLBACK 1 ")[1].split()[0]
            await gm.send(gm_mail + f"ROLLBACK 1 {code}\n")
            await eventually(lambda: runner.info("tc-1").row.turn == 1)
            told = await mail_saying(alice, "rolled game tc-1 back to the start of turn 1")
            assert told.subject == "[tc-1] Rolled back to turn 1"
            assert "Your orders for turn 1:\nFEED F1\nMOVE F7-F8" in told.body.replace("\r\n", "\n")
            deadline = runner.info("tc-1").row.deadline
            assert deadline is not None and f"deadline of turn 1 is now {format_utc(deadline)}" in told.body
            assert runner.current_orders("tc-1", "A") is None
            assert runner.replay("tc-1").mismatches == []
            await gm.send(gm_mail + "PROCESS\nEND\n")
            await eventually(lambda: runner.info("tc-1").row.status == "finished")
            await gm.send(gm_mail + "ROLLBACK 1\n")
            await mail_saying(gm, "finished and its seed revealed")
            actions = [(e.actor, e.action) for e in runner.log("tc-1")]
            assert actions.count(("gm boss@players.test", "ROLLBACK")) == 3  # two asked, one done

    asyncio.run(scenario())


def test_a_preview_of_a_game_with_secrets_shows_the_gm_only_the_public_report(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = await start_by_mail(service, "shelloker", "sh-1", 2, seed=3)
            gm_password = re.search(r"GM password is (\S+):", (await mailbox(service, table.gm))[0].body)
            assert gm_password is not None
            before = len(service.runner.history("sh-1"))
            await table.gm.send(f"GM sh-1 {gm_password.group(1)}\nPREVIEW\n")
            preview = await mail_saying(table.gm, "PREVIEW of turn 1 of sh-1")
            assert "===== public report =====" in preview.body and "left out" in preview.body
            assert "===== seat" not in preview.body
            assert not OWN_HAND.search(readable(preview, find_game("shelloker").help()))
            assert len(service.runner.history("sh-1")) == before and service.runner.info("sh-1").row.turn == 1

    asyncio.run(scenario())
