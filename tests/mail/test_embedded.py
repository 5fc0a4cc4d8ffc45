"""The embedded IMAP + SMTP servers, spoken to over real sockets on 127.0.0.1: mailboxes in memory, and
kept in a folder for the next servers."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aioimaplib
import aiosmtplib
import pytest

from pbem.mail.intake.imap import parse_fetch
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.sandbox.embedded import EmbeddedMailServers, NotRunning, mailbox_folder


async def _imap_login(servers: EmbeddedMailServers, user: str, password: str = "pbem") -> Any:
    client = aioimaplib.IMAP4("127.0.0.1", servers.imap_port, timeout=5)
    await client.wait_hello_from_server()
    response = await client.login(user, password)
    assert response.result == "OK", response
    return client


async def _fetch_all(servers: EmbeddedMailServers, user: str) -> list[tuple[int, bytes]]:
    client = await _imap_login(servers, user)
    await client.select("INBOX")
    response = await client.uid("fetch", "1:*", "(UID BODY.PEEK[])")
    await client.logout()
    return parse_fetch(response.lines)


def _mail(to: str, subject: str) -> bytes:
    return f"From: gm@example.org\r\nTo: {to}\r\nSubject: {subject}\r\n\r\nbody\r\n".encode()


def test_servers_start_fast_on_free_ports(arun: Any) -> None:
    servers = EmbeddedMailServers()
    started = time.perf_counter()
    arun(servers.start())
    elapsed = time.perf_counter() - started
    try:
        assert elapsed < 0.5
        assert servers.imap_port > 0 and servers.smtp_port > 0
        assert servers.imap_port != servers.smtp_port
    finally:
        arun(servers.stop())


def test_ports_are_unknown_before_start() -> None:
    with pytest.raises(NotRunning):
        _ = EmbeddedMailServers().imap_port


def test_mail_sent_by_smtp_arrives_in_each_recipients_imap_inbox(servers: EmbeddedMailServers, arun: Any) -> None:
    async def scenario() -> None:
        await aiosmtplib.send(
            _mail("alice@example.org", "Turn 1"), sender="gm@example.org",
            recipients=["alice@example.org", "bob@example.org"],
            hostname="127.0.0.1", port=servers.smtp_port,
        )
        await aiosmtplib.send(
            _mail("bob@example.org", "Only Bob"), sender="gm@example.org",
            recipients=["bob@example.org"], hostname="127.0.0.1", port=servers.smtp_port,
        )
        alice = await _fetch_all(servers, "alice@example.org")
        bob = await _fetch_all(servers, "bob@example.org")
        assert [b"Subject: Turn 1" in raw for _, raw in alice] == [True]
        assert [raw.split(b"Subject: ")[1].split(b"\r\n")[0] for _, raw in bob] == [b"Turn 1", b"Only Bob"]
        assert await _fetch_all(servers, "carol@example.org") == []

    arun(scenario())


def test_delivery_uses_crlf_and_stamps_return_path_and_delivered_to(servers: EmbeddedMailServers, arun: Any) -> None:
    async def scenario() -> None:
        await servers.deliver("alice@example.org", b"Subject: bare LF\n\nline one\nline two\n",
                              mail_from="gm@example.org")
        [stored] = await servers.inbox("alice@example.org")
        assert stored.raw == (b"Return-Path: <gm@example.org>\r\nDelivered-To: alice@example.org\r\n"
                              b"Subject: bare LF\r\n\r\nline one\r\nline two\r\n")
        assert stored.flags == frozenset()

    arun(scenario())


def test_stamping_can_be_turned_off(arun: Any) -> None:
    async def scenario() -> None:
        async with EmbeddedMailServers(stamp_headers=False) as servers:
            await servers.deliver("alice@example.org", b"Subject: plain\r\n\r\nx\r\n", mail_from="gm@x")
            [stored] = await servers.inbox("alice@example.org")
            assert stored.raw == b"Subject: plain\r\n\r\nx\r\n"

    arun(scenario())


def test_any_address_logs_in_with_the_shared_password_only(servers: EmbeddedMailServers, arun: Any) -> None:
    async def scenario() -> None:
        client = await _imap_login(servers, "new.player@example.org")
        await client.logout()
        client = aioimaplib.IMAP4("127.0.0.1", servers.imap_port, timeout=5)
        await client.wait_hello_from_server()
        assert (await client.login("new.player@example.org", "wrong")).result == "NO"
        await client.logout()

    arun(scenario())


def test_urls_and_description_point_at_the_running_servers(servers: EmbeddedMailServers) -> None:
    imap = ImapUrl.parse(servers.imap_url("alice@example.org"))
    smtp = SmtpUrl.parse(servers.smtp_url())
    assert (imap.host, imap.port, imap.user, imap.password, imap.mailbox) == (
        "127.0.0.1", servers.imap_port, "alice@example.org", "pbem", "INBOX")
    assert (smtp.host, smtp.port, smtp.security, smtp.user) == ("127.0.0.1", servers.smtp_port, "plain", None)
    text = servers.describe()
    for fact in (str(servers.imap_port), str(servers.smtp_port), "127.0.0.1", "password: pbem",
                 "full e-mail address"):
        assert fact in text


def test_imap_restart_on_the_same_port_keeps_the_mailboxes(servers: EmbeddedMailServers, arun: Any) -> None:
    async def scenario() -> None:
        await servers.deliver("alice@example.org", _mail("alice@example.org", "kept"))
        client = await _imap_login(servers, "alice@example.org")
        port = servers.imap_port
        await servers.stop_imap()
        with pytest.raises(OSError):
            await _imap_login(servers, "alice@example.org")
        await servers.start_imap()
        assert servers.imap_port == port
        assert len(await _fetch_all(servers, "alice@example.org")) == 1
        client.protocol.transport.close()

    arun(scenario())


def test_mailboxes_kept_in_a_folder_hold_their_mail_for_the_next_servers(tmp_path: Path, arun: Any) -> None:
    folder = tmp_path / "mailboxes"

    async def scenario() -> None:
        async with EmbeddedMailServers(mail_dir=folder) as servers:
            await aiosmtplib.send(_mail("alice@example.org", "kept"), sender="gm@example.org",
                                  recipients=["alice@example.org"], hostname="127.0.0.1", port=servers.smtp_port)
            client = await _imap_login(servers, "../outside")  # any login is an account, kept inside the folder
            await client.logout()
            assert "kept in " + str(folder) in servers.describe()
        async with EmbeddedMailServers(mail_dir=folder) as again:
            [(_, raw)] = await _fetch_all(again, "alice@example.org")
            assert b"Subject: kept" in raw
            assert await again.inbox("carol@example.org") == []

    arun(scenario())
    assert {"alice@example.org", "%2E.%2Foutside", "pymap-etc-passwd"} <= {p.name for p in folder.iterdir()}
    assert not (tmp_path / "outside").exists() and folder.stat().st_mode & 0o777 == 0o700


def test_an_account_folder_is_one_folder_name_inside_the_mailboxes() -> None:
    assert mailbox_folder("gm+tag@pbem.localhost") == "gm+tag@pbem.localhost"
    assert mailbox_folder("..") == "%2E."
    assert mailbox_folder("a/../b c") == "a%2F..%2Fb%20c"
    assert mailbox_folder("x" * 300).startswith("account-") and len(mailbox_folder("x" * 300)) == 72


def test_a_login_no_address_could_be_gets_no_account_on_disk(tmp_path: Path, arun: Any) -> None:
    async def scenario() -> None:
        async with EmbeddedMailServers(mail_dir=tmp_path) as servers:
            reader, writer = await asyncio.open_connection("127.0.0.1", servers.imap_port)
            await reader.readline()
            for tag, name in ((b"a", b"ab\r\ncde"), (b"b", b"x" * 300)):  # a line break, or too long
                writer.write(tag + b" LOGIN {%d+}\r\n" % len(name) + name + b" pbem\r\n")
                await writer.drain()
                assert (await reader.readline()).startswith(tag + b" NO ")
            writer.close()

    arun(scenario())
    assert list(tmp_path.iterdir()) == []
