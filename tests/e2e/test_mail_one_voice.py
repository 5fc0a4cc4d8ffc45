"""Every mail speaks with one voice, and help comes where a player is.

Written from the mailboxes: a reply never speaks of orders or versions the reader did not send and
never says two things about one fact; the GM is not told of their own action in a notice; orders sent
to the wrong place get the hint of where they go, and a mistyped name the nearest ones; a reminder is
never in the hour of the report that opened the turn; END ranks by the game's own rules; a declined
invitation frees the seat; a seat's new holder gets the board.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mail_games import accept_invitations, eventually, has_written, open_game, prove_quiet
from mail_harness import MailHarness, Person, running_service

from pbem.core import GameRng
from pbem.core.rng import CURRENT_VERSION, derive_seed
from pbem.games import find_game
from pbem.games.race_on_the_river.rules import Bid
from pbem.sandbox.mailclient import ReceivedMail


@dataclass
class Race:
    """A started two-seat Race on the River: its GM and GM password, its players, their turn-1 reports and
    the passwords of seats 1 and 2."""

    gm: Person
    password: str
    one: Person
    two: Person
    reports: list[ReceivedMail]
    seat_passwords: list[str]


async def race(service: MailHarness, name: str, seed: int, options: str = "") -> Race:
    """A GM and two players who wrote to pbem before; a two-seat Race on the River started by mail with
    ``options``."""
    gm, one, two = (service.person(a) for a in ("boss@players.test", "one@players.test", "two@players.test"))
    for person in (gm, one, two):
        await has_written(person)
    await gm.send(f"CREATE race-on-the-river {name} players=2 seed={seed} {options}\n"
                  f"SEAT 1 {one.address}\nSEAT 2 {two.address}\nSTART\n")
    created = (await gm.last()).body
    assert f"Game {name} started" in created
    password = created.split("Your GM password is ")[1].split(":")[0]
    reports, seat_passwords = [], []
    for player in (one, two):
        notice, report = await player.receive(2)
        assert notice.subject == f"[{name}] Your seat" and report.subject == f"[{name}] Turn 1", report.subject
        reports.append(report)
        seat_passwords.append(notice.body.split("Your password is ")[1].split(";")[0])
    await gm.last()  # the public report
    return Race(gm, password, one, two, reports, seat_passwords)


def test_ready_speaks_of_the_orders_sent_and_a_short_turn_is_reminded_after_its_first_hour(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await race(service, "rr1", 3, "turn_hours=8")
            one, two, reports = game.one, game.two, game.reports

            service.clock.advance(minutes=59)  # reminder_hours=12 > turn_hours=8: no reminder yet
            await prove_quiet(service, one, two)

            await one.send(f"SIGNON rr1 1 {game.seat_passwords[0]}\nBID 5\nREADY\n")
            answer = (await one.last()).body
            assert "Your orders v1, received" in answer
            assert "READY: your orders v1 for turn 1 of rr1 are final; the turn does not wait for you." in answer
            assert "v2" not in answer and "no orders" not in answer

            service.clock.advance(hours=3, minutes=2)  # halfway through the 8 hours: the reminder
            reminder = await two.last()
            assert reminder.subject == "[rr1] Reminder: turn 1 orders due"

            await two.reply(reports[1], "READY\n")
            answer = (await two.last()).body
            assert "READY: you sent no orders for turn 1 of rr1, so you hold this turn" in answer
            assert "orders v1" not in answer and " are final" not in answer
            await eventually(lambda: service.runner.info("rr1").row.turn == 2)

    asyncio.run(scenario())


def _seed_where(bids: tuple[tuple[int, int], ...], holds: Callable[[Any], bool]) -> int:
    """The first seed of a two-seat Race on the River (as ``CREATE ... seed=<seed>`` seeds it) whose state,
    after the rounds of ``bids`` (seat 1's, seat 2's), ``holds``."""
    rules = find_game("race-on-the-river")
    for seed in range(1, 100):
        rng = GameRng(derive_seed(str(seed)), version=CURRENT_VERSION)
        state = rules.setup(["1", "2"], {}, rng)
        for one, two in bids:
            state = rules.resolve(state, {"1": [Bid(one)], "2": [Bid(two)]}, rng).state
        if not state.is_over and holds(state):
            return seed
    raise AssertionError("no seed of the first 99 fits")


def test_a_seat_whose_only_play_the_service_makes_is_told_so_not_of_orders_it_never_sent(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await race(service, "rr4", _seed_where(((9, 0),), lambda state: state.hands[0] == 0))
            for player, bid in ((game.one, 9), (game.two, 0)):
                await player.reply(game.reports[int(player is game.two)], f"BID {bid}\n")
                await player.last()
            await eventually(lambda: service.runner.info("rr4").row.turn == 2)
            report = await game.one.last()
            assert "You have no cube to bid: BID 0 is sent for you." in report.body
            await game.one.reply(report, "BID 2\n")
            answer = (await game.one.last()).body
            assert "Nothing was stored: you owe no orders now; the service plays your only play for you: BID 0." \
                in answer.replace("\r\n", " "), answer
            assert "Your orders v1" not in answer and "stand" not in answer

    asyncio.run(scenario())


def test_the_join_reply_and_the_notices_agree_on_what_a_plain_reply_does(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm, player = service.person("boss@players.test"), service.person("zoe@players.test")
            await gm.send("CREATE turkey-chase tc-9 seed=3\n")
            await gm.last()
            await player.send("JOIN tc-9\n")
            joined = (await player.last()).body
            assert "a plain reply to any mail" not in joined
            assert ("a plain reply to your turn report or a reminder from this game signs you on (a plain reply to "
                    "a notice or a press mail goes as press, never as orders)") in joined.replace("\r\n", " ")

    asyncio.run(scenario())


def test_the_gm_is_answered_once_and_a_paused_game_shows_no_deadline(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            await game.gm.send(f"GM tc-1 {game.gm_password}\nEXTEND 1d\nPAUSE\n")
            answer = await game.gm.last()
            assert "Deadline extended to" in answer.body and "Game tc-1 paused." in answer.body
            for player in game.players.values():
                notices = await player.receive(2)
                assert [n.subject for n in notices] == ["[tc-1] Notice"] * 2
            await prove_quiet(service, game.gm)  # no "GM notice" of the GM's own EXTEND and PAUSE

    asyncio.run(scenario())


def test_orders_and_mistyped_names_at_the_gm_address_get_the_way_there(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm, one, two = (service.person(a) for a in ("boss@players.test", "one@players.test", "two@players.test"))
            for person in (gm, one, two):
                await has_written(person)
            await gm.send("CREATE harvestday hd1\n")
            assert "no game kind 'harvestday'; did you mean harvest-day?" in (await gm.last()).body
            await gm.send("HELP FOO\nHELP harvestday\n")
            helped = (await gm.last()).body.replace("\r\n", " ")
            assert "HELP foo: no such help topic. The topics: HELP (the commands), HELP GAMES, HELP PRESS" in helped
            assert "HELP harvestday: no such help topic; did you mean harvest-day?" in helped
            await gm.send(f"CREATE harvest-day hd1 seed=3\nSEAT 1 {one.address}\nSEAT 2 {two.address}\nSTART\n")
            assert "Game hd1 started" in (await gm.last()).body
            await one.receive(2)
            await one.send("JOIN hd-1\n")
            assert "no game named 'hd-1'; did you mean hd1?" in (await one.last()).body
            for line in ("REVEAL 3", "MOVE 1-0"):  # REVEAL is also a GM command
                await one.send(f"{line}\n", subject="Re: [hd1] Turn 1")
                refused = (await one.last()).body.replace("\r\n", " ")
                assert f'"{line.split()[0]}" starts an order of game hd1, not a command here: reply to your ' \
                       "newest report from game hd1 (REPORT hd1 has it mailed to you again)" in refused, refused
                assert "expected nothing more" not in refused and "game master command" not in refused
            assert service.runner.current_orders("hd1", "1") is None

    asyncio.run(scenario())


def test_end_ranks_by_the_games_own_tie_break(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            # seat 1 bids 2, seat 2 nothing; then seat 2 bids 1, seat 1 nothing: both jockeys end on one space,
            # a tie the last round's bids break (seat 2 bid more)
            seed = _seed_where(((2, 0), (0, 1)), lambda state: state.positions[0] == state.positions[1])
            game = await race(service, "rr2", seed)
            gm, one, two, reports = game.gm, game.one, game.two, game.reports
            for turn, bids in ((1, (2, 0)), (2, (0, 1))):
                for player, report, bid in zip((one, two), reports, bids, strict=True):
                    await player.reply(report, f"BID {bid}\n")
                    assert "Your orders v1" in (await player.last()).body
                await eventually(lambda turn=turn: service.runner.info("rr2").row.turn == turn + 1)
                reports = [await one.last(), await two.last()]
                await gm.last()
            positions = service.runner.info("rr2").state.positions
            assert positions[0] == positions[1], positions
            await gm.send(f"GM rr2 {game.password}\nEND\n")
            answer, public = await gm.receive(2)
            assert "Game rr2 ended; the final report went to every seat." in answer.body
            for final in (public, await one.last(), await two.last()):
                text = final.body.replace("\r\n", "\n")
                assert final.subject == "[rr2] Final report"
                assert "The game is over. Winner: 2.\n" in text, text
                assert "tie broken by the highest bid of the last round" in text and "Shared" not in text
                assert "The GM ended the game after turn 2; no turn was played since your last report." in text
                assert "Turn 2 results" not in text and "Bids revealed" not in text and "Draws" not in text
                assert "Send BID" not in text and "due by" not in text
            await prove_quiet(service, gm, one, two)

    asyncio.run(scenario())


def test_declining_an_invitation_frees_the_seat_and_the_gm_is_told_it_is_open(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm, third, fourth = (service.person(a) for a in ("boss@players.test", "third@players.test",
                                                             "fourth@players.test"))
            stopper, decliner = service.person("stopper@outside.test"), service.person("decliner@outside.test")
            shy, fifth = service.person("shy@outside.test"), service.person("fifth@players.test")
            for person in (gm, third, fourth, fifth):
                await has_written(person)
            await gm.send(f"CREATE race-on-the-river rr3 players=3\nSEAT 1 {stopper.address}\n"
                          f"SEAT 2 {decliner.address}\nSEAT 3 {shy.address}\n")
            created = (await gm.last()).body
            password = created.split("Your GM password is ")[1].split(":")[0]

            await stopper.reply(await stopper.last(), "STOP\n")  # STOP on the invitation
            assert "STOP: pbem sends stopper@outside.test no more mail" in (await stopper.last()).body
            told = (await gm.last()).body.replace("\r\n", " ")
            assert ("stopper@outside.test, who held seat 1 of rr3, sent STOP: the seat is open again. SEAT 1 "
                    "<address> gives it to another player") in told, told
            assert "NMR" not in told and "silent" not in told

            await decliner.last()  # the invitation
            await decliner.send("DECLINE rr3\n")
            declined = (await decliner.last()).body
            assert "DECLINE: you left seat 2 of game rr3; it is open again, and the GM was told." in declined
            assert "You accepted" not in declined
            told = (await gm.last()).body.replace("\r\n", " ")
            assert "decliner@outside.test, who held seat 2 of rr3, declined the invitation: the seat is open again" \
                in told, told

            await shy.reply(await shy.last(), "DECLINE\n\nSorry, no time this month.\n")  # a reply to the invitation
            assert "DECLINE: you left seat 3 of game rr3; it is open again" in (await shy.last()).body
            assert "shy@outside.test, who held seat 3 of rr3, declined the invitation" in (await gm.last()).body

            await gm.send(f"GM rr3 {password}\nSEAT 1 {third.address}\nSEAT 2 {fourth.address}\n"
                          f"SEAT 3 {fifth.address}\nSTART\n")
            answer, _public_report = (mail.body for mail in await gm.receive(2))
            assert "Seat 1 of rr3 is assigned to third@players.test" in answer
            assert "Seat 2 of rr3 is assigned to fourth@players.test" in answer and "Game rr3 started" in answer
            await gm.send("HELP\n")
            assert "DECLINE <game>" in (await gm.last()).body

    asyncio.run(scenario())


def test_a_seats_new_holder_gets_the_newest_report_with_the_board(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            newcomer = service.person("newcomer@players.test")
            await has_written(newcomer)
            await game.gm.send(f"GM tc-1 {game.gm_password}\nREPLACE A {newcomer.address}\n")
            assert "Seat A of tc-1 now belongs to newcomer@players.test" in (await game.gm.last()).body
            welcome, report = await newcomer.receive(2)
            assert welcome.subject == "[tc-1] You take over a seat" and "STATUS" not in welcome.body
            assert "Your seat's newest turn report, with the board, comes in a mail of its own." in \
                welcome.body.replace("\r\n", " ")
            assert report.subject == "[tc-1] Turn 1" and "report for seat A" in report.body
            assert report.html is not None and 'src="cid:board.tc-1.1@' in report.html
            await newcomer.reply(report, "FEED F1\n")
            assert "Your orders v1" in (await newcomer.last()).body

    asyncio.run(scenario())
