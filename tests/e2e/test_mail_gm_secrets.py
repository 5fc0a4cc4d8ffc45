"""The GM's SECRETS by real mail: every seat's view of the turn goes in a mail of its own to the GM's
address on record (also when the GM session came from another address that knows the GM password),
the reply says so, and each look is recorded in the game's audit log (read back by LOG and by
``pbem log``). No player and no observer gets any of it: an observer's or a player's SECRETS is
refused. Meanies in our Midst refuses it to the GM too, and nothing is recorded then."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from databases import database_url
from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join, mailbox

from pbem.cli import main
from pbem.sandbox.mailclient import ReceivedMail

HAND = re.compile(r"hand", re.IGNORECASE)


async def mail_about(service: MailHarness, person: Person, needle: str) -> ReceivedMail:
    """Wait for a mail to ``person`` whose subject or text holds ``needle``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while True:
        for mail in await mailbox(service, person):
            if needle in mail.subject or needle in mail.body:
                return mail
        assert loop.time() < deadline, f"{person.address} got no mail about {needle!r}"
        await asyncio.sleep(0.05)


def secrets_looks(service: MailHarness, name: str) -> list[str]:
    """The actors of the SECRETS entries of the game's audit log."""
    return [entry.actor for entry in service.runner.log(name) if entry.action == "SECRETS"]


def test_secrets_mails_every_seats_view_to_the_gm_alone_and_is_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_url(tmp_path)

    async def scenario() -> None:
        async with running_service(tmp_path, db_url=db) as service:
            opened = await create_and_join(service, "three-pyramids", "pyr", 2, "seed=4")
            gm, password = opened.gm, opened.gm_password
            players = {seat: person for seat, (person, _) in opened.seats.items()}
            fan = service.person("fan@outside.test")
            await gm.send(f"GM pyr {password}\nSTART\n")
            await eventually(lambda: service.runner.info("pyr").phase is not None)
            await fan.send("OBSERVE pyr\n")
            await mail_about(service, fan, "You observe game pyr")
            assert secrets_looks(service, "pyr") == []

            await gm.send(f"GM pyr {password}\nSECRETS\n")
            reply = await mail_about(service, gm, "SECRETS: every seat's view")
            assert f"went to {gm.address} in a mail of its own; your look is recorded" in reply.body
            views = await mail_about(service, gm, "] Secrets of turn 1")
            assert views.subject == "[pyr] Secrets of turn 1"
            text = views.body.replace("\r\n", "\n")
            for seat in ("1", "2"):
                own = service.runner.report_text("pyr", seat)
                assert f"=== Seat {seat} ===" in text and f"report for seat {seat}" in text
                hand = [line for line in own.splitlines() if HAND.search(line)]
                assert hand and all(line in text for line in hand), hand
            assert secrets_looks(service, "pyr") == [f"gm {gm.address}"]

            stranger = service.person("stranger@outside.test")  # knows the GM password, is not the GM
            await stranger.send(f"GM pyr {password}\nSECRETS\n")
            answer = await mail_about(service, stranger, "SECRETS: every seat's view")
            assert "=== Seat" not in answer.body and f"went to {gm.address}" in answer.body
            await eventually(lambda: len(secrets_looks(service, "pyr")) == 2)
            assert secrets_looks(service, "pyr")[1] == f"gm {stranger.address}"

            await fan.send("SECRETS\n")  # an observer is no GM
            refused = await mail_about(service, fan, "REFUSED")
            assert "SECRETS is a game master command" in refused.body and "=== Seat" not in refused.body
            player = players["1"]
            await player.send(f"SIGNON pyr 1 {opened.seats['1'][1]}\nSECRETS\n")
            refused = await mail_about(service, player, "REFUSED")
            assert "=== Seat" not in refused.body
            await service.settle(0.3)
            assert len(secrets_looks(service, "pyr")) == 2
            for person in (*players.values(), fan, stranger):
                for mail in await mailbox(service, person):
                    assert "Secrets of turn" not in mail.subject and "=== Seat" not in mail.body, person.address
            for mail in await mailbox(service, fan):  # the observer's reports are the public one
                assert not any(HAND.search(line) and "Your" in line for line in mail.body.splitlines()), mail.body

            await gm.send(f"GM pyr {password}\nLOG\n")
            logged = (await mail_about(service, gm, "Audit log of pyr")).body.replace("\r\n", "\n")
            entries = [line for line in logged.splitlines() if "  SECRETS  " in line]
            assert len(entries) == 2 and f"gm {gm.address}  SECRETS  every seat's view of turn 1" in entries[0]

            meanies = await create_and_join(service, "meanies-in-our-midst", "mean", 4, "seed=4")
            await meanies.gm.send(f"GM mean {meanies.gm_password}\nSTART\nSECRETS\n")
            refused = await mail_about(service, meanies.gm, "SECRETS is refused")
            assert "REFUSED: SECRETS is refused for Meanies in our Midst: who gave which cubes is never shown" \
                in refused.body
            await service.settle(0.3)
            assert not [m for m in await mailbox(service, meanies.gm) if "Secrets of turn" in m.subject]
            assert secrets_looks(service, "mean") == []

    asyncio.run(asyncio.wait_for(scenario(), timeout=90))
    assert main(["log", "pyr", "--db", db]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if "  SECRETS  " in line]
    assert len(printed) == 2 and "gm stranger@outside.test  SECRETS" in printed[1]
