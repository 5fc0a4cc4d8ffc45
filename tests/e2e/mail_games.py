"""Scenario builders for the end-to-end mail tests: a running Turkey Chase game opened by
mail, raw mail sent as is, and looks into what the daemon stored and queued."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib
from mail_harness import GM_ADDRESS, MailHarness, Person
from sqlmodel import select

from pbem.sandbox.mailclient import ReceivedMail
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

PLAYERS = {"A": "alice@players.test", "B": "bob@players.test", "C": "carol@players.test", "D": "dave@players.test"}
"""Who holds which seat of the games :func:`open_game` starts."""

GM_PLAYER = "boss@players.test"

OPENING_ORDERS = {"A": "FEED F1\nMOVE F7-F8\n", "B": "FEED A6\nMOVE G6-G7\n"}
"""Legal turn-1 orders (3 of 5 points each) for seats A and B of the seeded game."""


@dataclass
class OpenGame:
    """A started game: its GM, its players, their passwords and their turn-1 reports."""

    name: str
    gm: Person
    gm_password: str
    players: dict[str, Person]
    passwords: dict[str, str]
    reports: dict[str, ReceivedMail]


async def open_game(service: MailHarness, name: str = "tc-1") -> OpenGame:
    """Create a four-seat Turkey Chase game with one GM mail that seats the players, have each accept its
    invitation (:func:`accept_invitations`), and start it with a second; wait for every seat's password
    notice and turn-1 report (each report's Reply-To is the seat's reply address)."""
    gm = service.person(GM_PLAYER)
    seats = "".join(f"SEAT {seat} {address}\n" for seat, address in PLAYERS.items())
    await gm.send(f"CREATE turkey-chase {name} seed=7\n{seats}")
    created = await gm.last()
    gm_password = _between(created.body, "GM password is ", ":")
    players = {seat: service.person(address) for seat, address in PLAYERS.items()}
    await accept_invitations(name, players.values())
    await gm.receive(len(players))  # a notice of each acceptance
    await gm.send(f"GM {name} {gm_password}\nSTART\n")
    await gm.receive(2)  # the answer and the public report of turn 1
    passwords: dict[str, str] = {}
    reports: dict[str, ReceivedMail] = {}
    for seat, player in players.items():
        notice, report = await player.receive(2)
        passwords[seat] = _between(notice.body, "Your password is ", ";")
        assert report.subject == f"[{name}] Turn 1" and report.reply_to, report.subject
        reports[seat] = report
    return OpenGame(name, gm, gm_password, players, passwords, reports)


async def accept_invitations(game: str, people: Iterable[Person]) -> None:
    """Each of ``people``, seated by the GM's mail and never having written to pbem, reads its invitation
    to ``game`` and accepts it with JOIN; wait for each answer."""
    for person in people:
        invitation = await person.last()
        assert "You are invited" in invitation.subject, invitation.subject
        await person.send(f"JOIN {game}\n")
        assert f"You accepted seat" in (await person.last()).body


async def has_written(person: Person) -> None:
    """``person`` writes to pbem (HELP) and reads the answer: from now on pbem may mail it without an
    invitation."""
    await person.send("HELP\n", subject="help")
    assert "pbem commands" in (await person.last()).body


def _between(text: str, before: str, after: str) -> str:
    found = re.search(re.escape(before) + r"(\S+?)" + re.escape(after), text)
    assert found is not None, f"{before!r} not in {text!r}"
    return found.group(1)


async def send_raw(service: MailHarness, raw: bytes, *, mail_from: str, to: str = GM_ADDRESS) -> None:
    """Send raw bytes through the SMTP server as they are, with envelope sender ``mail_from``
    (``""`` for the null sender ``<>`` of bounces; the server stamps it as Return-Path)."""
    async with aiosmtplib.SMTP(hostname=service.servers.host, port=service.servers.smtp_port, timeout=30) as smtp:
        await smtp.sendmail(mail_from, [to], raw)


def inbound_row(service: MailHarness, message_id: str) -> InboundMessageRow:
    """The stored inbound mail with this Message-ID (angle brackets included)."""
    with service.daemon.db.session() as session:
        row = session.exec(select(InboundMessageRow).where(InboundMessageRow.message_id == message_id)).first()
    assert row is not None, f"no inbound mail {message_id} was stored"
    return row


async def send_all(service: MailHarness, messages: Sequence[EmailMessage]) -> None:
    """Send prepared mails one after the other over one SMTP connection, as a busy mail program does."""
    async with aiosmtplib.SMTP(hostname=service.servers.host, port=service.servers.smtp_port, timeout=30) as smtp:
        for message in messages:
            await smtp.send_message(message)


def inbound_rows(service: MailHarness) -> list[InboundMessageRow]:
    """Every stored inbound mail, in the order it was stored."""
    with service.daemon.db.session() as session:
        return list(session.exec(select(InboundMessageRow).order_by(InboundMessageRow.id)))


def answers_to(service: MailHarness, row: InboundMessageRow) -> list[OutboundMessageRow]:
    """Every mail queued in answer to the stored inbound ``row``."""
    with service.daemon.db.session() as session:
        return list(session.exec(select(OutboundMessageRow).where(OutboundMessageRow.inbound_id == row.id)))


async def eventually(predicate: Callable[[], bool], *, timeout: float = 15.0) -> None:
    """Wait until ``predicate()`` holds, checking every 20 ms; raise TimeoutError after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() >= deadline:
            raise TimeoutError(f"still not true after {timeout} s: {predicate}")
        await asyncio.sleep(0.02)


async def prove_quiet(service: MailHarness, *people: Person, addresses: tuple[str, ...] = ()) -> None:
    """Prove that nothing more reaches ``people`` (beyond what they have read) or ``addresses``.

    A control mail sent now is handled after everything delivered before it;
    once its answer arrived, and a moment after, the mailboxes must be as they were.
    """
    control = service.person("control@players.test")
    control.inbox.seen = len(await service.servers.inbox(control.address))
    await control.send("HELP\n", subject="control")
    assert "pbem commands" in (await control.last()).body
    await service.settle()
    for person in people:
        box = await service.servers.inbox(person.address)
        assert len(box) == person.inbox.seen, f"{person.address} got {len(box) - person.inbox.seen} more mail(s)"
    for address in addresses:
        assert await service.servers.inbox(address) == [], f"{address} got mail"
