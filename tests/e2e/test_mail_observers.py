"""Observers through real mail, in a game with secrets (Shelloker's hidden hands): OBSERVE brings the
public reports only, the same the GM reads, never a hand; UNOBSERVE stops them; the GM forbids
observers per game with SET observers=no. An observer is a reader of its own: its SET DIGEST OFF
brings every step of a game that reports in digests."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from mail_games import eventually
from mail_harness import Person, running_service
from mail_secrets import mailbox, newest_report, readable, start_by_mail

from pbem.games import find_game

OWN_HAND = re.compile(r"You draw|Your hand:")


async def eventually_async(predicate: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    """Wait until ``await predicate()`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await predicate():
        assert loop.time() < deadline, "still not true"
        await asyncio.sleep(0.05)


def test_an_observer_reads_the_public_reports_of_a_game_with_secrets_and_never_a_hand(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = await start_by_mail(service, "shelloker", "sh-1", 2, seed=3)
            fan, late = service.person("fan@outside.test"), service.person("late@outside.test")
            await fan.send("OBSERVE sh-1\n")
            assert "You observe game sh-1" in (await fan.last()).body
            for reader in (fan, table.gm):  # Shelloker reports as digests; these two read every step
                await reader.send("SET DIGEST OFF\n")
            for reader in (fan, table.gm):
                async def answered(reader: Person = reader) -> bool:
                    return any("SET DIGEST OFF: every turn report" in m.body for m in await mailbox(service, reader))
                await eventually_async(answered)
            gm_password = re.search(r"GM password is (\S+):", (await mailbox(service, table.gm))[0].body)
            assert gm_password is not None
            gm = f"GM sh-1 {gm_password.group(1)}\n"
            await table.gm.send(gm + "PROCESS\n")
            await eventually(lambda: service.runner.info("sh-1").row.turn == 2)
            seen = await newest_report(service, fan, "sh-1", 2)
            public = await newest_report(service, table.gm, "sh-1", 2)
            assert "public report" in seen.body and seen.reply_to is None
            assert seen.body.replace("\r\n", "\n").startswith(public.body.replace("\r\n", "\n").rstrip("\n"))
            help_text = find_game("shelloker").help()
            for seat, player in table.seats.items():
                own = [m for m in await mailbox(service, player) if m.subject.startswith("[sh-1] Turn ")][-1]
                assert OWN_HAND.search(readable(own, help_text)), f"seat {seat} is told its hand"
            for mail in await mailbox(service, fan):
                assert not OWN_HAND.search(readable(mail, help_text)), mail.body

            await table.gm.send(gm + "SET observers=no\n")
            await late.send("OBSERVE sh-1\n")
            assert "does not allow observers" in (await late.last()).body
            await table.gm.send(gm + "PROCESS\n")
            await eventually(lambda: service.runner.info("sh-1").row.turn == 3)
            await newest_report(service, table.gm, "sh-1", 3)
            await service.settle()
            assert not any(m.subject == "[sh-1] Turn 3" for m in await mailbox(service, fan))
            await table.gm.send(gm + "SET observers=yes\n")
            fan.inbox.seen = len(await service.servers.inbox(fan.address))
            await fan.send("UNOBSERVE sh-1\n")
            assert "no longer observe" in (await fan.last()).body
            await table.gm.send(gm + "PROCESS\n")
            await eventually(lambda: service.runner.info("sh-1").row.turn == 4)
            await newest_report(service, table.gm, "sh-1", 4)
            await service.settle()
            assert not any(m.subject == "[sh-1] Turn 4" for m in await mailbox(service, fan))
            steps = [entry.action for entry in service.runner.log("sh-1")]
            assert steps.count("OBSERVE") == 1 and "UNOBSERVE" in steps

    asyncio.run(scenario())
