"""A whole Turkey Chase game played purely by email, from CREATE to the final report.

Real IMAP and SMTP servers on 127.0.0.1 (the harness), the real daemon on a
clock the test moves, and people who read their mailboxes over IMAP
(:class:`pbem.sandbox.robots.MailRobot`). Along the way: orders corrected after
the check, plain replies, SIGNON and CHECK, an NMR seat with its reminder and
deadline resolution, early resolution, EXTEND, REPLACE, STATUS, ORDERS and
PRESS; then robot orders play the game to its end.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from contextlib import AsyncExitStack
from datetime import timedelta
from pathlib import Path

from mail_harness import GM_ADDRESS, MailHarness, running_service

from pbem.clock import format_utc
from pbem.core import GameRng
from pbem.sandbox.demo import robot_orders
from pbem.sandbox.mailclient import ReceivedMail, read_mail
from pbem.sandbox.robots import MailMatch, RobotGm, RobotPlayer, answers, is_report, subject_is

GAME = "tc1"
ADDRESSES = ("ann@example.org", "bert@example.org", "cleo@example.org", "dirk@example.org")
NEWCOMER = "emma@example.org"
MAX_TURNS = 60


def _body_has(text: str) -> MailMatch:
    return lambda mail: text in mail.body


async def _mailbox(service: MailHarness, address: str) -> list[ReceivedMail]:
    return [read_mail(stored.raw) for stored in await service.servers.inbox(address)]


async def _reports(players: Iterable[RobotPlayer], subject: str) -> dict[str, ReceivedMail]:
    return {player.seat: await player.expect(subject_is(subject)) for player in players}


async def _orders_from_all(players: Iterable[RobotPlayer], texts: dict[str, str],
                           reports: dict[str, ReceivedMail]) -> dict[str, ReceivedMail]:
    async def one(player: RobotPlayer) -> tuple[str, ReceivedMail]:
        return player.seat, await player.send_orders(reports[player.seat], texts[player.seat])

    return dict(await asyncio.gather(*(one(p) for p in players if p.seat in texts)))


def _lines(text: str) -> list[str]:
    return text.strip().splitlines()


def test_a_whole_turkey_chase_game_is_played_by_mail(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            runner, clock = service.runner, service.clock
            rng = GameRng(3)  # with these robot orders D's birds stand on corn in turn 2: its NMR default feeds

            def robot(seat: str) -> str:
                return robot_orders(runner, GAME, seat, rng)

            servers = service.servers
            gm = RobotGm.on(servers, "boss@example.org", gm_address=GM_ADDRESS, clock=clock)
            people = [RobotPlayer.on(servers, address, gm_address=GM_ADDRESS, clock=clock) for address in ADDRESSES]
            newcomer = RobotPlayer.on(servers, NEWCOMER, gm_address=GM_ADDRESS, clock=clock)
            async with AsyncExitStack() as stack:
                for someone in (gm, *people, newcomer):
                    await service.servers.add_user(someone.address)
                    await stack.enter_async_context(someone)
                # --- CREATE, JOIN, START --------------------------------------------------
                created = await gm.create("turkey-chase", GAME, "seed=11 nmr=feed")
                assert created.auto_submitted == "auto-replied" and created.subject == f"[{GAME}] Re: New game {GAME}"
                assert created.in_reply_to == read_mail(gm.transcript[0][2]).message_id
                for person, seat in zip(people, "ABCD", strict=True):
                    joined = await person.join(GAME)
                    assert person.seat == seat and "The game starts when the GM sends START" in joined.body
                    assert joined.reply_to and joined.reply_to.startswith(f"gm+{GAME}.{seat.lower()}.")
                players = {p.seat: p for p in people}
                await gm.expect(_body_has("every seat is taken. Send START to begin."))
                assert runner.state_json(GAME)["status"] == "forming"
                started = await gm.command("START")
                assert f"Game {GAME} started" in started.body
                public = await gm.expect(subject_is(f"[{GAME}] Turn 1"))
                assert "public report" in public.body and public.reply_to is None
                reports = await _reports(people, f"[{GAME}] Turn 1")
                for seat, report in reports.items():
                    assert f"report for seat {seat}" in report.body and "Your orders are due by" in report.body
                    assert report.auto_submitted == "auto-generated"
                    assert report.in_reply_to == f"<game.{GAME}.thread@pbem.test>"
                    assert report.reply_to and report.reply_to.startswith(f"gm+{GAME}.{seat.lower()}.k")
                assert runner.state_json(GAME)["turn"] == 1

                # --- turn 1: a correction after the check, SIGNON + CHECK, early resolution --
                a_orders = robot("A")
                checks = await players["A"].send_orders_with_mistake(reports["A"], a_orders, "FEED Z9")
                assert len(checks) == 2
                first, fixed = checks
                bad = len(_lines(a_orders)) + 1
                assert f"REFUSED (line {bad}, column 6): expected a square such as F6" in first.body
                assert f"\n{bad:>3}  FEED Z9\n" + " " * 10 + "^\n" in first.body
                assert "Your orders v1" in first.body and first.auto_submitted == "auto-replied"
                assert first.reply_to == reports["A"].reply_to
                assert "Your orders v2" in fixed.body and "These orders replace your previous ones." in fixed.body
                assert "REFUSED" not in fixed.body and fixed.subject == f"Re: [{GAME}] Turn 1"
                stored = runner.current_orders(GAME, "A")
                assert stored is not None and stored.version == 2 and stored.orders == _lines(a_orders)

                b_orders = robot("B")
                b = players["B"]
                sent = await b.send(f"SIGNON {GAME} B {b.password}\nCHECK\n{b_orders}")
                checked = await b.expect(answers(sent))
                assert checked.body.startswith("CHECK only, nothing stored") and "ok" in checked.body
                assert checked.in_reply_to == sent["Message-ID"]
                assert runner.current_orders(GAME, "B") is None
                sent = await b.send(f"SIGNON {GAME} B {b.password}\n{b_orders}SIGNOFF\n")
                signed = await b.expect(answers(sent))
                assert "Your orders v1" in signed.body and "replace" not in signed.body
                assert signed.reply_to == reports["B"].reply_to  # from now on a plain reply will do

                moment = clock.now
                answered = await _orders_from_all([players["C"], players["D"]], {"C": robot("C"), "D": robot("D")},
                                                  reports)
                assert all("Your orders v1" in check.body for check in answered.values())
                reports = await _reports(people, f"[{GAME}] Turn 2")
                assert clock.now == moment
                record = runner.history(GAME)[0]
                assert record.reason == "all-in" and record.nmr == []
                assert record.orders["A"] == _lines(a_orders) and record.orders["B"] == _lines(b_orders)
                assert runner.state_json(GAME)["turn"] == 2
                await gm.expect(subject_is(f"[{GAME}] Turn 2"))

                # --- turn 2: D sends nothing: a reminder, then the deadline with NMR defaults --
                await _orders_from_all(people, {seat: robot(seat) for seat in "ABC"}, reports)
                before = runner.info(GAME)
                deadline = before.row.deadline
                assert deadline is not None
                defaults = [str(order) for order in before.rules.default_orders(before.state, "D")]
                assert defaults, "with nmr=feed the NMR default of D feeds its birds"
                # The daemon ticks right after storing each submission: no resolution without D.
                assert runner.state_json(GAME)["turn"] == 2 and runner.missing_seats(GAME) == ["D"]
                clock.now = deadline - timedelta(hours=before.row.reminder_hours) + timedelta(minutes=1)
                reminder = await players["D"].expect(subject_is(f"[{GAME}] Reminder: turn 2 orders due"))
                assert "has no orders from seat D for turn 2" in reminder.body
                assert reminder.reply_to and reminder.reply_to.startswith(f"gm+{GAME}.d.")
                # Reminders of a turn are queued together, in seat order, and sent in queue order.
                for seat in "ABC":
                    mails = await _mailbox(service, players[seat].address)
                    assert not [m for m in mails if "Reminder" in m.subject], f"seat {seat} has orders in"
                assert runner.state_json(GAME)["turn"] == 2  # the tick that reminded did not resolve
                clock.now = deadline + timedelta(minutes=1)
                reports = await _reports(people, f"[{GAME}] Turn 3")
                record = runner.history(GAME)[1]
                assert record.reason == "deadline" and record.nmr == ["D"] and record.orders["D"] == defaults
                for seat, report in reports.items():
                    assert f"report for seat {seat}" in report.body
                    assert "No orders received (NMR) from: D." in report.body
                public = await gm.expect(subject_is(f"[{GAME}] Turn 3"))
                assert "public report" in public.body and "No orders received (NMR) from: D." in public.body

                # --- turn 3: EXTEND, REPLACE, STATUS, ORDERS, PRESS ---------------------------
                old_deadline = runner.info(GAME).row.deadline
                assert old_deadline is not None
                new_deadline = old_deadline + timedelta(days=1)
                extended = await gm.command("EXTEND 1d")
                assert f"Deadline extended to {format_utc(new_deadline)}." in extended.body
                for player in people:
                    notice = await player.expect(subject_is(f"[{GAME}] Notice"))
                    assert f"extended the deadline of turn 3 to {format_utc(new_deadline)}" in notice.body
                assert runner.state_json(GAME)["deadline"] == new_deadline.isoformat()
                clock.now = old_deadline + timedelta(minutes=1)
                # D has been silent for a day since the turn-2 deadline: a tick past the old
                # deadline tells the GM (it would have resolved the turn instead, had it been due).
                absent = await gm.expect(_body_has("Consider REPLACE <seat> <address>."))
                assert absent.subject == f"[{GAME}] GM notice" and f"D ({ADDRESSES[3]})" in absent.body
                assert runner.state_json(GAME)["turn"] == 3 and len(runner.history(GAME)) == 2

                replaced = await gm.command(f"REPLACE D {NEWCOMER}")
                assert f"Seat D of {GAME} now belongs to {NEWCOMER}" in replaced.body
                invitation = await newcomer.expect(subject_is(f"[{GAME}] You are invited to seat D"))
                welcome = await newcomer.expect(answers(await newcomer.reply(invitation, "Gladly.\n")))
                assert "You accepted seat D" in welcome.body, welcome.body
                password = re.search(r"your password is ([a-z0-9]+)", welcome.body)
                assert password is not None and welcome.reply_to and welcome.reply_to != reports["D"].reply_to
                newcomer.game, newcomer.seat, newcomer.password = GAME, "D", password.group(1)
                board = await newcomer.expect(subject_is(f"[{GAME}] Turn 3"))  # the seat's newest report
                assert "report for seat D" in board.body and "Your orders are due" in board.body
                await players["D"].expect(subject_is(f"[{GAME}] Seat replaced"))
                d_orders = robot("D")
                refused = await players["D"].send_orders(reports["D"], d_orders)
                assert "REFUSED" in refused.body and "from before the seat changed hands" in refused.body
                assert runner.current_orders(GAME, "D") is None
                taken = await newcomer.send_orders(welcome, d_orders)
                assert "Your orders v1" in taken.body and "seat D, turn 3" in taken.body
                stored = runner.current_orders(GAME, "D")
                assert stored is not None and stored.orders == _lines(d_orders)
                sent = await newcomer.send(f"SIGNON {GAME} D {newcomer.password}\nORDERS\n")
                assert "Your orders v1 for turn 3" in (await newcomer.expect(answers(sent))).body

                sent = await players["A"].send(f"STATUS {GAME}\n")
                status = await players["A"].expect(answers(sent))
                assert f"Game {GAME} (Turkey Chase), active, turn 3." in status.body
                assert "Waiting for orders from: A, B, C." in status.body
                assert f"Deadline: {format_utc(new_deadline)}." in status.body

                a_orders = robot("A")
                await players["A"].send_orders(reports["A"], a_orders)
                shown = await players["A"].send_orders(reports["A"], "ORDERS\n")
                assert f"Your orders v1 for turn 3 of {GAME}:\n{a_orders.strip()}\n" in shown.body
                assert runner.current_orders(GAME, "A").version == 1  # type: ignore[union-attr]

                relayed = await players["C"].send_orders(
                    reports["C"], "PRESS A B\nShall we leave F6 alone?\nENDPRESS\n")
                assert "Press relayed to A, B." in relayed.body
                for seat in "AB":
                    press = await players[seat].expect(subject_is(f"[{GAME}] Press from C"))
                    assert "Shall we leave F6 alone?" in press.body
                copy = await gm.expect(subject_is(f"[{GAME}] Press from C (copy)"))
                assert "Press from C to A, B" in copy.body
                assert runner.current_orders(GAME, "C") is None  # press is not orders

                seats = {"A": players["A"], "B": players["B"], "C": players["C"], "D": newcomer}
                await _orders_from_all(seats.values(), {"B": robot("B"), "C": robot("C")}, reports)
                reports = await _reports(seats.values(), f"[{GAME}] Turn 4")
                record = runner.history(GAME)[2]
                assert record.reason == "all-in" and record.orders["D"] == _lines(d_orders)
                await gm.expect(subject_is(f"[{GAME}] Turn 4"))

                # --- robots play to the end -----------------------------------------------
                for _ in range(MAX_TURNS):
                    if all(r.subject == f"[{GAME}] Final report" for r in reports.values()):
                        break
                    turn = runner.info(GAME).row.turn
                    clock.advance(hours=1)
                    texts = {seat: robot(seat) for seat in seats}
                    answered = await _orders_from_all(seats.values(), {s: t for s, t in texts.items() if t.strip()},
                                                      reports)
                    for check in answered.values():
                        assert "Your orders v1" in check.body and "REFUSED" not in check.body, check.body
                    await service.daemon.caught_up()  # a check reply can come just before the resolution
                    if runner.info(GAME).row.turn == turn:  # a robot had nothing to order
                        deadline = runner.info(GAME).row.deadline
                        assert deadline is not None
                        clock.now = deadline + timedelta(minutes=1)
                    reports = {seat: await player.expect(is_report(GAME)) for seat, player in seats.items()}
                    assert all(r.subject in (f"[{GAME}] Turn {turn + 1}", f"[{GAME}] Final report")
                               for r in reports.values())
                    public = await gm.expect(is_report(GAME))
                else:
                    raise AssertionError(f"the game did not end within {MAX_TURNS} turns")

                # --- the end ----------------------------------------------------------------
                state = runner.state_json(GAME)
                assert state["status"] == "finished" and state["winners"]
                winners = state["winners"]
                named = f"Winner: {winners[0]}." if len(winners) == 1 else f"Shared win: {', '.join(winners)}."
                for seat, report in reports.items():
                    assert "The game is over." in report.body and named in report.body
                    assert f"report for seat {seat}" in report.body
                assert public.subject == f"[{GAME}] Final report" and named in public.body
                assert "public report" in public.body
                late = await players["B"].send_orders(reports["B"], "FEED F6\n")
                assert f"REFUSED: game {GAME} is finished" in late.body
                gone = [m.subject for m in await _mailbox(service, players["D"].address)]
                assert f"[{GAME}] Turn 4" not in gone and f"[{GAME}] Final report" not in gone
                assert len(runner.history(GAME)) == state["turn"]  # a finished game is at its last turn played

    asyncio.run(scenario())
