"""The Epic Quest played purely by mail through the real daemon and the real IMAP and SMTP servers on
127.0.0.1: a solo quest from CREATE to its end, and a two-player team quest.

Solo: a map that breaks the rule book is refused at CREATE with what is wrong; the one player joins,
the GM starts, and the player answers every report with a plain reply: a line with a mistake is
refused with what was expected, the check reply says what the step spends and in which order, and
the steps go on until the quest ends (the round cap keeps it short). Team: both players owe each
step; one waits with NOORDERS while the other acts, DONE ends a player's round so only his teammate
is asked, and both get every report. Both games end in a final report to every seat and replay
identically from their seeds.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from mail_harness import MailHarness, Person, running_service

from pbem.core import GameRng
from pbem.games import find_game
from pbem.sandbox.mailclient import ReceivedMail, plain_mail

GAME_SECONDS = 150.0
MAIL_TIMEOUT = 15.0
MAX_STEPS = 60
GAME = find_game("epic-quest")


async def _create(service: MailHarness, gm: Person, name: str, options: str, players: int) -> dict[str, Person]:
    """CREATE by mail, JOIN every player by mail, START; return the seats' people after their first report."""
    await gm.send(f"CREATE epic-quest {name} players={players} {options}\n")
    created = await gm.last(timeout=MAIL_TIMEOUT)
    password = re.search(r"GM password is (\S+):", created.body)
    assert password is not None, created.body
    seats: dict[str, Person] = {}
    for number in range(1, players + 1):
        person = service.person(f"p{number}.{name}@example.org")
        await person.send(f"JOIN {name}\n")
        joined = await person.last(timeout=MAIL_TIMEOUT)
        assert f"as seat {number}." in joined.body, joined.body
        seats[str(number)] = person
        await gm.last(timeout=MAIL_TIMEOUT)  # the GM hears of the join
    await gm.send(f"GM {name} {password.group(1)}\nSTART\n")
    await gm.receive(2, timeout=MAIL_TIMEOUT)
    return seats


WAITS = "so the step does not end early"
"""In the reply to the last wait of a step in which everyone waited: READY from every player ends it."""


async def _reply(person: Person, to: ReceivedMail, text: str) -> ReceivedMail:
    """Reply to ``to`` with ``text`` as a mail program does; return the answer to the reply."""
    subject = to.subject if to.subject.lower().startswith("re:") else f"Re: {to.subject}"
    message = plain_mail(person.address, to.reply_to or "", subject, text, in_reply_to=to.message_id)
    await person.send_message(message)
    answer = await person.last(timeout=MAIL_TIMEOUT)
    assert answer.in_reply_to == message["Message-ID"], (answer.subject, answer.body)
    return answer


def test_a_solo_quest_is_played_by_mail_from_creation_to_its_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person("gm.solo@example.org")
            await gm.send("CREATE epic-quest eq-bad players=1 map=FFEFF/F.F.F/GB..Y\n")
            refused = await gm.last(timeout=MAIL_TIMEOUT)
            assert "the green portal a3 touches the blue portal b3" in refused.body, refused.body
            assert "eq-bad" not in {row.name for row in service.runner.games()}

            seats = await _create(service, gm, "eq-solo", "seed=11 max_rounds=3 map=FFEFFF/F.F..F/G.B..Y", 1)
            player = seats["1"]
            report = await player.last(timeout=MAIL_TIMEOUT)
            assert report.subject == "[eq-solo] Turn 1" and "|yellow 12/8 |" in report.body, report.body
            assert "Round 1, step 1; actions left: the Warrior 2 (seat 1)" in report.body

            check = await _reply(player, report, "@1 CLERIC RITUAL\nKNIGHT MOVE e1\nWARRIOR MOVE b1\n")
            assert "REFUSED (line 2): e1 is not next to the Knight's card c1" in check.body, check.body
            assert "Your actions run in this order: WARRIOR MOVE b1, then @1 CLERIC RITUAL." in check.body
            report = await player.last(timeout=MAIL_TIMEOUT)
            assert report.subject == "[eq-solo] Turn 2" and "The Warrior moves from c1 to b1." in report.body

            robots = GameRng(5)
            for _ in range(MAX_STEPS):
                info = service.runner.info("eq-solo")
                if info.outcome is not None:
                    break
                orders = GAME.sample_orders(info.state, "1", robots)
                check = await _reply(player, report, "\n".join(str(o) for o in orders) + "\n")
                assert f"{len(orders)} line(s) accepted, 0 refused." in check.body, check.body
                if GAME.is_wait(info.state, "1", orders):  # told first; READY ends the phase so
                    assert "you are the only one to act and you wait, " + WAITS in check.body, check.body
                    assert service.runner.info("eq-solo").row.turn == info.row.turn
                    await _reply(player, report, "READY\n")
                report = await player.last(timeout=MAIL_TIMEOUT)
                assert "report for seat 1" in report.body
            info = service.runner.info("eq-solo")
            assert info.outcome is not None and info.outcome.winners == ()
            assert report.subject == "[eq-solo] Final report"
            assert "The game is over. Nobody wins." in report.body and info.outcome.reason in report.body
            assert service.runner.replay("eq-solo").is_identical

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))


def test_a_two_player_team_quest_is_played_by_mail(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person("gm.team@example.org")
            seats = await _create(service, gm, "eq-team", "seed=12 max_rounds=2", 2)
            newest = {seat: await person.last(timeout=MAIL_TIMEOUT) for seat, person in seats.items()}
            for seat, names in (("1", ("Warrior", "Archer")), ("2", ("Knight", "Cleric"))):
                assert all(f"{name} (seat {seat}, you)" in newest[seat].body for name in names), newest[seat].body

            waited = await _reply(seats["1"], newest["1"], "NOORDERS\n")
            assert service.runner.info("eq-team").row.turn == 1, waited.body  # seat 2 still owes
            assert "If every player waits in this step, the adventurers' phase of round 1 ends" in waited.body
            assert WAITS not in waited.body
            check = await _reply(seats["2"], newest["2"], "KNIGHT MOVE c2\nDONE\n")
            assert "Then DONE: the rest of your actions this round are forfeited." in check.body, check.body
            newest = {seat: await person.last(timeout=MAIL_TIMEOUT) for seat, person in seats.items()}
            assert all(mail.subject == "[eq-team] Turn 2" for mail in newest.values())
            assert "Seat 2 is done for this round" in newest["1"].body
            assert "Your orders are due" in newest["1"].body and "Your orders are due" not in newest["2"].body
            assert "Waiting for orders from: 1" in newest["2"].body
            info = service.runner.info("eq-team")
            assert info.phase is not None and info.phase.seats == ("1",)  # only seat 1 has actions left

            robots = GameRng(8)
            for _ in range(MAX_STEPS):
                info = service.runner.info("eq-team")
                if info.outcome is not None:
                    break
                assert info.phase is not None
                for seat in info.phase.seats:
                    orders = GAME.sample_orders(info.state, seat, robots)
                    check = await _reply(seats[seat], newest[seat], "\n".join(str(o) for o in orders) + "\n")
                    assert "0 refused." in check.body, check.body
                if WAITS in check.body:  # everyone waited: told first; READY from every player ends the phase
                    for seat in info.phase.seats:
                        await _reply(seats[seat], newest[seat], "READY\n")
                newest = {seat: await person.last(timeout=MAIL_TIMEOUT) for seat, person in seats.items()}
            info = service.runner.info("eq-team")
            assert info.outcome is not None
            for seat, mail in newest.items():
                assert mail.subject == "[eq-team] Final report" and f"report for seat {seat}" in mail.body
                assert info.outcome.headline in mail.body
            assert service.runner.replay("eq-team").is_identical

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))
