"""Per-address preferences through real mail: SET DIGEST (a report only when the seat owes orders,
covering every turn since its last), SET TEXTONLY (no HTML part, no picture) and SET PRESS OFF (no
press from other players; the GM's still arrives)."""

from __future__ import annotations

import asyncio
import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

from mail_games import OPENING_ORDERS, eventually, open_game
from mail_harness import MailHarness, running_service
from mail_secrets import create_and_join, mailbox, newest_report

from pbem.sandbox.mailclient import ReceivedMail


def content_types(mail: ReceivedMail) -> set[str]:
    message = email.message_from_bytes(mail.raw, policy=email.policy.default)
    return {part.get_content_type() for part in message.walk() if isinstance(part, EmailMessage)}


async def subjects(service: MailHarness, person: object) -> list[str]:
    return [m.subject for m in await mailbox(service, person)]  # type: ignore[arg-type]


def test_a_digest_reader_hears_only_when_it_owes_orders_and_then_of_every_turn(tiny_game: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await create_and_join(service, "tiny", "t1", 2, "seed=1 target=30")
            await game.gm.send(f"GM t1 {game.gm_password}\nSTART\n")
            await eventually(lambda: service.runner.info("t1").phase is not None)
            game.gm.inbox.seen = len(await service.servers.inbox(game.gm.address)) - 0
            mover = service.runner.info("t1").phase.seats[0]
            other = next(seat for seat in game.seats if seat != mover)
            reader, _ = game.seats[other]
            await reader.send("SET DIGEST ON\n")
            await service.settle()
            for turn in (1, 2, 3):  # other owes after turns 1 and 3, mover after turn 2
                await game.gm.send(f"GM t1 {game.gm_password}\nPROCESS\n")
                await eventually(lambda turn=turn: service.runner.info("t1").row.turn == turn + 1)
            await newest_report(service, reader, "t1", 4)
            await newest_report(service, game.seats[mover][0], "t1", 4)
            got = [s for s in await subjects(service, reader) if s.startswith("[t1] Turn")]
            assert got == ["[t1] Turn 1", "[t1] Turn 2", "[t1] Turn 4"], got  # not turn 3: mover owed then
            digest = [m for m in await mailbox(service, reader) if m.subject == "[t1] Turn 4"][0].body
            assert "Turns 2 to 3 results" in digest and digest.count(" added 1; the total is ") == 2, digest
            mover_person, _ = game.seats[mover]
            assert [s for s in await subjects(service, mover_person) if s.startswith("[t1] Turn")] == [
                "[t1] Turn 1", "[t1] Turn 2", "[t1] Turn 3", "[t1] Turn 4"]

    asyncio.run(scenario())


def test_text_only_mail_and_press_off(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, bob, carol = game.players["A"], game.players["B"], game.players["C"]
            assert "text/html" in content_types(game.reports["A"]) and "image/png" in content_types(game.reports["A"])
            await alice.send("SET TEXTONLY ON\n")
            assert "plain text only" in (await alice.last()).body
            await bob.send("SET PRESS OFF\n")
            assert "no press from other players" in (await bob.last()).body
            await carol.send(f"SIGNON tc-1 C {game.passwords['C']}\nPRESS B D\nShall we?\nENDPRESS\n")
            answer = (await carol.last()).body
            assert "Press relayed to D." in answer and "Not to B: they take no press from players." in answer
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPRESS B\nFrom the GM.\nENDPRESS\n")
            press = [m for m in await bob.receive(1)][0]
            assert "Press from GM" in press.body and "From the GM." in press.body
            assert not any("Shall we?" in m.body for m in await mailbox(service, bob))
            await alice.reply(game.reports["A"], "FEED Z9\n")  # a check: would have an HTML table
            check = await alice.last()
            assert "REFUSED" in check.body and check.html is None and "text/html" not in content_types(check)
            for seat, orders in OPENING_ORDERS.items():
                await game.players[seat].reply(game.reports[seat], orders)
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPROCESS\n")
            reports = [m for m in await alice.receive(2) if m.subject == "[tc-1] Turn 2"]
            assert reports and reports[0].html is None
            assert content_types(reports[0]) & {"text/html", "image/png"} == set()
            assert "The cornfield" in reports[0].body

    asyncio.run(scenario())
