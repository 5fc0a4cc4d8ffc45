"""REPORT by real mail, and the verdicts of orders that cannot be played now, in a game of Top of the
Temple (each seat's colour is its secret, and each seat's report has a picture of its own).

- Seat 2 answers its opening report with a well-formed OFFER during seat 1's turn: the line is refused
  on its line with the reason, no ``ok``, one verdict that agrees, no request for orders, no HTML banner.
- After turn 1, seat 2 answers the opening report again: refused as stale, and the refusal names REPORT.
- REPORT (a reply holding only that word) mails seat 2's newest report again: the same text and the same
  pictures as the turn report it got. REPORT 0 mails the opening report: the same but for the deadline,
  which is gone. REPORT <game> from seat 3's address and from the GM's gives each its own report, the
  outsider none until it observes the game (then the public one). A second REPORT in one mail is refused on its line; REPORT 99 is refused naming the turns.
- A bare BID sent to the game master's address with the game in the subject is answered with how to
  send orders for that game.
"""

from __future__ import annotations

import asyncio
import email
import re
from email.policy import default
from pathlib import Path

from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import mailbox, newest_report, start_by_mail

from pbem.core import GameRng
from pbem.games import find_game
from pbem.sandbox.mailclient import ReceivedMail

NAME = "temple-1"
GAME = find_game("top-of-the-temple")
TIMEOUT = 15.0


def pictures(mail: ReceivedMail) -> dict[str, bytes]:
    """The PNG parts of a mail by file name."""
    message = email.message_from_bytes(mail.raw, policy=default)
    return {part.get_filename(): part.get_content() for part in message.walk()
            if part.get_content_type() == "image/png"}


def without_deadline(text: str, deadline: str) -> str:
    """``text`` with the deadline clauses of a report taken out (an older report sent again has none)."""
    return text.replace(f", due by {deadline}", "").replace(f" by {deadline}", "")


async def catch_up(service: MailHarness, person: Person) -> None:
    """Count every mail ``person`` has now as seen: the next one awaited is a new one."""
    person.inbox.seen = len(await service.servers.inbox(person.address))


async def reports_of(service: MailHarness, person: Person, subject: str) -> list[ReceivedMail]:
    """Every mail ``person`` received with exactly ``subject``."""
    return [mail for mail in await mailbox(service, person) if mail.subject == subject]


def test_report_again_and_one_verdict_by_real_mail(tmp_path: Path) -> None:
    asyncio.run(_scenario(tmp_path))


async def _scenario(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        table = await start_by_mail(service, GAME.name, NAME, 3, seed=4)
        first, second, third = (table.seats[seat] for seat in ("1", "2", "3"))
        assert service.runner.info(NAME).phase.seats == ("1",)
        opening = {seat: await newest_report(service, person, NAME, 1) for seat, person in table.seats.items()}
        for person in (*table.seats.values(), table.gm, table.outsider):
            await catch_up(service, person)

        # Orders from a seat that owes none: one verdict per line and for the mail, and they agree.
        await second.reply(opening["2"], "OFFER blue red green yellow black\n")
        answer = await second.last(timeout=TIMEOUT)
        assert "REFUSED (line 1): it is not your turn: waiting for seat 1" in answer.body, answer.body
        assert not re.search(r"^\s+ok$", answer.body, re.MULTILINE), answer.body
        assert "0 line(s) accepted, 1 refused." in answer.body and "REFUSED: " not in answer.body, answer.body
        assert "Nothing was stored: you owe no orders now." in answer.body, answer.body
        assert "Send corrected orders" not in answer.body and answer.html is None, answer.body

        # Seat 1 plays turn 1; every seat gets its report of it.
        info = service.runner.info(NAME)
        offer = "\n".join(str(order) for order in GAME.sample_orders(info.state, "1", GameRng(1)))
        await first.reply(opening["1"], offer + "\n")
        await eventually(lambda: service.runner.info(NAME).row.turn == 2)
        newest = {seat: await newest_report(service, person, NAME, 2) for seat, person in table.seats.items()}
        public = await newest_report(service, table.gm, NAME, 2)
        await service.settle(0.5)
        for person in (*table.seats.values(), table.gm):
            await catch_up(service, person)

        # The opening report answered now: stale, and the refusal says how to get the newest report.
        await second.reply(opening["2"], "OFFER blue red green yellow black\n")
        stale = await second.last(timeout=TIMEOUT)
        assert "refused as stale" in stale.body and "Send REPORT" in stale.body, stale.body

        # REPORT in a reply: the newest report again, the same text and pictures.
        await second.reply(newest["2"], "REPORT\n")
        again, said = await _report_and_answer(second, f"[{NAME}] Turn 2")
        assert "REPORT: your newest report of game temple-1 (seat 2) went to" in said.body, said.body
        assert again.body == newest["2"].body and again.html == newest["2"].html
        assert pictures(again) == pictures(newest["2"]) and len(pictures(again)) == 2  # the board and its own
        assert again.reply_to == newest["2"].reply_to

        # REPORT 0, with a second REPORT in the same mail: the opening report (its deadline gone), and the
        # second refused on its line: one report mail only.
        await second.reply(newest["2"], "REPORT 0\nREPORT\n")
        old, said = await _report_and_answer(second, f"[{NAME}] Turn 1")
        assert "line 2: REFUSED: one REPORT is answered per mail" in said.body, said.body
        deadline = re.search(r"due by (.+)\.\r?$", opening["2"].body, re.MULTILINE)
        assert deadline is not None, opening["2"].body
        assert old.body == without_deadline(opening["2"].body, deadline.group(1)) != opening["2"].body
        assert pictures(old) == pictures(opening["2"])
        await service.settle(1.0)
        assert len(await reports_of(service, second, f"[{NAME}] Turn 1")) == 2  # the original and one again

        # REPORT <game> from the third seat's address: its own report; the outsider gets none.
        await third.send(f"REPORT {NAME}\n", subject="report please")
        again, said = await _report_and_answer(third, f"[{NAME}] Turn 2")
        assert again.body == newest["3"].body and pictures(again) == pictures(newest["3"])
        assert again.body != newest["2"].body
        await table.outsider.send(f"REPORT {NAME}\n", subject="report please")
        refused = await table.outsider.last(timeout=TIMEOUT)
        assert "REFUSED" in refused.body and "does not observe it" in refused.body, refused.body

        # The GM's own address, the game from the subject's tag: the public report, as the GM got it.
        await table.gm.send("REPORT\n", subject=f"[{NAME}] again")
        again, said = await _report_and_answer(table.gm, f"[{NAME}] Turn 2")
        assert again.body == public.body and pictures(again) == pictures(public)

        # Once it observes the game, the outsider gets the public report too, with an observer's note.
        await table.outsider.send(f"OBSERVE {NAME}\n", subject="follow")
        assert "You observe game" in (await table.outsider.last(timeout=TIMEOUT)).body
        await table.outsider.send(f"REPORT {NAME}\n", subject="report please")
        again, said = await _report_and_answer(table.outsider, f"[{NAME}] Turn 2")
        assert again.body.startswith(public.body.rstrip("\r\n")) and f"UNOBSERVE {NAME}" in again.body
        assert pictures(again) == pictures(public) and "(the public report)" in said.body, said.body

        # A turn not played yet: refused, naming the turns there are.
        await second.reply(newest["2"], "REPORT 99\n")
        refused = await second.last(timeout=TIMEOUT)
        assert "no report of turn 99: its reports tell turns 0 (the opening) to 1" in refused.body, refused.body

        # A bare order to the game master's address, with the game in the subject.
        await second.send("BID 3\n", subject=f"[{NAME}] my bid")
        hint = await second.last(timeout=TIMEOUT)
        assert f"if these are orders for game {NAME}, reply to your newest report" in hint.body, hint.body
        assert f"REPORT {NAME}" in hint.body and f"SIGNON {NAME} <seat> <password>" in hint.body, hint.body


async def _report_and_answer(person: Person, subject: str) -> tuple[ReceivedMail, ReceivedMail]:
    """The two mails a REPORT brings: the report sent again (with ``subject``) and the answer to the mail."""
    mails = await person.receive(2, timeout=TIMEOUT)
    reports = [mail for mail in mails if mail.subject == subject]
    assert len(reports) == 1, [mail.subject for mail in mails]
    return reports[0], next(mail for mail in mails if mail is not reports[0])
