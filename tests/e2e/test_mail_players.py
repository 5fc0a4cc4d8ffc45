"""Players by real mail: REGISTER a name, join a second address with the code the first one is given,
WHOIS a player (never an address), and the GM's STATUS with each holder's reliability."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from mail_harness import running_service
from mail_secrets import create_and_join

from sqlmodel import select

from pbem.store.tables import OutboundMessageRow


def test_register_join_a_second_address_and_whois(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            home, work, stranger = (service.person(a) for a in ("ann@home.test", "ann@work.test", "eve@x.test"))
            await home.send("REGISTER Ann\n")
            assert "you are Ann" in (await home.last()).body

            await work.send("REGISTER ann\n")
            taken = (await work.last()).body
            assert "the name Ann is taken" in taken and "REGISTER Ann <code>" in taken, taken

            await home.send("REGISTER Ann\n")
            given = (await home.last()).body
            code = re.search(r"REGISTER Ann ([0-9a-f]{8})\s", given)
            assert code is not None, given
            await stranger.send(f"REGISTER Ann {'0' * 8 if code.group(1) != '0' * 8 else '1' * 8}\n")
            assert "wrong, expired or used up" in (await stranger.last()).body
            await work.send(f"REGISTER Ann {code.group(1)}\n")
            assert "joined to Ann, which has 2 addresses now" in (await work.last()).body

            await stranger.send("WHOIS ann\n")
            whois = (await stranger.last()).body
            assert "Ann: 0 games played, 0 finished" in whois and "no deadlines owed yet" in whois, whois
            assert "@home.test" not in whois and "@work.test" not in whois
            await service.settle()
            with service.runner.unit(lock=False) as unit:  # the mail that gave the code keeps no body once sent
                code_mails = list(unit.session.exec(select(OutboundMessageRow).where(OutboundMessageRow.secret)))
                assert code_mails and all(code.group(1).encode() not in m.raw for m in code_mails)

    asyncio.run(scenario())


def test_a_name_that_looks_like_another_players_is_refused_by_mail_naming_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            alice, bob, eve = (service.person(a) for a in ("alice@x.test", "bob@x.test", "eve@x.test"))
            await alice.send("REGISTER Alice\n")
            assert "you are Alice" in (await alice.last()).body
            await bob.send("REGISTER Bob\n")
            assert "you are Bob" in (await bob.last()).body
            for asked, taken in (("AIice", "Alice"), ("B0b", "Bob")):
                await eve.send(f"REGISTER {asked}\n")
                refused = (await eve.last()).body
                assert f"REFUSED: the name {asked} looks too much like {taken}" in refused, refused
            await eve.send("REGISTER alice\n")  # the same name in another case, as before
            assert "REFUSED: the name Alice is taken" in (await eve.last()).body
            await eve.send("REGISTER Eve\n")
            assert "you are Eve" in (await eve.last()).body
            await eve.send("WHOIS AIice\n")
            assert "no player is called AIice" in (await eve.last()).body

    asyncio.run(scenario())


def test_the_gm_status_shows_each_holders_reliability(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await create_and_join(service, "race-on-the-river", "rr-p", 2, "seed=4")
            player, _ = game.seats["1"]
            await player.send("REGISTER rower\n")
            await player.last()
            await service.settle()
            game.gm.inbox.seen = len(await service.servers.inbox(game.gm.address))  # the JOIN notices before
            await game.gm.send(f"GM rr-p {game.gm_password}\nSTATUS\n")
            status = (await game.gm.last()).body
            assert "Players' reliability (deadlines met):" in status, status
            assert f"1 {player.address} (rower): no deadlines owed yet" in status, status
            await player.send("STATUS rr-p\n")
            assert "reliability" not in (await player.last()).body

    asyncio.run(scenario())
