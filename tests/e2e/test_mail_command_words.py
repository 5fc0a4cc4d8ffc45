"""Order words that are also command words, through real mail: Shelloker's CHECK (a reply whose only
line is CHECK is the betting order; CHECK followed by orders stays the check without storing) and
Harvest Day's REVEAL (a game master's command inside a GM session, orders at the top of a reply)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_harness import running_service
from mail_secrets import newest_report, start_by_mail


def test_a_lone_check_is_shellokers_order_and_check_before_orders_only_checks(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = await start_by_mail(service, "shelloker", "sh-9", 2, seed=3)
            first = service.runner.info("sh-9").phase.seats[0]
            player = table.seats[first]
            report = await newest_report(service, player, "sh-9", 1)
            player.inbox.seen = len(await service.servers.inbox(player.address))

            await player.reply(report, "CHECK\nRAISE 2\n")
            (checked,) = await player.receive(1)
            assert "CHECK only, nothing stored" in checked.body, checked.body
            assert service.runner.current_orders("sh-9", first) is None

            await player.reply(report, "CHECK\n")
            (stored, *_) = await player.receive(1)
            assert "1 line(s) accepted, 0 refused." in stored.body, stored.body
            assert "nothing stored" not in stored.body
            await service.settle()
            assert service.runner.info("sh-9").row.turn == 2, "the check was stored and the turn resolved"

    asyncio.run(scenario())


def test_a_reply_starting_with_harvest_days_reveal_is_orders(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = await start_by_mail(service, "harvest-day", "hd-9", 2, seed=3)
            player = table.seats["1"]
            report = await newest_report(service, player, "hd-9", 1)
            player.inbox.seen = len(await service.servers.inbox(player.address))
            await player.reply(report, "REVEAL 4\n")
            (answer,) = await player.receive(1)
            assert "1 line(s) accepted, 0 refused." in answer.body, answer.body
            assert service.runner.current_orders("hd-9", "1") is not None

    asyncio.run(scenario())
