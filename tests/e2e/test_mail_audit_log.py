"""The audit log through real mail: GM actions and the service's own decisions, each with its time
and actor, read back by LOG from the GM's mailbox and by ``pbem log``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from databases import database_url
from mail_games import open_game
from mail_harness import running_service

from pbem.cli import main
from pbem.clock import format_utc


def test_gm_actions_and_automatic_decisions_are_logged_with_time_and_actor(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_url(tmp_path)

    async def scenario() -> None:
        async with running_service(tmp_path, db_url=db) as service:
            game = await open_game(service)
            gm = game.gm
            started = format_utc(service.clock.now)
            await gm.send(f"GM tc-1 {game.gm_password}\nEXTEND 1d\nPAUSE\n")
            await gm.receive(1)  # the reply alone: the GM is not told of their own EXTEND and PAUSE
            service.clock.advance(hours=2)
            await gm.send(f"GM tc-1 {game.gm_password}\nRESUME\n")
            await gm.receive(1)
            deadline = service.runner.info("tc-1").row.deadline
            assert deadline is not None
            service.clock.now = deadline  # the clock resolves the turn with NMR defaults for everyone
            await gm.receive(1)  # the public report of turn 1
            await gm.send(f"GM tc-1 {game.gm_password}\nLOG\n")
            logged = (await gm.last()).body.replace("\r\n", "\n")
            assert "Audit log of tc-1:\n" in logged, logged
            lines = logged.split("Audit log of tc-1:\n")[1].splitlines()
            assert lines[0].startswith(started) and "gm boss@players.test  CREATE  turkey-chase game tc-1" in lines[0]
            expected = [("gm boss@players.test", "SEAT"), ("gm boss@players.test", "START"),
                        ("gm boss@players.test", "EXTEND"), ("gm boss@players.test", "PAUSE"),
                        ("gm boss@players.test", "RESUME"), ("service", "RESOLVE")]
            steps = [line.split("  ")[1:3] for line in lines if line.strip()]
            for step in expected:
                assert list(step) in steps, step
            assert "turn 1 resolved (deadline); NMR: A, B, C, D" in logged
            alice = game.players["A"]  # a player never sees the log
            alice.inbox.seen = len(await service.servers.inbox(alice.address))
            await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\nLOG\n")
            refused = (await alice.last()).body
            assert "REFUSED" in refused and "Audit log" not in refused

    asyncio.run(scenario())
    assert main(["log", "tc-1", "--db", db]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert any("  service  RESOLVE  turn 1 resolved (deadline)" in line for line in printed)
    assert sum("  EXTEND  " in line for line in printed) == 1
    assert main(["log", "nope", "--db", db]) == 2
