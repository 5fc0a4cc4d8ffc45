"""Players make the mistakes players make, and none of them loses a turn without knowing.

Written from the players' side: what each mailbox holds afterwards. In one
four-seat Turkey Chase game (resolve=early) one player makes a typo, one
answers a press mail with a plain reply, one sends 25 STATUS mails and then
orders, and one says READY early; every seat's turn is played as its player
meant it to be.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from mail_games import OPENING_ORDERS, eventually, open_game, prove_quiet
from mail_harness import running_service

from pbem.mail.running.serve import JsonLineFormatter


def test_no_seat_loses_a_turn_it_tried_to_play(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, bob, carol, dave = (game.players[s] for s in "ABCD")
            limit = service.daemon.handler.query_limiter.max_mails

            # Alice orders, then says READY: the turn does not wait for her any more.
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"] + "READY\n")
            answer = (await alice.last()).body
            assert "Your orders v1" in answer and "READY: your orders v1 for turn 1 of tc-1 are final" in answer
            assert "v2" not in answer, "READY names the orders Alice sent, not a version of its own"

            # Dave's typo is refused, nothing is stored, and he is told his turn still waits for him.
            await dave.reply(game.reports["D"], "FEDE K6\n")
            answer = (await dave.last()).body
            assert 'found "FEDE"; did you mean FEED?' in answer
            assert "No line was accepted, so nothing was stored: you have no orders for this turn yet" in answer
            assert service.runner.current_orders("tc-1", "D") is None

            # Carol writes press to Bob; Bob answers with a plain reply, which goes back to Carol as press.
            await carol.send(f"SIGNON tc-1 C {game.passwords['C']}\nPRESS B\nShall we share the river?\nENDPRESS\n")
            assert "Press relayed to B." in (await carol.last()).body
            press = await bob.last()
            assert press.body.startswith("Press from C in game tc-1. A plain reply to this mail goes back to C")
            await bob.reply(press, "Sounds good to me\n\nBob")
            assert "went as press to C" in (await bob.last()).body
            assert "Sounds good to me" in (await carol.last()).body
            assert service.runner.current_orders("tc-1", "B") is None  # the reply was never read as orders

            # Carol asks for STATUS 25 times: one notice when answers pause, then her orders still count.
            for _ in range(25):
                await carol.send("STATUS tc-1\n")
            answers = await carol.receive(limit + 1, timeout=30)
            assert all("Game tc-1" in a.body for a in answers[:limit])
            assert "not answered until" in answers[-1].body and "Orders for your seat" in answers[-1].body
            await carol.reply(game.reports["C"], "FEED F11\n")
            assert "Your orders v1" in (await carol.last()).body

            # Bob and Dave send their orders: only now, with every seat in, the turn resolves.
            assert service.runner.info("tc-1").row.turn == 1
            await bob.reply(game.reports["B"], OPENING_ORDERS["B"])
            assert "Your orders v1" in (await bob.last()).body
            assert service.runner.info("tc-1").row.turn == 1, "the turn must still wait for Dave"
            await dave.reply(game.reports["D"], "FEED K6\n")
            assert "Your orders v1" in (await dave.last()).body
            await eventually(lambda: service.runner.info("tc-1").row.turn == 2)
            record = service.runner.history("tc-1")[0]
            assert record.reason == "all-in" and record.nmr == []
            assert record.orders["D"] == ["FEED K6"] and record.orders["C"] == ["FEED F11"]
            for person in (alice, bob, carol, dave):
                assert (await person.last()).subject == "[tc-1] Turn 2"
            await prove_quiet(service, alice, bob, dave)

    asyncio.run(scenario())


def test_noorders_withdraws_on_purpose_and_counts_as_in(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice = game.players["A"]
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])
            assert "Your orders v1" in (await alice.last()).body
            await alice.reply(game.reports["A"], "NOORDERS\n")
            assert "are withdrawn (v2 is an empty set: you hold)" in (await alice.last()).body
            current = service.runner.current_orders("tc-1", "A")
            assert current is not None and current.orders == []
            assert "A" not in service.runner.missing_seats("tc-1")

    asyncio.run(scenario())


def test_every_answer_of_a_mail_comes_in_line_order_with_its_line_number(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            stranger = service.person("newcomer@outside.test")
            await stranger.send("STATUS tc-1\nJOIN tc-1\nFROB x\nHELP\n")
            body = (await stranger.last()).body
            status, join, frob = body.index("Game tc-1"), body.index("line 2: REFUSED: game tc-1 is not open"), \
                body.index("line 3: FROB x")
            assert status < join < frob < body.index("pbem commands")
            assert game.name == "tc-1"

    asyncio.run(scenario())


def test_small_things_a_player_notices(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person("boss@players.test")
            await gm.send("CREATE turkey-chase tc-9 seed=3\n", subject="new game")
            created = await gm.last()
            assert created.subject == "[tc-9] Re: new game"
            player = service.person("zoe@players.test")
            await player.send("JOIN tc-9\n", subject="hello")
            joined = await player.last()
            assert joined.subject == "[tc-9] Re: hello", "a JOIN reply carries the game's tag"
            promised = service.runner.commitment("tc-9")
            assert promised and promised in created.body and promised in joined.body, "the first mails commit"
            await player.send("HELP turkey-chase\n", subject="help")
            help_text = (await player.last()).body
            assert help_text.count("TURKEY CHASE") == 1 and "Turkey Chase (turkey-chase) orders" not in help_text
            assert "\n\n\n" not in help_text.replace("\r\n", "\n")

    asyncio.run(scenario())


def test_the_console_logs_one_line_per_mail_and_per_turn(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pbem")

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            orders = {**OPENING_ORDERS, "C": "FEED F11\n", "D": "FEED K6\n"}
            for seat in "ABCD":
                await game.players[seat].reply(game.reports[seat], orders[seat])
                await game.players[seat].last()
            await eventually(lambda: service.runner.info("tc-1").row.turn == 2)

    asyncio.run(scenario())
    mail_lines = [r for r in caplog.records if r.name == "pbem.mail.running.daemon" and r.getMessage().startswith("mail ")]
    orders = [r for r in mail_lines if getattr(r, "seat", "") == "A" and getattr(r, "done", "") == "orders"]
    assert orders and orders[0].sender == "alice@players.test" and orders[0].game == "tc-1"
    assert isinstance(orders[0].ms, float)
    turns = [r.getMessage() for r in caplog.records if r.name == "pbem.mail.outbound.notices"]
    assert "game tc-1: turn 1 resolved (all-in)" in turns


def test_json_log_lines_carry_the_fields() -> None:
    record = logging.LogRecord("pbem.mail.running.daemon", logging.INFO, __file__, 1, "mail %s from %s", (7, "a@b.c"), None)
    record.sender, record.game, record.ms = "a@b.c", "tc-1", 1.5
    line = json.loads(JsonLineFormatter().format(record))
    assert line["message"] == "mail 7 from a@b.c" and line["game"] == "tc-1" and line["ms"] == 1.5
    assert line["level"] == "INFO"


def test_a_reply_to_a_notice_is_press_to_the_gm_and_not_orders(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            await game.gm.send(f"GM tc-1 {game.gm_password}\nEXTEND 1d\n")
            answer = await game.gm.last()  # the answer alone: the GM is not told of their own EXTEND
            assert answer.subject.startswith("Re:") and "Deadline extended to" in answer.body
            alice = game.players["A"]
            notice = await alice.last()
            assert notice.subject == "[tc-1] Notice" and "A plain reply to this mail goes to the GM as press" in notice.body
            await alice.reply(notice, "FEED F1\nMOVE F7-F8\n")
            assert "Your reply went as press to GM (it was not read as orders)" in (await alice.last()).body
            press = await game.gm.last()
            assert press.subject == "[tc-1] Press from A" and "FEED F1" in press.body
            assert service.runner.current_orders("tc-1", "A") is None

    asyncio.run(scenario())
