"""One whole Great Regatta played by mail, with a ROLL UNTIL plan sent in one mail and carried out
over several rolls.

Real IMAP and SMTP servers on 127.0.0.1, the real daemon, and robot players who read their mailboxes
over IMAP. The GM creates the game by mail, two players join, the GM starts it. Each seat that owes
a decision answers the mail that asks for it: the first turn of seat 1 is ``NEW`` with ``ROLL UNTIL 12``
in one mail; seat 2's first turn leaves the push decision open, so the service asks and seat 2 answers
``ROLL`` and then decides again; every other decision is a robot's. The test waits only for the
mails that ask a seat for orders (the other players may get each step or a digest), then checks the
plan's resolution, that every seat's mail tells the plan's rolls, the final report and the replay.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from mail_harness import GM_ADDRESS, MailHarness, running_service

from pbem.core import GameRng
from pbem.games import find_game
from pbem.games.great_regatta.orders import Roll, RollUntil, Stop
from pbem.sandbox.mailclient import ReceivedMail, read_mail
from pbem.sandbox.robots import RobotGm, RobotPlayer, subject_is

NAME = "regatta"
SEED = 3
MAX_DECISIONS = 80
GAME_SECONDS = 120.0
PLAN = "NEW\nROLL UNTIL 12\n"


def _decision(service: MailHarness, robots: GameRng, seat: str, decided: dict[str, int]) -> str:
    """The orders ``seat`` sends now: the scripted first turns, else a robot's choice."""
    game = find_game("great-regatta")
    info = service.runner.info(NAME)
    assert info.phase is not None
    turns = decided.setdefault(seat, 0)
    decided[seat] += 1
    if info.phase.name == "start" and seat == "1" and turns == 0:
        return PLAN
    if info.phase.name == "start" and seat == "2" and turns == 0:
        return "NEW\n"
    if info.phase.name == "push" and seat == "2" and turns == 1:
        return "ROLL\n"
    orders: list[Any] = game.sample_orders(info.state, seat, robots)
    if info.phase.name == "start" and len(orders) == 1:
        orders.append(Stop())  # keep the game short: decide with the first mail
    if info.phase.name == "push" and isinstance(orders[0], Roll):
        orders = [RollUntil(18)] if (info.state.moving or 0) < 18 and not info.state.passed_start else [Stop()]
    return "\n".join(str(order) for order in orders) + "\n"


def test_a_whole_regatta_with_a_roll_until_plan_is_played_by_mail(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service, AsyncExitStack() as stack:
            servers = service.servers
            gm = await stack.enter_async_context(RobotGm.on(servers, "gm@example.org", gm_address=GM_ADDRESS))
            await gm.create("great-regatta", NAME, f"players=2 seed={SEED}")
            players: dict[str, RobotPlayer] = {}
            for address in ("ann@example.org", "bob@example.org"):
                robot = await stack.enter_async_context(RobotPlayer.on(servers, address, gm_address=GM_ADDRESS))
                await robot.join(NAME)
                players[robot.seat] = robot
            assert sorted(players) == ["1", "2"]
            started = await gm.command("START")
            assert f"Game {NAME} started" in started.body, started.body

            robots = GameRng(SEED + 1000)
            decided: dict[str, int] = {}
            plan_check: ReceivedMail | None = None
            for _ in range(MAX_DECISIONS):
                info = service.runner.info(NAME)
                if info.outcome is not None:
                    break
                assert info.phase is not None
                (seat,) = info.phase.seats
                asking = await players[seat].expect(subject_is(f"[{NAME}] Turn {info.row.turn}"))
                assert f"report for seat {seat}" in asking.body and "Your orders are due" in asking.body
                text = _decision(service, robots, seat, decided)
                check = await players[seat].send_orders(asking, text)
                assert f"{len(text.splitlines())} line(s) accepted, 0 refused." in check.body, check.body
                if text == PLAN:
                    plan_check = check
                    assert "The service will keep rolling until your boat stands on 12 or beyond" in check.body
                    assert "push decision" not in check.body
                await _resolved_after(service, info.row.turn)
            final = service.runner.info(NAME)
            assert final.outcome is not None, f"the regatta did not end in {MAX_DECISIONS} decisions"
            assert plan_check is not None

            plan_turn = next(r for r in service.runner.history(NAME) if r.orders.get("1") == ["NEW", "ROLL UNTIL 12"])
            kinds = [event["kind"] for event in plan_turn.events]
            assert kinds.count("plan") == 1 and kinds.index("plan") < len(kinds) - 1
            rolls_after_plan = [k for k in kinds[kinds.index("plan"):] if k in ("roll", "lost")]
            assert len(rolls_after_plan) >= 2, f"the plan was carried out over one roll only: {kinds}"
            assert plan_turn.reason == "all-in", "one mail was the whole turn"
            push_asked = [r for r in service.runner.history(NAME) if r.phase == "push" and r.orders.get("2") == ["ROLL"]]
            assert push_asked, "seat 2 was asked a push decision and answered it"

            plan_texts = [event["text"] for event in plan_turn.events]
            for seat, robot in players.items():
                closing = await robot.expect(subject_is(f"[{NAME}] Final report"))
                assert (f"Winner: {final.outcome.winners[0]}." if len(final.outcome.winners) == 1
                        else "Shared win:") in closing.body
                told = "\n".join(mail.body for mail in _all_received(robot)).replace("\r\n", "\n")
                for line in plan_texts:
                    assert line in told, f"seat {seat} was never told: {line}"
            assert service.runner.replay(NAME).is_identical

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))


def _all_received(robot: RobotPlayer) -> list[ReceivedMail]:
    """Every mail the robot received, in order, read or not."""
    return [read_mail(raw.replace(b"\r\n", b"\n")) for sender, _, raw in robot.transcript if sender != robot.address]


async def _resolved_after(service: MailHarness, turn: int) -> None:
    """Wait until the turn ``turn`` is resolved (every decision here is the whole phase's orders)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15.0
    while service.runner.info(NAME).row.turn <= turn:
        assert loop.time() < deadline, f"turn {turn} was not resolved"
        await asyncio.sleep(0.02)
