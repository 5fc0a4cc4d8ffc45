"""No password survives the handling of a mail anywhere on disk: the stored copy of every mail that held
one loses its body whatever became of the mail (handled, refused, rate-limited, unreadable), a sent mail
that held one keeps only its header, and on SQLite neither the database file nor its write-ahead log keeps
the old pages. Through the real daemon and real mail servers."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from mail_games import eventually, inbound_row, inbound_rows, send_raw
from mail_harness import GM_ADDRESS, TEST_MAIL_BUDGET, MailHarness, running_service
from mail_secrets import create_and_join
from sqlmodel import select

from pbem.commands import GmSession
from pbem.mail.answering.policy import RateLimiter
from pbem.mail.handling import handler as handler_module
from pbem.mail.reading.redaction import REDACTED_BODY
from pbem.mail.running.daemon import DaemonOptions
from pbem.store.tables import InboundMessageRow, OutboundMessageRow

WRONG_GUESS = "Wr0ngGuess42"
FLOOD = RateLimiter().max_mails


def _holding(passwords: list[str]) -> re.Pattern[bytes]:
    """Any of ``passwords`` in bytes, also cut by a quoted-printable soft line break."""
    return re.compile(b"|".join(b"(?:=\r?\n)?".join(re.escape(bytes([c])) for c in p.encode()) for p in passwords))


async def _mail_with_every_fate(service: MailHarness) -> list[str]:
    """Play mails holding passwords to every end a mail can have; return the passwords they held."""
    game = await create_and_join(service, "race-on-the-river", "rr-1", 2, "")
    seat_passwords = {seat: password for seat, (_person, password) in game.seats.items()}
    (alice, alice_password), (_bob, _bob_password) = game.seats["1"], game.seats["2"]
    gm = game.gm
    await gm.send(f"GM rr-1 {game.gm_password}\nSTART\nSIGNOFF\n")  # handled
    await alice.send(f"SIGNON rr-1 1 {alice_password}\nSIGNOFF\n")  # handled
    mallory = service.person("mallory@outside.test")
    await mallory.send(f"SIGNON rr-1 1 {alice_password}\nSIGNOFF\n")  # refused: not the seat's holder
    await mallory.send(f"GM rr-1 {WRONG_GUESS}\nSTATUS\n")  # refused: a wrong password
    await mallory.send(f"SIGNON rr-1 1 {alice_password} and more\n")  # a bad line, quoted in the answer
    await send_raw(service, (f"From: {gm.address}\r\nFrom: {mallory.address}\r\nTo: {GM_ADDRESS}\r\n"
                             f"Subject: two senders\r\nMessage-ID: <two@outside.test>\r\n\r\n"
                             f"GM rr-1 {game.gm_password}\r\nSTATUS\r\n").encode(),
                   mail_from=gm.address)  # unreadable: two From fields
    flooder = service.person(gm.address)
    for number in range(FLOOD):
        await flooder.send(f"hello {number}\n", subject=f"flood {number}")
    for number in range(3):  # the rate limit leaves these unread
        await flooder.send(f"GM rr-1 {game.gm_password}\nSTATUS\n", subject=f"limited {number}")

    def all_handled() -> bool:
        rows = inbound_rows(service)
        return len(rows) == 9 + FLOOD + 3 and all(row.status != "new" for row in rows)

    def all_sent() -> bool:
        with service.daemon.db.session() as session:
            return not session.exec(select(OutboundMessageRow).where(OutboundMessageRow.status == "queued")).all()

    await eventually(all_handled, timeout=60)
    await eventually(all_sent, timeout=60)
    limited = [row for row in inbound_rows(service) if row.error == "rate limited"]
    assert len(limited) >= 3, [(row.status, row.error) for row in inbound_rows(service)]
    return [game.gm_password, WRONG_GUESS, *seat_passwords.values()]


def test_no_stored_mail_holds_a_password_whatever_became_of_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            holding = _holding(await _mail_with_every_fate(service))
            with service.daemon.db.session() as session:
                inbound = session.exec(select(InboundMessageRow)).all()
                outbound = session.exec(select(OutboundMessageRow)).all()
            assert [row.error for row in inbound if holding.search(row.raw)] == []
            assert [row.purpose for row in outbound if holding.search(row.raw)] == []

    asyncio.run(scenario())


def test_the_sqlite_file_and_its_wal_hold_no_password_while_the_daemon_runs(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = tmp_path / "pbem.db"
        async with running_service(tmp_path, db_url=str(database)) as service:
            holding = _holding(await _mail_with_every_fate(service))
            files = (database, database.with_name("pbem.db-wal"))

            def nothing_on_disk() -> bool:
                return not any(path.is_file() and holding.search(path.read_bytes()) for path in files)

            await eventually(nothing_on_disk, timeout=10)
            assert database.with_name("pbem.db-wal").is_file(), "the daemon still runs, in WAL mode"

    asyncio.run(scenario())


def test_a_mail_that_fails_on_a_bug_keeps_no_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def bug(_conv: object, _command: object) -> None:  # a fault no mail can provoke: a bug in a command
        raise RuntimeError("a bug")

    async def scenario() -> None:
        quick_retries = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.1,
                                      retry_first=timedelta(seconds=0.05))
        async with running_service(tmp_path, options=quick_retries) as service:
            game = await create_and_join(service, "race-on-the-river", "rr-1", 2, "")
            monkeypatch.setitem(handler_module._COMMANDS, GmSession, bug)  # type: ignore[index]
            await game.gm.send(f"GM rr-1 {game.gm_password}\nSTART\n", subject="buggy")

            def failed() -> bool:  # after its last try
                return any(row.status == "failed" for row in inbound_rows(service))

            await eventually(failed)
            row = next(row for row in inbound_rows(service) if row.status == "failed")
            assert row.error == "RuntimeError: a bug"
            assert row.status == "failed" and row.raw.endswith(REDACTED_BODY)
            assert game.gm_password.encode() not in row.raw and b"Subject: buggy" in row.raw

    asyncio.run(scenario())


def _every_decoded_text(raw: bytes) -> str:
    """The text of every part of a mail, decoded from its transfer encoding and charset (what a reader of
    the stored bytes would recover)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    texts = []
    for part in message.walk():
        payload = None if part.is_multipart() else part.get_payload(decode=True)
        if isinstance(payload, bytes):
            texts.append(payload.decode(part.get_content_charset() or "utf-8", errors="replace"))
    return "\n".join(texts)


@pytest.mark.parametrize("encoding", ["base64", "quoted-printable", "utf-16 attachment"])
def test_a_reply_quoting_its_password_mail_in_an_encoded_part_keeps_no_copy(tmp_path: Path, encoding: str) -> None:
    """The word "password" is then not in the mail's bytes: the parts are read decoded."""
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await create_and_join(service, "race-on-the-river", "rr-1", 2, "")
            alice, password = game.seats["1"]
            quoted = ("STATUS\n\nOn Sat, pbem wrote:\n> You play seat 1 of game rr-1. Your password is "
                      f"{password}; a plain reply to this mail is enough.\n")
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = alice.address, GM_ADDRESS, "Re: [rr-1] seat 1"
            message["Message-ID"] = "<quoting@players.test>"
            if encoding == "utf-16 attachment":
                message.set_content("STATUS\n")
                message.add_attachment(quoted.encode("utf-16"), maintype="text", subtype="plain",
                                       filename="forwarded.txt", params={"charset": "utf-16"})
            else:
                message.set_content(quoted, cte=encoding)
            raw = message.as_bytes()
            if encoding == "quoted-printable":  # a soft line break within the word, as a client may write it
                raw = raw.replace(b"password", b"pass=\nword")
            assert b"password" not in raw.lower() and password in _every_decoded_text(raw)
            await send_raw(service, raw, mail_from=alice.address)
            await eventually(lambda: any(row.message_id == "<quoting@players.test>" and row.status == "handled"
                                         for row in inbound_rows(service)))
            row = inbound_row(service, "<quoting@players.test>")
            assert row.raw.endswith(REDACTED_BODY) and password not in _every_decoded_text(row.raw)

    asyncio.run(scenario())
