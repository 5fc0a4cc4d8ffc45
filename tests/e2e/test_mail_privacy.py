"""A player's data is theirs, through real mail: MYDATA answers the address itself with everything kept
about it (never the forger of its From), and FORGET, confirmed by a code mailed to the address, leaves the
running games (the GM told) and erases every trace of the address from the database; the operator's
``pbem forget`` does the same, and the games still replay."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from mail_games import OpenGame, inbound_row, open_game, prove_quiet, send_raw
from mail_harness import MailHarness, Person, running_service

from pbem.service import privacy

PBEM = [sys.executable, "-m", "pbem.cli"]


async def game_with_a_known_player(service: MailHarness) -> tuple[OpenGame, Person]:
    """A started game whose seat A's player chose a time zone and registered the name alicia."""
    game = await open_game(service)
    alice = game.players["A"]
    await alice.send("SET ZONE Europe/Berlin\nREGISTER alicia\n")
    await alice.last()
    return game, alice


def test_mydata_answers_the_address_itself_with_everything_kept_about_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game, alice = await game_with_a_known_player(service)
            await alice.send("MYDATA\n", subject="my data")
            data = (await alice.last()).body
            assert f"What pbem holds about {alice.address}:" in data
            assert f"game {game.name} (turkey-chase, active), seat A (active)" in data
            assert "registered name alicia" in data
            assert "time zone Europe/Berlin" in data
            assert "from you," in data and "to you," in data  # the mail kept, both ways
            assert "bob@" not in data  # nothing about anybody else
            # A forged From: the answer goes to the address written in it, never to the forger.
            mallory = service.person("mallory@evil.test")
            forged = (f"From: {alice.address}\r\nReply-To: mallory@evil.test\r\nTo: gm@pbem.test\r\n"
                      f"Subject: data\r\nMessage-ID: <forged-mydata@evil.test>\r\n\r\nMYDATA\r\n").encode()
            await send_raw(service, forged, mail_from="mallory@evil.test")
            assert "What pbem holds about" in (await alice.last()).body
            await prove_quiet(service, mallory)

    asyncio.run(scenario())


def test_forget_confirmed_by_its_code_leaves_the_games_and_erases_every_trace(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game, alice = await game_with_a_known_player(service)
            await alice.send("FORGET\n", subject="forget me")
            asked = (await alice.last()).body
            code = re.search(r"^FORGET (\w+)\s*$", asked, re.MULTILINE)
            assert code is not None, asked
            await alice.send("FORGET zzzzzzzzzzzz\n", subject="forget me")
            assert "REFUSED: FORGET: that is not the code sent to this address" in (await alice.last()).body
            await alice.send(f"FORGET {code.group(1)}\n", subject="forget me", in_reply_to=None)
            done = (await alice.last()).body
            assert "FORGET: done" in done and f"seat A of {game.name} (resigned)" in done
            told = await game.gm.last(timeout=30)
            assert f"Seat A of {game.name} left the game: its player asked to be forgotten" in told.body
            assert alice.address not in told.body
            confirming = inbound_row(service, _last_message_id(service))
            with service.runner.unit(lock=False) as unit:
                traces = privacy.traces_of(unit, alice.address)
                assert not privacy.data_of(unit, alice.address).seats
            # Only the answer that confirms it names the address, until it is sent and purged.
            assert {table for table, _ in traces} <= {"outbound_message"}, traces
            assert len(traces) == 1
            with service.runner.unit(lock=False) as unit:
                assert privacy.traces_of(unit, "alicia") == []  # the registered name is gone too
            assert confirming.sender.startswith("forgotten-")
        replay = subprocess.run([*PBEM, "replay", game.name, "--db", service.db_url], capture_output=True,
                                text=True, timeout=120)
        assert replay.returncode == 0, replay.stderr

    asyncio.run(scenario())


def test_the_operator_forgets_an_address_from_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    seats = [arg for seat, who in zip("ABCD", ("ann", "ben", "cat", "dan")) for arg in ("--seat", f"{seat}={who}@p.test")]
    subprocess.run([*PBEM, "new", "turkey-chase", "tc-1", *seats, "--db", db], check=True, capture_output=True)
    shown = subprocess.run([*PBEM, "mydata", "Ann@p.test", "--db", db, "--json"], check=True, capture_output=True,
                           text=True).stdout
    assert '"game tc-1 (turkey-chase, active), seat A (active)"' in shown
    forgotten = subprocess.run([*PBEM, "forget", "ann@p.test", "--db", db], check=True, capture_output=True,
                               text=True).stdout
    assert "ann@p.test is forgotten: it is forgotten-" in forgotten
    assert "seat A of tc-1 resigned: tell its GM" in forgotten
    log = subprocess.run([*PBEM, "log", "tc-1", "--db", db], check=True, capture_output=True, text=True).stdout
    assert "ann@p.test" not in log and "RESIGN" in log
    after = json.loads(subprocess.run([*PBEM, "mydata", "ann@p.test", "--db", db, "--json"], check=True,
                                      capture_output=True, text=True).stdout)
    assert after["Seats"] == [] and after["Permission to write to you"] == []
    connection = sqlite3.connect(db)
    try:
        assert not any("ann@p.test" in line.lower() for line in connection.iterdump())
    finally:
        connection.close()


def _last_message_id(service: object) -> str:
    from mail_games import inbound_rows

    return inbound_rows(service)[-1].message_id  # type: ignore[arg-type]
