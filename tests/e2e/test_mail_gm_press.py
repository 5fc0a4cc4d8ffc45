"""Who reads press, by real mail: with gm_press=copy (the default) the GM gets a copy of press
between players and every press mail and answer says so; after the GM's SET gm_press=none, press
between players is private, says so, and the GM gets nothing; HELP PRESS and STATUS tell it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_games import eventually
from mail_harness import running_service
from mail_secrets import create_and_join, mailbox

NAME = "pr-1"


def test_the_gm_copy_of_press_is_the_games_choice_and_every_press_mail_says_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await create_and_join(service, "race-on-the-river", NAME, 2, "turn_hours=0")
            gm = game.gm
            await gm.send(f"GM {NAME} {game.gm_password}\nSTART\n")
            await eventually(lambda: service.runner.info(NAME).phase is not None)
            (one, one_password), (two, _) = game.seats["1"], game.seats["2"]
            await service.settle()
            for person in (gm, one, two):
                person.inbox.seen = len(await service.servers.inbox(person.address))

            await one.send(f"SIGNON {NAME} 1 {one_password}\nPRESS 2\nShall we bid low?\nENDPRESS\n")
            answer = (await one.last()).body
            assert "Press relayed to 2. The GM of this game gets a copy of press between players" in answer, answer
            press = (await two.last()).body
            assert "Shall we bid low?" in press and "The GM of this game gets a copy of press between players" in press
            copy = await gm.last()
            assert copy.subject == f"[{NAME}] Press from 1 (copy)" and "Shall we bid low?" in copy.body

            await gm.send(f"GM {NAME} {game.gm_password}\nSET gm_press=none\nSTATUS\n")
            assert "Press between players: private, the GM gets no copy." in (await gm.last()).body
            await one.send(f"SIGNON {NAME} 1 {one_password}\nPRESS 2\nAnd now privately.\nENDPRESS\n")
            assert "Press between players in this game is private: the GM gets no copy." in (await one.last()).body
            press = (await two.last()).body
            assert "And now privately." in press and "is private: the GM gets no copy" in press
            await service.settle(0.5)
            assert not any("And now privately." in mail.body for mail in await mailbox(service, gm))

            await two.send("HELP PRESS\n")
            assert "gm_press=copy" in (await two.last()).body

    asyncio.run(asyncio.wait_for(scenario(), timeout=90))
