"""The shortest path through the service: a GM creates a game by mail, players join,
the game starts, and a plain reply to the opening report is checked line by line."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_harness import running_service


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
            stored = service.runner.current_orders("tc1", "A")
            assert stored is not None and stored.orders == ["FEED F1", "MOVE F7-F8"]

    asyncio.run(scenario())
