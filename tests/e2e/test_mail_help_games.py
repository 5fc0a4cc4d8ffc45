"""HELP by real mail names the game kinds hosted and the Gateway Island games that are not, and why."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_harness import running_service

from pbem.games import GAMES, NOT_HOSTED


def test_help_and_help_games_name_the_kinds_and_the_games_not_hosted(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            asker = service.person("curious@outside.test")
            for command in ("HELP GAMES", "HELP"):
                await asker.send(f"{command}\n")
                body = (await asker.last()).body.replace("\r\n", "\n")
                assert all(f"  {kind} " in body for kind in GAMES), body
                assert all(f"  {game}: {why}" in body for game, why in NOT_HOSTED.items()), body
                assert ("SIGNON <game> <seat> <password>" in body) == (command == "HELP"), command

    asyncio.run(asyncio.wait_for(scenario(), timeout=30))
