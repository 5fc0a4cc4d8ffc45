"""Fair dice by mail: SALT before the start, the commitment in the first report and STATUS,
REVEAL by the GM, and VERIFY by a player, through the real mail servers."""

from __future__ import annotations

import asyncio
import hashlib
import re
from pathlib import Path

from mail_games import accept_invitations
from mail_harness import Person, running_service

from pbem.core.rng import derive_seed
from pbem.sandbox.mailclient import ReceivedMail

SEATS = {"A": "ann@players.test", "B": "ben@players.test", "C": "cy@players.test", "D": "di@players.test"}


async def mail_with(person: Person, text: str, *, limit: int = 8) -> ReceivedMail:
    """The next mail of ``person`` holding ``text``, skipping (at most ``limit``) others."""
    for _ in range(limit):
        mail = await person.last()
        if text in mail.body:
            return mail
    raise AssertionError(f"no mail with {text!r}")


def test_salt_commitment_reveal_and_verify_by_mail(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person("gm-fair@players.test")
            seats = "".join(f"SEAT {seat} {address}\n" for seat, address in SEATS.items())
            await gm.send(f"CREATE turkey-chase fd players=4\n{seats}")
            created = await gm.last()
            password = re.search(r"GM password is (\S+):", created.body)
            assert password is not None, created.body
            people = {seat: service.person(address) for seat, address in SEATS.items()}
            await accept_invitations("fd", people.values())

            ann = people["A"]
            await ann.send("SALT ann's lucky number 17\n")
            salted = await ann.last()
            assert "Your salt for fd is noted (1 so far)" in salted.body, salted.body
            stranger = service.person("stranger@players.test")
            await stranger.send("SALT hijack\n", subject="[fd] salt")
            refused = await stranger.last()
            assert "REFUSED: SALT is taken from a seat of game fd" in refused.body, refused.body

            await ann.send("STATUS fd\n")
            status = await ann.last()
            found = re.search(r"Seed commitment \(SHA-256 of the game name, a newline and the secret\): ([0-9a-f]{64})",
                              status.body)
            assert found is not None, status.body
            promised = found.group(1)

            await gm.send(f"GM fd {password.group(1)}\nSTART\n")
            first = await mail_with(ann, "report for seat A")
            assert f"Seed commitment for game fd (SHA-256): {promised}" in first.body, first.body
            assert "Salt: A:ann's lucky number 17" in first.body, first.body

            await ann.send("VERIFY fd\n")
            early = await mail_with(ann, "REFUSED")
            assert "REFUSED: the seed of fd is not revealed yet" in early.body, early.body

            await gm.send(f"GM fd {password.group(1)}\nREVEAL\n")
            revealed = await mail_with(gm, "seed revealed")
            secret = re.search(r"seed revealed: secret ([0-9a-f]{64})", revealed.body)
            assert secret is not None, revealed.body
            final = await mail_with(ann, "Seed revealed")
            assert f"Seed revealed: {secret.group(1)}" in final.body, final.body
            assert hashlib.sha256(f"fd\n{secret.group(1)}".encode()).hexdigest() == promised
            row = service.runner.info("fd").row
            assert row.seed == derive_seed(secret.group(1), ["A:ann's lucky number 17"])

            await ann.send("VERIFY fd\n")
            verified = await mail_with(ann, "Verified")
            assert "of fd: every state and draw matches." in verified.body, verified.body

    asyncio.run(scenario())
