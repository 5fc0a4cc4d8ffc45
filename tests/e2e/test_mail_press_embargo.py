"""The press embargo by real mail: during Meanies in our Midst's silent mission, press between
players is refused with the phase named, whether sent in a SIGNON session, in a reply to a game mail,
or as a reply to a press mail; nothing reaches the other players. The GM's press goes through, and
once the mission is over players talk again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join, mailbox, newest_report

from pbem.sandbox.mailclient import ReceivedMail

NAME = "quiet"
MAIL_TIMEOUT = 10.0
REFUSED = f"REFUSED: no press between players during the mission phase of game {NAME}"


async def mail_saying(service: MailHarness, person: Person, needle: str, count: int = 1) -> ReceivedMail:
    """Wait until ``count`` mails to ``person`` hold ``needle``; return the newest of them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    while True:
        found = [mail for mail in await mailbox(service, person) if needle in mail.body]
        if len(found) >= count:
            return found[-1]
        assert loop.time() < deadline, f"{person.address} got no mail {count} saying {needle!r}"
        await asyncio.sleep(0.05)


async def press_mails(service: MailHarness, person: Person) -> list[str]:
    """The texts of the press mails ``person`` got."""
    return [mail.body for mail in await mailbox(service, person) if "] Press from " in mail.subject]


def test_players_cannot_talk_during_the_mission_but_the_gm_can(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            opened = await create_and_join(service, "meanies-in-our-midst", NAME, 4, "seed=3 turn_hours=0")
            gm, password = opened.gm, opened.gm_password
            seats = {seat: person for seat, (person, _) in opened.seats.items()}
            passwords = {seat: secret for seat, (_, secret) in opened.seats.items()}
            await gm.send(f"GM {NAME} {password}\nSTART\n")
            await eventually(lambda: service.runner.info(NAME).phase is not None)
            info = service.runner.info(NAME)
            guide = info.phase.seats[0]
            first, second, third = [seat for seat in sorted(seats) if seat != guide]

            # Before the mission: press goes; its reply address is kept for later.
            await seats[first].send(f"SIGNON {NAME} {first} {passwords[first]}\nPRESS {second}\nShall we?\nENDPRESS\n")
            before = await mail_saying(service, seats[second], "Shall we?")

            report = await newest_report(service, seats[guide], NAME, info.row.turn)
            await seats[guide].reply(report, f"CHOOSE {first} {second}\n")
            await eventually(lambda: service.runner.info(NAME).phase.name == "mission")
            turn = service.runner.info(NAME).row.turn

            await seats[first].send(f"SIGNON {NAME} {first} {passwords[first]}\nPRESS ALL\nI hold white!\nENDPRESS\n")
            signon = await mail_saying(service, seats[first], REFUSED)
            assert "the GM's press still goes through" in signon.body, signon.body
            mission = await newest_report(service, seats[second], NAME, turn)
            await seats[second].reply(mission, f"PRESS {third}\nGive me black.\nENDPRESS\n")
            await mail_saying(service, seats[second], REFUSED)
            await seats[second].reply(before, "Yes, keep blue.\n")  # a reply to a press mail
            await mail_saying(service, seats[second], REFUSED, count=2)
            await gm.send(f"GM {NAME} {password}\nPRESS ALL\nSilence, please: the mission is on.\nENDPRESS\n")
            for person in seats.values():
                await mail_saying(service, person, "Silence, please: the mission is on.")
            await service.settle(0.5)
            told = ""
            for person in [*seats.values(), gm]:
                told += "\n".join(await press_mails(service, person))
            for said in ("I hold white!", "Give me black.", "Yes, keep blue."):
                assert said not in told, f"press during the mission got through: {said}"

            members = service.runner.info(NAME).phase.seats
            await gm.send(f"GM {NAME} {password}\nPROCESS\n")  # the members' NMR defaults end the mission
            await eventually(lambda: service.runner.info(NAME).row.turn > turn)
            assert service.runner.info(NAME).phase.name == "next-guide", members
            await seats[second].reply(before, "Now we may talk.\n")
            await mail_saying(service, seats[first], "Now we may talk.")

    asyncio.run(asyncio.wait_for(scenario(), timeout=90))
