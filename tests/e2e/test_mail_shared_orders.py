"""Shared pending orders by real mail: in The Epic Quest's team step a player's check reply and STATUS
list the teammate's stored orders for the step; in Race on the River's sealed bids neither shows the
other player's bid. Players answer their reports with plain replies (the reply address signs them on)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join, newest_report

MAIL_TIMEOUT = 10.0


async def started(service: MailHarness, kind: str, name: str) -> dict[str, Person]:
    """A two-player game of ``kind`` created, joined and started by mail (turn_hours=0, resolve=deadline:
    nothing resolves by itself); return the people by seat."""
    opened = await create_and_join(service, kind, name, 2, "seed=5 turn_hours=0 resolve=deadline")
    await opened.gm.send(f"GM {name} {opened.gm_password}\nSTART\n")
    await eventually(lambda: service.runner.info(name).phase is not None)
    return {seat: person for seat, (person, _) in opened.seats.items()}


async def answer(service: MailHarness, person: Person, name: str, text: str) -> str:
    """Reply to the person's turn 1 report with ``text``; return the answer's text."""
    report = await newest_report(service, person, name, 1)
    await person.reply(report, text)
    while True:
        mail = await person.last(timeout=MAIL_TIMEOUT)
        if mail.subject.lower().startswith("re:"):
            return mail.body.replace("\r\n", "\n")


def test_a_team_sees_its_stored_orders_and_a_sealed_bid_stays_sealed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            quest = await started(service, "epic-quest", "quest")
            stored = await answer(service, quest["1"], "quest", "WARRIOR MOVE c2\nARCHER MOVE c2\n")
            assert "2 line(s) accepted, 0 refused." in stored and "seat 2: none yet" in stored, stored
            check = await answer(service, quest["2"], "quest", "CHECK\nKNIGHT MOVE c2\n")
            assert "CHECK only, nothing stored" in check, check
            assert "Your teammates' orders stored for this step:\n  seat 1:\n    WARRIOR MOVE c2\n" \
                   "    ARCHER MOVE c2" in check, check
            status = await answer(service, quest["2"], "quest", "STATUS\n")
            assert "Your teammates' orders stored for this step:" in status and "ARCHER MOVE c2" in status, status

            race = await started(service, "race-on-the-river", "race")
            bid = await answer(service, race["1"], "race", "BID 7\n")
            assert "1 line(s) accepted, 0 refused." in bid and "teammates" not in bid, bid
            check = await answer(service, race["2"], "race", "CHECK\nBID 3\n")
            status = await answer(service, race["2"], "race", "STATUS\n")
            for text in (check, status):
                assert "BID 7" not in text and "teammates" not in text, text

    asyncio.run(asyncio.wait_for(scenario(), timeout=90))
