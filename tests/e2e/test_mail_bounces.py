"""Bounces and delivery failures are understood (issue 24): an SMTP 5xx or a hard bounce marks the address
undeliverable, tells the GM which seat and game, and silences the seat; a bounce for now sends the mail
again later; a bounce nobody can tie to a mail pbem sent changes nothing; and --send-rate holds mail back."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from bounce_mail import postfix_dsn
from mail_games import eventually, open_game, send_raw
from mail_harness import GM_ADDRESS, TEST_MAIL_BUDGET, MailHarness, Person, running_service
from sqlmodel import select

from pbem.mail.outbound.config import SendRate
from pbem.mail.running.daemon import DaemonOptions
from pbem.sandbox.mailclient import ReceivedMail
from pbem.store.tables import AddressConsentRow, AuditEntryRow, OutboundMessageRow

QUICK = {"mail_budget": TEST_MAIL_BUDGET, "idle_recheck": 0.5, "send_retry_min": 0.5, "clock_interval": 0.1}


async def mail_saying(person: Person, text: str, *, most: int = 5) -> ReceivedMail:
    """The next mail to ``person`` that says ``text`` (reading at most ``most`` mails)."""
    for _ in range(most):
        mail = (await person.receive(1))[0]
        if text in mail.body:
            return mail
    raise AssertionError(f"{person.address} got no mail saying {text!r}")


def consent_of(service: MailHarness, address: str) -> AddressConsentRow | None:
    with service.daemon.db.session() as session:
        return session.get(AddressConsentRow, address)


def sent_to(service: MailHarness, address: str) -> list[OutboundMessageRow]:
    with service.daemon.db.session() as session:
        return [row for row in session.exec(select(OutboundMessageRow).order_by(OutboundMessageRow.id))
                if row.recipients == [address]]


def audit_actions(service: MailHarness) -> list[str]:
    with service.daemon.db.session() as session:
        return [row.action for row in session.exec(select(AuditEntryRow))]


def is_undeliverable(service: MailHarness, address: str) -> bool:
    row = consent_of(service, address)
    return row is not None and row.undeliverable_at is not None


def test_an_smtp_5xx_marks_the_address_undeliverable_tells_the_gm_and_nothing_more_goes_there(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            bob = game.players["B"]
            service.servers.refused[bob.address] = "550 5.1.1 <%s>: Recipient address rejected: User unknown" % (
                bob.address)
            await game.gm.send(f"GM tc-1 {game.gm_password}\nEXTEND 1d\n")
            await eventually(lambda: is_undeliverable(service, bob.address))
            told = await mail_saying(game.gm, "cannot be delivered")
            assert "seat B of tc-1" in told.body and "User unknown" in told.body
            assert "BOUNCE" in audit_actions(service)
            queued = len(sent_to(service, bob.address))
            await game.gm.send(f"GM tc-1 {game.gm_password}\nEXTEND 1d\n")
            await game.gm.last()
            await game.players["A"].last()  # the others are told of the new deadline
            assert len(sent_to(service, bob.address)) == queued, "nothing more is queued for bob"
            del service.servers.refused[bob.address]
            await bob.send("STATUS tc-1\n", subject="back")  # writing again makes it reachable again
            assert "tc-1" in (await bob.last()).body
            assert not is_undeliverable(service, bob.address)

    asyncio.run(scenario())


def test_a_postfix_dsn_to_the_bounce_address_of_a_report_marks_its_reader_undeliverable(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            cat, dan = game.players["C"].address, game.players["D"].address
            report = game.reports["C"]
            assert report.raw.startswith(b"Return-Path: <gm+b-")  # each mail's envelope sender names it
            mail_id = next(row.id for row in sent_to(service, cat) if row.purpose == "report")
            bounce_address = service.daemon.handler.tokens.bounce_address(GM_ADDRESS, mail_id)
            await send_raw(service, postfix_dsn(bounce_address, cat), mail_from="", to=bounce_address)
            await eventually(lambda: is_undeliverable(service, cat))
            told = await mail_saying(game.gm, "cannot be delivered")
            assert "seat C of tc-1" in told.body and "5.1.1" in told.body

            forged = [postfix_dsn(GM_ADDRESS, dan),  # to the plain address: no mail of pbem's is named
                      postfix_dsn(bounce_address.replace("@", "x@"), dan)]  # a bounce address of no key
            for raw in forged:
                await send_raw(service, raw, mail_from="", to=GM_ADDRESS)
            await game.players["A"].send("STATUS tc-1\n", subject="control")
            await game.players["A"].last()
            assert not is_undeliverable(service, dan)
            assert [mail.sender for mail in await service.servers.inbox("mailer-daemon@mx.players.test")] == []

    asyncio.run(scenario())


def test_a_bounce_for_now_sends_the_mail_again_later_and_changes_nothing_else(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            ann = game.players["A"].address
            row = next(row for row in sent_to(service, ann) if row.purpose == "report")
            bounce_address = service.daemon.handler.tokens.bounce_address(GM_ADDRESS, row.id)
            dsn = postfix_dsn(bounce_address, ann, action="failed", status="4.2.2")
            await send_raw(service, dsn, mail_from="", to=bounce_address)

            def queued_again() -> bool:
                with service.daemon.db.session() as session:
                    again = session.get(OutboundMessageRow, row.id)
                    return again is not None and again.status == "queued"

            await eventually(queued_again)
            with service.daemon.db.session() as session:
                again = session.get(OutboundMessageRow, row.id)
                assert again is not None and again.attempts == row.attempts + 1
                assert again.next_attempt_at - again.created_at > timedelta(minutes=50)
            assert not is_undeliverable(service, ann)

    asyncio.run(scenario())


def test_the_send_rate_holds_the_rest_back_in_order(tmp_path: Path) -> None:
    async def scenario() -> None:
        options = DaemonOptions(**QUICK, send_rate=SendRate(3, 3600))
        async with running_service(tmp_path, options=options) as service:
            people = [service.person(f"p{n}@players.test") for n in range(5)]
            for person in people:
                await person.send("HELP\n", subject="help")
            await eventually(lambda: sum(len(sent_rows) for sent_rows in [
                [row for p in people for row in sent_to(service, p.address) if row.status == "sent"]]) == 3)
            await asyncio.sleep(1.0)
            rows = [row for p in people for row in sent_to(service, p.address)]
            assert sorted(row.status for row in rows) == ["queued", "queued", "sent", "sent", "sent"]
            assert [row.status for row in sorted(rows, key=lambda r: r.id)] == ["sent"] * 3 + ["queued"] * 2

    asyncio.run(scenario())
