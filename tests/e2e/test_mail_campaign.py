"""A campaign by real mail: one player announces an absence (the deadline moves, the others are told,
the GM sees it in STATUS), one misses two deadlines and is replaced from the standby list (ACCEPT,
the GM's REPLACE; the old reply address stops working), the GM previews a turn (nothing changes,
the real resolution draws the same dice) and rolls one back (with the code mailed to the GM), and an
observer follows; pbem replay matches at the end and pbem log lists every step."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from databases import database_url, dump
from mail_games import OPENING_ORDERS, eventually, open_game
from mail_harness import running_service
from mail_secrets import DRAWS, mailbox, newest_report

from pbem.cli import main
from pbem.ops.figures import LAST_SEEN_KEY

KEPT_APART = ("outbound_message", "inbound_message", "audit_entry", "alembic_version")


def game_tables(db: str) -> dict[str, list[str]]:
    """The database's rows but the mail's and the daemon's heartbeat (``last_seen``, written every few seconds
    whatever the games do)."""
    tables = dump(db, skip=KEPT_APART)
    tables["setting"] = [row for row in tables.get("setting", []) if f"'{LAST_SEEN_KEY}'" not in row]
    return tables


def test_a_campaign_by_mail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_url(tmp_path)

    async def scenario() -> None:
        async with running_service(tmp_path, db_url=db) as service:
            runner, clock = service.runner, service.clock
            game = await open_game(service)
            gm, players, pw = game.gm, game.players, game.gm_password
            gm_mail = f"GM tc-1 {pw}\n"
            fan, sub = service.person("fan@outside.test"), service.person("sub@outside.test")
            await fan.send("OBSERVE tc-1\n")
            assert "You observe" in (await fan.last()).body
            await sub.send("STANDBY turkey-chase\n")
            assert "standby list of turkey-chase" in (await sub.last()).body

            # Turn 1: A announces an absence covering the deadline; D stays silent
            deadline = runner.info("tc-1").row.deadline
            day = deadline.date()
            await players["A"].reply(game.reports["A"], f"ABSENT {day} {day}\n")
            assert "ABSENT: seat A of tc-1 is away" in (await players["A"].last()).body
            moved = runner.info("tc-1").row.deadline
            assert moved > deadline
            told = (await players["B"].last()).body
            assert "moves to" in told and "a player announced an absence" in told and "seat A" not in told
            await gm.send(gm_mail + "STATUS\n")
            status = [m for m in await gm.receive(3) if "Absences:" in m.body][0].body
            assert "A away" in status
            await players["B"].reply(game.reports["B"], OPENING_ORDERS["B"])
            await players["C"].reply(game.reports["C"], "READY\n")
            clock.now = moved
            await newest_report(service, players["D"], "tc-1", 2)
            await newest_report(service, fan, "tc-1", 2)
            for seat in "ABC":  # only D stays silent
                await players[seat].reply(await newest_report(service, players[seat], "tc-1", 2), "READY\n")
            await eventually(lambda: runner.missing_seats("tc-1") == ["D"])
            # Turn 2: D misses a second deadline: the seat goes to the standby
            clock.now = runner.info("tc-1").row.deadline
            await eventually(lambda: runner.info("tc-1").row.turn == 3)
            offer = (await sub.receive(1))[0]
            assert "Seat D is offered to you" in offer.subject and "public report" in offer.body
            old_report = await newest_report(service, players["D"], "tc-1", 3)
            await sub.reply(offer, "ACCEPT\n")
            assert "accepted seat D of game tc-1" in (await sub.last()).body
            await gm.send(gm_mail + "REPLACE D sub@outside.test\n")
            await eventually(lambda: runner.info("tc-1").seats[3].address == "sub@outside.test")
            welcome = [m for m in await sub.receive(1)][0]
            assert "Your password is" in welcome.body
            while "gave your seat D of game tc-1" not in (await players["D"].last()).body:
                pass  # the old holder is told; reports mailed before the REPLACE come first
            await players["D"].reply(old_report, "FEED A1\n")
            assert "REFUSED" in (await players["D"].last()).body  # the old reply address is revoked

            # Turn 3: the GM previews: nothing changes; the real resolution draws the same dice
            before = game_tables(db)
            await gm.send(gm_mail + "PREVIEW\n")
            preview = await _wait_subject(service, gm, "[tc-1] Preview of turn 3")
            assert "===== seat A =====" in preview.body and "===== seat D =====" in preview.body
            assert game_tables(db) == before
            await gm.send(gm_mail + "PROCESS\n")
            await eventually(lambda: runner.info("tc-1").row.turn == 4)
            real = runner.history("tc-1")[-1]
            previewed = [w for line in DRAWS.findall(preview.body.replace("\r\n", "\n")) for w in line.split()]
            assert previewed == [f"{c}:{n}={r}" for c, n, r in real.draws]

            # The GM rolls turn 3 back with the code mailed to him
            await gm.send(gm_mail + "ROLLBACK 3\n")
            code_mail = await _wait_subject(service, gm, "[tc-1] Rollback to turn 3: confirmation code")
            code = code_mail.body.split("ROLLBACK 3 ")[1].split()[0]
            await gm.send(gm_mail + f"ROLLBACK 3 {code}\n")
            await eventually(lambda: runner.info("tc-1").row.turn == 3)
            told = await _wait_subject(service, players["B"], "[tc-1] Rolled back to turn 3")
            assert "Your orders for turn 3" not in told.body or "send them again" in told.body
            assert runner.current_orders("tc-1", "B") is None
            await gm.send(gm_mail + "PROCESS\n")
            await eventually(lambda: runner.info("tc-1").row.turn == 4)
            assert [list(d) for d in runner.history("tc-1")[-1].draws] == [list(d) for d in real.draws]
            await newest_report(service, fan, "tc-1", 4)

    asyncio.run(scenario())
    assert main(["replay", "tc-1", "--db", db]) == 0
    assert main(["log", "tc-1", "--db", db]) == 0
    log = capsys.readouterr().out
    for step in ("OBSERVE", "ABSENT", "EXTEND", "RESOLVE", "OFFER", "ACCEPT", "REPLACE", "PREVIEW", "ROLLBACK"):
        assert f"  {step}  " in log, step
    assert "moved from" in log and "rolled back from turn 4 to the start of turn 3" in log


async def _wait_subject(service, person, subject: str, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        found = [m for m in await mailbox(service, person) if m.subject == subject]
        if found:
            return found[-1]
        assert loop.time() < end, f"{person.address} got no {subject!r}"
        await asyncio.sleep(0.05)
