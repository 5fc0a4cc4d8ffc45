"""A game that keeps its seed secret (Meanies in our Midst), by real mail: the GM's REVEAL ends it
and says the seed stays secret, VERIFY is refused with the reason, and no mail anybody got (the final
reports, STATUS, the replies) holds the secret or a "Seed revealed" line."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_games import eventually
from mail_harness import running_service
from mail_secrets import create_and_join, mailbox

NAME = "kept"


def test_reveal_ends_the_game_and_keeps_its_seed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            opened = await create_and_join(service, "meanies-in-our-midst", NAME, 4, "turn_hours=0")
            gm, password = opened.gm, opened.gm_password
            people = [person for person, _ in opened.seats.values()]
            await gm.send(f"GM {NAME} {password}\nSTART\n")
            await eventually(lambda: service.runner.info(NAME).phase is not None)
            secret = service.runner.info(NAME).row.secret
            assert secret and len(secret) == 64

            await gm.send(f"GM {NAME} {password}\nREVEAL\n")
            await eventually(lambda: service.runner.info(NAME).row.status == "finished")
            player = people[0]
            await player.send(f"VERIFY {NAME}\nSTATUS {NAME}\n")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while True:
                said = "\n".join([mail.body for mail in await mailbox(service, gm)]
                                 + [mail.body for mail in await mailbox(service, player)])
                if "its seed is not revealed" in said and "cannot be verified" in said:
                    break
                assert loop.time() < deadline, said
                await asyncio.sleep(0.05)
            assert f"Game {NAME} ended; its seed is not revealed: Meanies in our Midst keeps its seed secret" in said
            assert f"REFUSED: the draws of {NAME} cannot be verified: Meanies in our Midst keeps its seed " \
                   "secret even after the end" in said
            [logged] = [entry.text for entry in service.runner.log(NAME) if entry.action == "REVEAL"]
            assert logged == "game ended at turn 1 (its seed stays secret: its kind keeps it)", logged
            await service.settle(0.5)
            for person in [gm, *people]:
                mails = await mailbox(service, person)
                assert any(mail.subject == f"[{NAME}] Final report" for mail in mails), person.address
                for mail in mails:
                    text = mail.body + (mail.html or "")
                    assert secret not in text and "Seed revealed" not in text, (person.address, mail.subject)

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
