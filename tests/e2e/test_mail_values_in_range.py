"""Every value a mail hands the service is checked on the way in, and every answer stays within its
bounds, through the real daemon and real mail servers: the reply cap holds for the final text with
every note."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from mail_games import inbound_rows
from mail_harness import MailHarness, Person, running_service
from mail_secrets import GameByMail, create_and_join

from pbem.games import GAMES
from pbem.mail.reply import reply_limit


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
        if mail.subject == f"Re: {subject}":
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
