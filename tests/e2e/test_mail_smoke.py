"""The shortest path through the service: a GM creates a game by mail, players join,
the game starts, and a plain reply to the opening report is checked line by line."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_harness import GM_ADDRESS, TEST_MAIL_BUDGET, running_service

from pbem.mail.running.daemon import DaemonOptions
from pbem.sandbox.mailclient import plain_mail


def test_create_join_start_and_reply_with_orders(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person("boss@example.org")
            await gm.send("CREATE turkey-chase tc1\n")
            created = await gm.last()
            assert "you are its GM" in created.body and created.auto_submitted == "auto-replied"
            password = created.body.split("GM password is ")[1].split(":")[0]
            players = [service.person(f"{p}@example.org") for p in "abcd"]
            for player in players:
                await player.send("JOIN tc1\n")
                joined = await player.last()
                assert "You joined game tc1" in joined.body and joined.reply_to
            await gm.send(f"GM tc1 {password}\nSTART\n")
            report = await players[0].last()
            assert report.subject == "[tc1] Turn 1" and "The cornfield" in report.body and report.html
            await players[0].reply(report, "FEED F1\nMOVE F7-F8\nFEED Z9\n")
            check = await players[0].last()
            assert "REFUSED (line 3, column 6): expected a square such as F6" in check.body
            assert "Your orders v1" in check.body and check.in_reply_to
            # A refused line: an HTML table too, the caret under the column, and the request to reply.
            assert check.html is not None and '<span class="refused">REFUSED</span>' in check.html
            assert "Reply to this mail with your orders" in check.html
            stored = service.runner.current_orders("tc1", "A")
            assert stored is not None and stored.orders == ["FEED F1", "MOVE F7-F8"]
            await players[0].reply(report, "FEED F1\nMOVE F7-F8\n")
            accepted = await players[0].last()
            assert "2 line(s) accepted, 0 refused." in accepted.body and "Your orders v2" in accepted.body
            assert accepted.html is None and b"multipart" not in accepted.raw  # nothing to correct: plain text

    asyncio.run(scenario())



def test_a_burst_of_mail_is_answered_while_the_intake_waits_for_each_pass_to_be_done(tmp_path: Path) -> None:
    """After each pass the intake waits until the mail it took is handled and answered (so that
    mail arriving meanwhile is taken in one go); that wait must end when the work is done, not
    at its limit, which here is a minute: every sender is answered within the usual timeouts."""
    async def scenario() -> None:
        options = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.1, catch_up_wait=60.0)
        async with running_service(tmp_path, options=options) as service:
            people = [service.person(f"p{n}@example.org") for n in range(30)]
            await service.settle()
            for person in people:  # one every 2 ms: faster than they are answered
                await service.servers.deliver(GM_ADDRESS, plain_mail(person.address, GM_ADDRESS, "help",
                                                                     "HELP\n").as_bytes())
                await asyncio.sleep(0.002)
            answers = [await person.last(timeout=10.0) for person in people]
            assert service.daemon.intake.stats.taken == 30
        assert all("JOIN" in answer.body for answer in answers)

    asyncio.run(scenario())
