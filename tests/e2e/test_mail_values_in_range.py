"""Every value a mail hands the service is checked on the way in, and every answer stays within its
bounds, through the real daemon and real mail servers: the reply cap holds for the final text with
every note."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_games import inbound_rows
from mail_harness import running_service

from pbem.games import GAMES
from pbem.mail.reply import reply_limit


def test_the_reply_cap_holds_for_the_final_text_with_every_note(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            eve = service.person("eve@outside.test")
            await eve.send("".join(f"x{n}\n" for n in range(25)) + "".join(f"HELP {kind}\n" for kind in GAMES))
            answer = (await eve.last()).body.replace("\r\n", "\n")
            size = inbound_rows(service)[-1].size
            assert size is not None
            assert "This reply is limited to" in answer and "were left out" in answer, answer[-500:]
            assert len(answer) <= reply_limit(size), (len(answer), reply_limit(size))

    asyncio.run(scenario())
