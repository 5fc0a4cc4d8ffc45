"""Every value a mail hands the service is checked on the way in, and every answer stays within its
bounds, through the real daemon and real mail servers: the reply cap holds for the final text with
every note."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path

from mail_games import (
    OPENING_ORDERS,
    answers_to,
    eventually,
    inbound_row,
    inbound_rows,
    open_game,
    prove_quiet,
    send_raw,
)
from mail_harness import GM_ADDRESS, MailHarness, Person, running_service
from mail_secrets import GameByMail, create_and_join

from pbem.games import GAMES
from pbem.mail.answering.reply import reply_limit
from pbem.service.absences import MOST_AHEAD


def test_the_reply_cap_holds_for_the_final_text_with_every_note(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            eve = service.person("eve@outside.test")
            await eve.send("".join(f"x{n}\n" for n in range(25)) + "".join(f"HELP {kind}\n" for kind in GAMES))
            answer = (await eve.last()).body.replace("\r\n", "\n")
            size = inbound_rows(service)[-1].size
            assert size is not None
            assert "This reply is limited to" in answer and "were left out" in answer, answer[-500:]
            assert len(answer) <= reply_limit(size), (len(answer), reply_limit(size))

    asyncio.run(scenario())


async def _answer(person: Person, subject: str) -> str:
    """The text of the game master's answer to ``person``'s mail of ``subject`` (other mail is passed by)."""
    while True:
        mail = await person.last()
        if mail.subject.endswith(f"Re: {subject}"):
            return mail.body


async def _game_in_far_zones(service: MailHarness) -> GameByMail:
    """A started race-on-the-river game whose seat holders read their deadlines in the time zones furthest
    ahead of UTC and furthest behind it."""
    game = await create_and_join(service, "race-on-the-river", "rr-1", 2, "")
    for (seat, (person, _)), zone in zip(sorted(game.seats.items()), ("Pacific/Kiritimati", "Etc/GMT+12"),
                                         strict=True):
        await person.send(f"SET ZONE {zone}\n", subject=f"zone {seat}")
        assert "REFUSED" not in await _answer(person, f"zone {seat}")
    await game.gm.send(f"GM rr-1 {game.gm_password}\nSTART\n", subject="start")
    assert "REFUSED" not in await _answer(game.gm, "start")
    return game


def test_deadlines_past_the_range_are_refused_and_extend_never_overflows(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await _game_in_far_zones(service)
            gm = game.gm
            now = service.clock()
            soon = (now + timedelta(days=300)).strftime("%Y-%m-%d %H:%M")
            cases = {
                "DEADLINE 9999-12-31 23:59": "REFUSED",
                "DEADLINE 0001-01-01 00:00 Pacific/Kiritimati": "REFUSED",
                "DEADLINE 2099-12-31 23:59 Etc/GMT+12": "REFUSED",
                f"DEADLINE {soon}": "",
                "EXTEND 100d": "REFUSED",
                "EXTEND 365d": "REFUSED",
                "EXTEND 60d": "",
            }
            for number, (line, expected) in enumerate(cases.items()):
                await gm.send(f"GM rr-1 {game.gm_password}\n{line}\n", subject=f"gm {number}")
                answer = await _answer(gm, f"gm {number}")
                if expected:
                    assert "REFUSED" in answer and ("at most a year ahead" in answer or "2000 to 2099" in answer), (
                        line, answer)
                else:
                    assert "REFUSED" not in answer, (line, answer)
            deadline = service.runner.info("rr-1").row.deadline
            assert deadline is not None and deadline - now <= timedelta(days=366)
            for seat, (person, _) in game.seats.items():
                await person.send("STATUS rr-1\n", subject=f"status {seat}")
                assert "Waiting for orders" in await _answer(person, f"status {seat}")

    asyncio.run(scenario())


LONG_LOCAL = "a" * 65
LONGEST_LOCAL = "b" * 64
HUGE = "c" * 890 + "@example.org"


def test_addresses_past_the_smtp_limits_are_refused_everywhere_they_come_in(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person("gm.ff-1@example.org")
            await gm.send("CREATE race-on-the-river ff-1 players=3\n", subject="create")
            password = re.search(r"GM password is (\S+):", await _answer(gm, "create"))
            assert password is not None
            session = f"GM ff-1 {password.group(1)}\n"
            long_domain = "d@" + ".".join(["e" * 63] * 4)  # 254 characters and more
            for number, line in enumerate([f"SEAT 1 {HUGE}", f"SEAT 1 {LONG_LOCAL}@example.org",
                                           f"SEAT 1 x@{'f' * 64}.org", f"SEAT 1 {long_domain}"]):
                await gm.send(session + line + "\n", subject=f"seat {number}")
                answer = await _answer(gm, f"seat {number}")
                assert "REFUSED" in answer and "not a mail address" in answer, (line, answer)
            await gm.send(session + f"SEAT 1 {LONGEST_LOCAL}@example.org\nSEAT 2 p2@example.org\n"
                          "SEAT 3 p3@example.org\n", subject="seats")
            assert "REFUSED" not in await _answer(gm, "seats")
            for number, line in enumerate([f"REPLACE 2 {HUGE}", f"REPLACE 2 {LONG_LOCAL}@example.org"]):
                await gm.send(session + line + "\n", subject=f"replace {number}")
                answer = await _answer(gm, f"replace {number}")
                assert "REFUSED" in answer and "not a mail address" in answer, (line, answer)
            seats = {seat.name: seat.address for seat in service.runner.info("ff-1").seats}
            assert seats == {"1": f"{LONGEST_LOCAL}@example.org", "2": "p2@example.org", "3": "p3@example.org"}

            stranger = f"{LONG_LOCAL}@outside.test"
            await send_raw(service, (f"From: {stranger}\r\nTo: {GM_ADDRESS}\r\nSubject: hi\r\n"
                                     "Message-ID: <long-local@outside.test>\r\n\r\nHELP\r\nOBSERVE ff-1\r\n").encode(),
                           mail_from="short@outside.test")
            await eventually(lambda: any(row.message_id == "<long-local@outside.test>" and row.status != "new"
                                         for row in inbound_rows(service)))
            row = inbound_row(service, "<long-local@outside.test>")
            assert row.status == "failed" and answers_to(service, row) == [], row.error
            await prove_quiet(service, addresses=(stranger,))

    asyncio.run(scenario())


def test_counts_a_mail_can_raise_are_bounded(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice = game.players["A"]
            today = service.clock.now.date()
            lines = [f"ABSENT {today + timedelta(days=3 * n + 20)}" for n in range(MOST_AHEAD + 1)]
            await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\n" + "\n".join(lines) + "\n", subject="away")
            answer = await _answer(alice, "away")
            assert answer.count("REFUSED") == 1, answer
            assert f"line {MOST_AHEAD + 2}: REFUSED: seat A has {MOST_AHEAD} absences ahead already" in answer, answer

            # A turn number no int() should read: the orders are taken for the current turn, not refused oddly.
            subject = f"Re: [tc-1] Turn {'9' * 5000}"
            await alice.send(OPENING_ORDERS["A"], subject=subject, to=game.reports["A"].reply_to or GM_ADDRESS)
            answer = (await alice.last()).body  # its subject cut, as every subject pbem writes
            assert "REFUSED" not in answer and "stale" not in answer, answer[:500]

    asyncio.run(scenario())
