"""The GM's SECRETS by real mail: every seat's view of the turn goes in a mail of its own to the GM's
address on record (also when the GM session came from another address that knows the GM password),
the reply says so, the look is logged, and no player gets any of it. Meanies in our Midst refuses it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join, mailbox

from pbem.sandbox.mailclient import ReceivedMail


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


def test_secrets_mails_every_seats_view_to_the_gm_alone(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pbem.audit")

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            opened = await create_and_join(service, "three-pyramids", "pyr", 2, "seed=4")
            gm, password = opened.gm, opened.gm_password
            players = [person for person, _ in opened.seats.values()]
            await gm.send(f"GM pyr {password}\nSTART\n")
            await eventually(lambda: service.runner.info("pyr").phase is not None)

            await gm.send(f"GM pyr {password}\nSECRETS\n")
            reply = await mail_about(service, gm, "SECRETS: every seat's view")
            assert f"went to {gm.address} in a mail of its own; your look is recorded" in reply.body
            views = await mail_about(service, gm, "] Secrets of turn 1")
            assert views.subject == "[pyr] Secrets of turn 1"
            for seat in ("1", "2"):
                own = service.runner.report_text("pyr", seat)
                assert f"=== Seat {seat} ===" in views.body and f"report for seat {seat}" in views.body
                hand = [line for line in own.splitlines() if "hand" in line.lower()]
                assert hand and all(line in views.body.replace("\r\n", "\n") for line in hand), hand
            for player in players:
                assert not [m for m in await mailbox(service, player) if "Secrets of turn" in m.subject]

            stranger = service.person("stranger@outside.test")  # knows the GM password, is not the GM
            await stranger.send(f"GM pyr {password}\nSECRETS\n")
            answer = await mail_about(service, stranger, "SECRETS: every seat's view")
            assert "=== Seat" not in answer.body and f"went to {gm.address}" in answer.body
            await eventually(lambda: len(caplog.records) >= 2)

            meanies = await create_and_join(service, "meanies-in-our-midst", "mean", 4, "seed=4")
            await meanies.gm.send(f"GM mean {meanies.gm_password}\nSTART\nSECRETS\n")
            refused = await mail_about(service, meanies.gm, "SECRETS is refused")
            assert "REFUSED: SECRETS is refused for Meanies in our Midst: who gave which cubes is never shown" \
                in refused.body
            await service.settle(0.3)
            assert not [m for m in await mailbox(service, meanies.gm) if "Secrets of turn" in m.subject]

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    logged = [r.getMessage() for r in caplog.records if r.name == "pbem.audit"]
    assert len(logged) == 2 and all(m.startswith("game pyr: GM gm.pyr@example.org: SECRETS") for m in logged), logged
