"""Mail handed straight to pbem over LMTP: the embedded SMTP server's relay in the test plays the mail
server (Postfix, Exim) that hands each mail on to ``MailDaemon``'s LMTP listener, and the replies leave
through the embedded SMTP server into the players' mailboxes. No IMAP mailbox is read."""

from __future__ import annotations

import asyncio
import sqlite3
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiosmtplib
import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session
from databases import database_url, on_postgresql
from databases import query as run_query
from mail_harness import TEST_MAIL_BUDGET

from pbem.mail.answering.policy import DEFAULT_MAX_SIZE
from pbem.mail.intake.lmtp import LOCAL_ERROR, NOT_STORED, Deliver, LmtpAddress, LmtpListener, _Handler
from pbem.mail.outbound.config import SmtpUrl
from pbem.mail.running.daemon import DaemonOptions, MailDaemon
from pbem.sandbox.embedded import EmbeddedMailServers
from pbem.sandbox.lmtpclient import hand_over
from pbem.sandbox.mailclient import MailboxReader, plain_mail
from pbem.store import open_database

GM_ADDRESS = "gm@pbem.test"
PLAYER = "player@players.test"


@dataclass
class LmtpService:
    """The mail servers, the daemon taking mail over LMTP, and its database."""

    servers: EmbeddedMailServers
    daemon: MailDaemon
    db_url: str

    @property
    def port(self) -> int:
        assert self.daemon.lmtp is not None
        return self.daemon.lmtp.address.port

    def stored(self) -> list[tuple[object, ...]]:
        """The inbound rows: (uid, status, sender), oldest first."""
        return run_query(self.db_url, "SELECT uid, status, sender FROM inbound_message ORDER BY id")


@asynccontextmanager
async def lmtp_service(tmp_path: Path, where: LmtpAddress | None = None) -> AsyncIterator[LmtpService]:
    """Start the embedded servers and a daemon that takes its mail only over LMTP; stop both at the end."""
    db_url = database_url(tmp_path)
    async with EmbeddedMailServers() as servers:
        db = open_database(db_url)
        daemon = MailDaemon(db, imap=None, smtp=SmtpUrl.parse(servers.smtp_url()), address=GM_ADDRESS,
                            lmtp=where or LmtpAddress("127.0.0.1", 0),
                            options=DaemonOptions(send_retry_min=0.5, clock_interval=0.1,
                                                  mail_budget=TEST_MAIL_BUDGET))
        assert daemon.lmtp is not None
        await daemon.lmtp.start()
        stop = asyncio.Event()
        task = asyncio.create_task(daemon.run(stop))
        try:
            yield LmtpService(servers, daemon, db_url)
        finally:
            stop.set()
            await asyncio.wait_for(task, timeout=15)
            db.close()


class _Relay:
    """The mail server: takes mail over SMTP and hands it on to pbem over LMTP, answering the sender with
    pbem's answer."""

    def __init__(self, lmtp_port: int) -> None:
        self.lmtp_port = lmtp_port

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        handover = await hand_over(envelope.original_content or b"", list(envelope.rcpt_tos), port=self.lmtp_port,
                                   mail_from=envelope.mail_from or "")
        return (handover.data or handover.rcpt)[0]


@asynccontextmanager
async def relay(lmtp_port: int) -> AsyncIterator[int]:
    """An SMTP server on 127.0.0.1 that relays to pbem's LMTP port; yield its port."""
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(_Relay(lmtp_port), loop=loop), "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


def test_mail_relayed_by_the_mail_server_over_lmtp_is_stored_then_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service, relay(service.port) as relay_port:
            mailbox = MailboxReader(service.servers, PLAYER)
            errors, answer = await aiosmtplib.send(plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n"),
                                                   hostname="127.0.0.1", port=relay_port)
            assert not errors and answer.startswith("2.0.0 stored")
            reply = (await mailbox.new_mail(1))[0]
            assert "pbem commands" in reply.body
            assert service.stored() == [(None, "handled", PLAYER)]
            assert service.servers.delivered == 1, "nothing else was sent, and nothing read a mailbox"

    asyncio.run(scenario())


def test_lmtp_answers_250_only_once_the_mail_is_committed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service:
            for n in range(5):
                raw = plain_mail(f"p{n}@players.test", GM_ADDRESS, "help", "HELP\n").as_bytes()
                handover = await hand_over(raw, [GM_ADDRESS], port=service.port)
                assert handover.data == ["250 2.0.0 stored"]
                assert len(service.stored()) == n + 1, "the 250 came before the mail was committed"

    asyncio.run(scenario())


def test_lmtp_refuses_other_recipients_with_550_and_answers_each_of_the_game_masters(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service:
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            handover = await hand_over(raw, ["someone@pbem.test", "gm@elsewhere.test", "GM+Seat-x@PBEM.test",
                                             GM_ADDRESS], port=service.port)
            assert [answer[:3] for answer in handover.rcpt] == ["550", "550", "250", "250"]
            assert handover.data == ["250 2.0.0 stored"] * 2
            assert len(service.stored()) == 1, "one mail for two of the game master's addresses is stored once"
            nobody = await hand_over(raw, ["someone@pbem.test"], port=service.port)
            assert nobody.rcpt[0].startswith("550 5.1.1") and nobody.data == []
            many = await hand_over(raw, [f"gm+{n}@pbem.test" for n in range(12)], port=service.port)
            assert [answer[:3] for answer in many.rcpt] == ["250"] * 10 + ["452"] * 2

    asyncio.run(scenario())


def test_lmtp_refuses_a_mail_over_the_size_limit_with_552_and_stores_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service:
            big = plain_mail(PLAYER, GM_ADDRESS, "help", ("HELP " * 20 + "\n") * (DEFAULT_MAX_SIZE // 100 + 1))
            handover = await hand_over(big.as_bytes(), [GM_ADDRESS], port=service.port)
            assert handover.data[0].startswith("552")
            assert service.stored() == []
            small = await hand_over(plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes(), [GM_ADDRESS],
                                    port=service.port)
            assert small.data == ["250 2.0.0 stored"], "the connection goes on after a refused mail"

    asyncio.run(scenario())


def test_a_mail_delivered_again_after_a_lost_250_is_stored_and_answered_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service:
            mailbox = MailboxReader(service.servers, PLAYER)
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            for _ in range(3):
                assert (await hand_over(raw, [GM_ADDRESS], port=service.port)).data == ["250 2.0.0 stored"]
            await mailbox.new_mail(1)
            await asyncio.sleep(0.5)
            assert len(await mailbox.all_mail()) == 1
            assert service.stored() == [(None, "handled", PLAYER)]

    asyncio.run(scenario())


def test_a_bounce_handed_over_by_lmtp_is_never_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service:
            mailbox = MailboxReader(service.servers, PLAYER)
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            assert (await hand_over(raw, [GM_ADDRESS], port=service.port, mail_from="")).data[0].startswith("250")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while service.stored()[0][1] == "new" and loop.time() < deadline:
                await asyncio.sleep(0.05)
            assert service.stored()[0][1] == "handled"
            await asyncio.sleep(0.5)
            assert await mailbox.all_mail() == []
            assert service.daemon.handled == 1 and service.servers.delivered == 0

    asyncio.run(scenario())


def test_lmtp_answers_451_while_the_database_is_locked_and_stores_the_mail_when_tried_again(tmp_path: Path) -> None:
    if on_postgresql():
        pytest.skip("SQLite's write lock: PostgreSQL has no busy timeout, an INSERT waits for a table lock")

    async def scenario() -> None:
        async with lmtp_service(tmp_path) as service:
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            blocker = sqlite3.connect(service.db_url, isolation_level=None)
            try:
                blocker.execute("BEGIN IMMEDIATE")  # holds the write lock past the daemon's busy timeout (10 s)
                locked = await hand_over(raw, [GM_ADDRESS, "gm+x@pbem.test"], port=service.port)
                assert [answer[:9] for answer in locked.data] == ["451 4.3.0"] * 2
            finally:
                blocker.close()
            assert service.stored() == []
            again = await hand_over(raw, [GM_ADDRESS], port=service.port)
            assert again.data == ["250 2.0.0 stored"]
            assert len(service.stored()) == 1

    asyncio.run(scenario())


def test_lmtp_on_a_unix_socket_of_mode_0660_removed_at_stop(tmp_path: Path) -> None:
    path = tmp_path / "lmtp.sock"

    async def scenario() -> None:
        async with lmtp_service(tmp_path, LmtpAddress(path=path)) as service:
            assert stat.S_ISSOCK(path.stat().st_mode) and stat.S_IMODE(path.stat().st_mode) == 0o660
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            assert (await hand_over(raw, [GM_ADDRESS], path=path)).data == ["250 2.0.0 stored"]
            await MailboxReader(service.servers, PLAYER).new_mail(1)
        assert not path.exists()

    asyncio.run(scenario())


def test_lmtp_answers_421_past_its_connections_at_once_and_serves_again_once_one_closed() -> None:
    stored: list[bytes] = []

    async def store(raw: bytes) -> None:
        stored.append(raw)

    async def scenario() -> None:
        listener = LmtpListener(LmtpAddress("127.0.0.1", 0), own_address=GM_ADDRESS, deliver=store,
                                max_connections=2)
        await listener.start()
        try:
            port = listener.address.port
            held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
            for reader, _writer in held:
                assert (await reader.readline()).startswith(b"220")
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            assert (await reader.readline()).startswith(b"421 4.3.2")
            assert await reader.read() == b"", "closed after the 421"
            writer.close()
            held.pop()[1].close()
            await asyncio.sleep(0.1)
            raw = plain_mail(PLAYER, GM_ADDRESS, "help", "HELP\n").as_bytes()
            assert (await hand_over(raw, [GM_ADDRESS], port=port)).data == ["250 2.0.0 stored"]
            assert len(stored) == 1 and stored[0].startswith(f"Return-Path: <{PLAYER}>\r\n".encode())
            for _reader, held_writer in held:
                held_writer.close()
        finally:
            await listener.stop()

    asyncio.run(scenario())


class _Conversation:
    """One LMTP connection spoken line by line, as a mail server speaks it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def answer(self) -> str:
        """The next answer line (a test that waits for an answer it is not given fails after 30 s)."""
        line = await asyncio.wait_for(self.reader.readline(), 30)
        assert line, "the LMTP server closed the connection"
        return line.decode().rstrip("\r\n")

    async def say(self, line: bytes) -> str:
        """Send one command line; its (last) answer line."""
        self.writer.write(line + b"\r\n")
        while (answer := await self.answer())[3:4] == "-":
            pass
        return answer

    async def mail(self, recipients: list[str], data: bytes) -> list[str]:
        """One transaction to ``recipients`` (each accepted); the answers after the data, then one more: the
        answer to a NOOP, so that an answer too many shows."""
        assert (await self.say(f"MAIL FROM:<{PLAYER}>".encode())).startswith("250")
        for recipient in recipients:
            assert (await self.say(f"RCPT TO:<{recipient}>".encode())).startswith("250")
        assert (await self.say(b"DATA")).startswith("354")
        self.writer.write(data + b"\r\n.\r\n")
        answers = [await self.answer() for _ in recipients]
        return [*answers, await self.say(b"NOOP")]


@asynccontextmanager
async def conversation(deliver: Deliver, *, max_size: int = DEFAULT_MAX_SIZE) -> AsyncIterator[_Conversation]:
    """An LMTP listener on 127.0.0.1 handing mail to ``deliver``, and a connection to it after LHLO."""
    listener = LmtpListener(LmtpAddress("127.0.0.1", 0), own_address=GM_ADDRESS, deliver=deliver, max_size=max_size)
    await listener.start()
    try:
        talk = _Conversation(*await asyncio.open_connection("127.0.0.1", listener.address.port))
        assert (await talk.answer()).startswith("220")
        assert (await talk.say(b"LHLO mta.test")).startswith("250")
        yield talk
        talk.writer.close()
    finally:
        await listener.stop()


RECIPIENTS = [GM_ADDRESS, "gm+a@pbem.test", "gm+b@pbem.test"]
SMALL = b"From: player@players.test\r\nSubject: help\r\n\r\nHELP"


@pytest.mark.parametrize("count", [2, 3])
def test_lmtp_answers_each_recipient_of_a_mail_refused_while_its_data_was_read(count: int) -> None:
    stored: list[bytes] = []

    async def store(raw: bytes) -> None:
        stored.append(raw)

    async def scenario() -> None:
        async with conversation(store, max_size=10_000) as talk:
            big = SMALL + b"\r\n" + b"HELP\r\n" * 3_000
            assert [a[:3] for a in await talk.mail(RECIPIENTS[:count], big)] == ["552"] * count + ["250"]
            long_line = SMALL + b" " + b"x" * 2_000
            assert [a[:3] for a in await talk.mail(RECIPIENTS[:count], long_line)] == ["500"] * count + ["250"]
            assert stored == []
            assert await talk.mail(RECIPIENTS[:count], SMALL) == ["250 2.0.0 stored"] * count + ["250 OK"]
            assert len(stored) == 1 and stored[0].endswith(b"\r\n\r\nHELP\r\n")

    asyncio.run(scenario())


def test_lmtp_answers_each_recipient_451_when_the_mail_is_not_stored() -> None:
    async def refuse(raw: bytes) -> None:
        raise OSError("the disk is full")

    async def scenario() -> None:
        async with conversation(refuse) as talk:
            assert await talk.mail(RECIPIENTS, SMALL) == [NOT_STORED] * 3 + ["250 OK"]

    asyncio.run(scenario())


def test_lmtp_answers_each_recipient_451_when_anything_else_fails_after_the_data(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def store(raw: bytes) -> None:
        raise AssertionError("not reached")

    async def broken(*args: object) -> str:
        raise RuntimeError("a fault after the data")  # one that cannot be provoked from outside

    monkeypatch.setattr(_Handler, "handle_DATA", broken)

    async def scenario() -> None:
        async with conversation(store) as talk:
            assert await talk.mail(RECIPIENTS, SMALL) == [LOCAL_ERROR] * 3 + ["250 OK"]

    asyncio.run(scenario())
