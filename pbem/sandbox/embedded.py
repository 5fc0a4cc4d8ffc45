"""Local mail servers inside this process: a real IMAP server and a real SMTP server.

`EmbeddedMailServers` runs pymap (IMAP) and aiosmtpd (SMTP) in the running event
loop on 127.0.0.1. Every message the SMTP server accepts is delivered into the
INBOX of each recipient, whatever the domain: this is a closed little mail world
for tests, benchmarks and local play.

Accounts: the IMAP login is the full address, exactly as it appeared in
``RCPT TO`` (case-sensitive), and every account has the same password
(``"pbem"`` unless given). An account is created on demand: by the first mail
to it, or by the first login with the shared password. No TLS, no SMTP
authentication; only for loopback use.

Where the mail is kept: in memory (pymap's "dict" backend), gone when the
object is dropped; or, given a ``mail_dir``, on disk (pymap's "maildir"
backend), so that servers started again on the same folder hold every
account and message of before. The folder (mode 0700) holds pymap's account
files (``pymap-etc-passwd``, ``pymap-etc-shadow`` with the shared password)
and one Maildir++ folder per account, named by its address
(:func:`mailbox_folder`). On disk an IMAP server notices mail delivered to a
mailbox a client IDLEs on within a second (pymap's maildir backend looks once
a second), in memory at once; and on disk a message's lines end in LF, as
Maildir keeps them (in memory in CRLF).

pymap quirks handled here: pymap's IDLE only waits for the *next* change of the
mailbox, so a message appended between the client's previous command and its
IDLE was announced only at the following change; and its SEARCH looks only at
the messages the session knew before the command, so a message appended just
before a SEARCH was neither found nor announced (EXISTS) until the next
change either. The servers check for changes before every wait inside IDLE
and before every SEARCH, as Dovecot does (``fix_idle_race=True``); pass False
to get pymap's own behaviour, e.g. to test that a client copes with it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import ssl
from argparse import Namespace
from collections.abc import Callable, Iterable
from contextlib import AsyncExitStack, closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote
from uuid import uuid4

from aiosmtpd.smtp import SMTP, Envelope, Session
from proxyprotocol.sock import SocketInfo
from pymap.backend import dict as memory
from pymap.backend import maildir
from pymap.concurrent import Event, Subsystem
from pymap.config import IMAPConfig
from pymap.context import connection_exit
from pymap.exceptions import InvalidAuth, UserNotFound
from pymap.frozen import frozendict
from pymap.interfaces.login import IdentityInterface, LoginInterface
from pymap.imap import IMAPConnection
from pymap.imap.state import ConnectionState
from pymap.parsing.command.select import IdleCommand, SearchCommand
from pymap.parsing.message import AppendMessage
from pymap.parsing.response import Response, UntaggedResponse
from pymap.parsing.specials import FetchRequirement
from pymap.parsing.specials.flag import Flag
from pymap.selected import SelectedMailbox
from pymap.user import UserMetadata
from pysasl.creds.server import ServerCredentials
from pysasl.hashing import Cleartext

from pbem.addresses import MAX_ADDRESS
from pbem.mail.outbound.config import ImapUrl, SmtpUrl

__all__ = ["DEFAULT_PASSWORD", "EmbeddedMailServers", "NotRunning", "StoredMail", "mailbox_folder"]

_log = logging.getLogger(__name__)

DEFAULT_PASSWORD = "pbem"
_BARE_NEWLINE = re.compile(rb"\r?\n")
_STOP_TIMEOUT = 2.0


class NotRunning(RuntimeError):
    """The server asked about (port, URL) is not running."""


@dataclass(frozen=True)
class StoredMail:
    """One message as the IMAP server holds it."""

    uid: int
    flags: frozenset[str]
    raw: bytes


_GREETING = b"pbem embedded IMAP ready"
"""The IMAP greeting (pymap's default looks up the host's FQDN for every connection)."""
_MAX_FOLDER_NAME = 255
"""Most bytes of one file name on common file systems."""


class _MemoryConfig(memory.Config):
    """pymap's dict config with a fixed greeting."""

    @property
    def greeting(self) -> bytes:
        return _GREETING


class _DiskConfig(maildir.Config):
    """pymap's maildir config with a fixed greeting."""

    @property
    def greeting(self) -> bytes:
        return _GREETING


class _Accounts(LoginInterface):
    """The accounts of either backend: one is created with the shared password the first time a name is
    used (a name no mail address could be, such as one with control characters, is refused on disk)."""

    def __init__(self, login: memory.Login | maildir.Login, password: str) -> None:
        self._login = login
        self._password = password
        self._on_disk = isinstance(login, maildir.Login)

    @property
    def tokens(self) -> Any:
        return self._login.tokens

    def identity(self, name: str) -> IdentityInterface:
        """The account ``name`` (which may not exist yet)."""
        if isinstance(self._login, maildir.Login):
            return maildir.Identity(self._login.config, self._login.tokens, name, None, frozenset())
        return memory.Identity(name, self._login, None, frozenset())

    async def has_user(self, name: str) -> bool:
        """True when the account ``name`` exists."""
        try:
            await self.identity(name).get()
        except UserNotFound:
            return False
        return True

    async def ensure_user(self, name: str) -> IdentityInterface:
        """The account ``name``, created with the shared password when it does not exist."""
        identity = self.identity(name)
        if not await self.has_user(name):
            params = frozendict({"mailbox_path": mailbox_folder(name)}) if self._on_disk else frozendict()
            await identity.set(UserMetadata(self._login.config, name, password=self._password, params=params))
            _log.debug("created mailbox user %s", name)
        return identity

    async def authenticate(self, credentials: ServerCredentials) -> IdentityInterface:
        name = credentials.authcid
        if name:
            if self._on_disk and (len(name) > MAX_ADDRESS or not name.isprintable()):
                raise InvalidAuth()
            await self.ensure_user(name)
        return await self._login.authenticate(credentials)

    async def authorize(self, authenticated: IdentityInterface, authzid: str) -> IdentityInterface:
        return await self._login.authorize(authenticated, authzid)


def mailbox_folder(name: str) -> str:
    """The folder (under the servers' ``mail_dir``) of the account ``name``: the name itself with anything
    but letters, digits and ``@+-_.`` written as ``%XX`` (and a leading ``.`` too), so that it is one
    readable folder name inside the folder and never a path out of it; a name too long for a folder name
    becomes ``account-`` and its SHA-256."""
    folder = quote(name, safe="@+-_.")
    if folder.startswith("."):
        folder = "%2E" + folder[1:]
    if len(folder.encode()) > _MAX_FOLDER_NAME:
        return "account-" + hashlib.sha256(name.encode()).hexdigest()
    return folder


class _IdleRaceFixedState(ConnectionState):
    """Reports changes made before IDLE (or between two IDLE waits) at once instead of waiting, and lets
    SEARCH see (and announce) the messages appended since the session's last command."""

    async def receive_updates(self, cmd: IdleCommand, done: Event) -> Iterable[UntaggedResponse]:
        selected = await self.session.check_mailbox(self.selected)
        self._selected, untagged = selected.fork(cmd)
        pending = list(untagged)
        if pending:
            return pending
        return await super().receive_updates(cmd, done)

    async def do_search(self, cmd: SearchCommand) -> tuple[Response, SelectedMailbox | None]:
        self._selected = await self.session.check_mailbox(self.selected)
        return await super().do_search(cmd)


class _DeliveryHandler:
    """aiosmtpd handler: every accepted message goes to each recipient's INBOX."""

    def __init__(self, servers: EmbeddedMailServers) -> None:
        self._servers = servers

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        refusal = self._servers.refused.get(address.lower())
        if refusal is not None:  # as a real server answers for a mailbox it does not have (or a full one)
            return refusal
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        try:
            for rcpt in envelope.rcpt_tos:
                await self._servers.deliver(rcpt, raw, mail_from=envelope.mail_from)
        except Exception:
            _log.exception("delivery to %s failed", envelope.rcpt_tos)
            return "451 4.3.0 local delivery failed"
        return "250 2.0.0 delivered"


def mailbox_owner(address: str) -> str:
    """Return the account a recipient address delivers to: sub-addresses (``gm+tag@d``)
    go to the base address (``gm@d``), as Postfix and Dovecot deliver them."""
    local, at, domain = address.lower().rpartition("@")
    return f"{local.split('+', 1)[0]}{at}{domain}" if at else address.lower()


def _normalize(raw: bytes) -> bytes:
    """CRLF line endings throughout, as IMAP clients expect."""
    return _BARE_NEWLINE.sub(b"\r\n", raw)


class EmbeddedMailServers:
    """An IMAP and an SMTP server on one host, sharing in-memory mailboxes.

    Ports 0 pick free ports; the actual ones are `imap_port` and `smtp_port`
    once started. Starting takes a few milliseconds. Use as
    ``async with EmbeddedMailServers() as servers:`` or call start()/stop().
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        imap_port: int = 0,
        smtp_port: int = 0,
        password: str = DEFAULT_PASSWORD,
        stamp_headers: bool = True,
        fix_idle_race: bool = True,
        hostname: str = "pbem.localhost",
        mail_dir: Path | None = None,
    ) -> None:
        """Configure, without starting. stamp_headers adds Return-Path and Delivered-To on delivery.
        With ``mail_dir`` the mailboxes are kept in that folder (made, mode 0700, when missing), else in
        memory."""
        self.host = host
        self.mail_dir = mail_dir
        self.password = password
        self.stamp_headers = stamp_headers
        self.fix_idle_race = fix_idle_race
        self.hostname = hostname
        self.delivered = 0
        self.refused: dict[str, str] = {}
        """``address (lower case) -> the reply to its RCPT TO``, e.g. ``550 5.1.1 no such user`` or ``452 4.2.2
        mailbox full``: the server refuses mail to it, as a real one does for a mailbox it does not have."""
        self.on_deliver: list[Callable[[str, bytes], None]] = []
        """Called as ``listener(address, stored_raw)`` after each delivery (benchmarks watch replies)."""
        self._imap_port = imap_port
        self._smtp_port = smtp_port
        self._config = self._imap_config(mail_dir)
        login = (maildir.Login(self._config) if isinstance(self._config, maildir.Config)
                 else memory.Login(self._config))
        self._login = _Accounts(login, password)
        self._imap_server: asyncio.Server | None = None
        self._imap_tasks: set[asyncio.Task[None]] = set()
        self._smtp_server: asyncio.Server | None = None
        self._smtp_protocols: set[SMTP] = set()

    def _imap_config(self, mail_dir: Path | None) -> IMAPConfig:
        """pymap's configuration: the maildir backend in ``mail_dir`` (made when missing), else in memory."""
        common: dict[str, Any] = dict(
            host=self.host, port=self._imap_port, tls_enabled=False,
            ssl_context=ssl.create_default_context(ssl.Purpose.CLIENT_AUTH), hash_context=Cleartext(),
            cpu_subsystem=Subsystem.for_asyncio(), reject_dnsbl=False, invalid_user_sleep=0.0)
        args = Namespace(proxy_protocol=None, passlib_cfg=None)
        if mail_dir is None:
            return _MemoryConfig(args, demo_data=False, demo_user="", demo_password="", **common)
        mail_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        return _DiskConfig(args, base_dir=str(mail_dir), layout="++", colon=None, **common)

    # -- lifecycle ---------------------------------------------------------

    async def start(self) -> None:
        """Start both servers. Raises OSError when a port cannot be bound."""
        await self.start_imap()
        try:
            await self.start_smtp()
        except BaseException:
            await self.stop_imap()
            raise

    async def stop(self) -> None:
        """Stop both servers and close their connections; mailboxes stay until the object is dropped."""
        await self.stop_smtp()
        await self.stop_imap()

    async def __aenter__(self) -> EmbeddedMailServers:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def start_imap(self) -> None:
        """Start (or restart, on the same port as before) the IMAP server; mailboxes are kept."""
        if self._imap_server is not None:
            return
        self._imap_server = await asyncio.start_server(
            self._serve_imap, self.host, self._imap_port, reuse_address=True
        )
        self._imap_port = self._imap_server.sockets[0].getsockname()[1]
        _log.info("embedded IMAP listening on %s:%d", self.host, self._imap_port)

    async def stop_imap(self) -> None:
        """Stop listening and drop every IMAP connection (clients see BYE and a close)."""
        server, self._imap_server = self._imap_server, None
        if server is None:
            return
        server.close()
        tasks = list(self._imap_tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=_STOP_TIMEOUT)
        await server.wait_closed()
        _log.info("embedded IMAP stopped")

    async def start_smtp(self) -> None:
        """Start (or restart, on the same port as before) the SMTP server."""
        if self._smtp_server is not None:
            return
        loop = asyncio.get_running_loop()
        handler = _DeliveryHandler(self)

        def protocol() -> SMTP:
            return _TrackedSMTP(self._smtp_protocols, handler, hostname=self.hostname,
                                enable_SMTPUTF8=True, loop=loop)

        self._smtp_server = await loop.create_server(
            protocol, self.host, self._smtp_port, reuse_address=True
        )
        self._smtp_port = self._smtp_server.sockets[0].getsockname()[1]
        _log.info("embedded SMTP listening on %s:%d", self.host, self._smtp_port)

    async def stop_smtp(self) -> None:
        """Stop listening and close every SMTP connection."""
        server, self._smtp_server = self._smtp_server, None
        if server is None:
            return
        server.close()
        for smtp in list(self._smtp_protocols):
            if smtp.transport is not None:
                smtp.transport.close()
        await server.wait_closed()
        _log.info("embedded SMTP stopped")

    async def _serve_imap(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._imap_tasks.add(task)
        try:
            sock_info = SocketInfo.get(writer, None, unique_id=uuid4().bytes)
            conn = IMAPConnection(self._config.commands, self._config, reader, writer, sock_info)
            state_type = _IdleRaceFixedState if self.fix_idle_race else ConnectionState
            state = state_type(self._login, self._config)
            async with AsyncExitStack() as stack:
                connection_exit.set(stack)
                stack.enter_context(closing(conn))
                await conn.run(state)
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception:
            _log.exception("embedded IMAP connection failed")
        finally:
            self._imap_tasks.discard(task)

    # -- addresses -----------------------------------------------------------

    @property
    def imap_port(self) -> int:
        """The IMAP port in use; raises NotRunning before the first start."""
        if not self._imap_port:
            raise NotRunning("the embedded IMAP server has not been started")
        return self._imap_port

    @property
    def smtp_port(self) -> int:
        """The SMTP port in use; raises NotRunning before the first start."""
        if not self._smtp_port:
            raise NotRunning("the embedded SMTP server has not been started")
        return self._smtp_port

    def imap_url(self, address: str, mailbox: str = "INBOX") -> str:
        """An imap:// URL (config.ImapUrl format) logging in as `address`."""
        url = ImapUrl(self.host, self.imap_port, address, self.password, mailbox)
        return url.to_url()

    def smtp_url(self) -> str:
        """The smtp:// URL (config.SmtpUrl format) of the SMTP server (no authentication)."""
        return SmtpUrl(self.host, self.smtp_port).to_url()

    def describe(self) -> str:
        """How a person points a mail client at these servers."""
        return (
            "Local mail servers (inside this pbem process; "
            + (f"mail is kept in {self.mail_dir}, and stays there when pbem stops" if self.mail_dir
               else "mail is kept in memory only") + "):\n"
            f"  incoming (IMAP): host {self.host}, port {self.imap_port}, no encryption, "
            "normal password\n"
            f"  outgoing (SMTP): host {self.host}, port {self.smtp_port}, no encryption, "
            "no authentication\n"
            "  user name: your full e-mail address, exactly as mail is addressed to it\n"
            f"  password: {self.password}\n"
            "Any address can log in with that password; its mailbox is created on first use.\n"
            "All mail sent to the SMTP server is delivered here, whatever the domain."
        )

    # -- mailboxes -----------------------------------------------------------

    async def add_user(self, address: str) -> None:
        """Create the account for `address` (with the shared password) if it does not exist."""
        await self._login.ensure_user(address)

    async def deliver(self, address: str, raw: bytes, *, mail_from: str | None = None) -> int:
        """Put a message into the INBOX of `address`'s account (sub-address tags dropped,
        see mailbox_owner), as the SMTP server does; returns its UID.

        Line endings become CRLF; with stamp_headers, Return-Path (when
        mail_from is given) and Delivered-To are prepended.
        """
        identity = await self._login.ensure_user(mailbox_owner(address))
        body = _normalize(raw)
        if self.stamp_headers:
            stamp = f"Delivered-To: {address}\r\n".encode()
            if mail_from is not None:
                stamp = f"Return-Path: <{mail_from}>\r\n".encode() + stamp
            body = stamp + body
        async with identity.new_session() as session:
            inbox = await session.mailbox_set.get_mailbox("INBOX")
            message = await inbox.append(
                AppendMessage(body, datetime.now(UTC), frozenset()), recent=True
            )
        self.delivered += 1
        for listener in self.on_deliver:
            listener(address, body)
        return message.uid

    async def inbox(self, address: str) -> list[StoredMail]:
        """The messages in `address`'s INBOX in UID order (empty for an unknown address)."""
        if not await self._login.has_user(address):
            return []
        identity = await self._login.ensure_user(address)
        async with identity.new_session() as session:
            inbox = await session.mailbox_set.get_mailbox("INBOX")
            messages = [msg async for msg in inbox.messages()]
            return [
                StoredMail(
                    msg.uid,
                    _flag_names(msg.permanent_flags),
                    bytes(await msg.load_content(FetchRequirement.CONTENT)),
                )
                for msg in messages
            ]


def _flag_names(flags: Iterable[Flag]) -> frozenset[str]:
    return frozenset(bytes(flag).decode() for flag in flags)


class _TrackedSMTP(SMTP):
    """aiosmtpd's SMTP protocol, registered in a set while connected so stop() can close it."""

    def __init__(self, registry: set[SMTP], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._registry = registry

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._registry.add(self)
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._registry.discard(self)
        super().connection_lost(exc)
