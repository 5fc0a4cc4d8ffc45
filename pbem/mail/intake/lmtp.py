"""Mail handed straight to pbem by the mail server over LMTP (RFC 2033), instead of fetched over IMAP.

Postfix, Exim or Dovecot deliver each mail for the game master's address to
``pbem serve --lmtp HOST:PORT`` (or ``--lmtp unix:/path``) as it arrives, so a
reply does not wait for an IMAP server to announce the mail. The listener:

* answers ``550 5.1.1`` to a recipient that is not the game master's address
  nor a plus variant of it (``gm+anything@domain``), and ``452 4.5.3`` past
  :data:`MAX_RECIPIENTS` recipients in one transaction;
* answers ``421 4.3.2`` and closes a connection past :data:`MAX_CONNECTIONS`
  at once (the mail server tries again later), and closes one idle for 5 minutes;
* refuses a mail over the size limit with ``552`` (aiosmtpd's ``SIZE``
  extension and its count of the data; nothing beyond the limit is kept), and
  one with a line over 1,000 characters with ``500``;
* answers once per accepted recipient after the data, as RFC 2033 (4.2)
  requires, whatever the outcome: stored, not stored, refused while the data
  was read (``552``, ``500``) or any error after it (``451 4.3.0``); a mail
  server waiting for the answers it is owed would time out and defer the
  mail again and again;
* stores the mail, with ``Return-Path`` (the envelope sender) and one
  ``Delivered-To`` per recipient written in front as a final delivery agent
  does, and answers ``250`` for each recipient only once the stored mail is
  committed; when it cannot be stored (the database locked, busy, full or
  unreachable, or any other failure) it answers ``451 4.3.0`` for each, so the
  mail server keeps the mail and tries again. A mail delivered again after a
  ``250`` that was lost is recognised by its Message-ID and not stored twice.

The UNIX socket is made with mode 0660 (the mail server's group reaches it)
and removed when the listener stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Awaitable, Callable
from typing import Any, AnyStr, cast

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from pbem.mail.intake.listening import CannotListen, check_port, check_socket_path, is_listened
from pbem.mail.reading.bounded_mime import DEFAULT_MAX_SIZE
from pbem.store import is_transient_error

__all__ = ["MAX_RECIPIENTS", "BadLmtpAddress", "Deliver", "LmtpAddress", "LmtpListener", "LmtpUnavailable",
           "delivered", "is_own_address"]

_log = logging.getLogger(__name__)

MAX_RECIPIENTS = 10
"""Recipients accepted in one LMTP transaction (every one is the game master, so a few suffice)."""
MAX_CONNECTIONS = 50
"""LMTP connections served at once; one more is answered ``421`` and closed (mail servers open a few)."""
NOT_STORED = "451 4.3.0 not stored, try again later"
"""The answer (for each recipient, after the data) when the mail could not be stored: the mail server keeps it."""
LOCAL_ERROR = "451 4.3.0 local error, try again later"
"""The answer to a command that failed for any other reason (after the data: for each recipient)."""
SOCKET_MODE = 0o660
UNIX_PREFIX = "unix:"

Deliver = Callable[[bytes], Awaitable[None]]
"""``async (raw) -> None``: stores a mail durably (committed) before it returns; raises when it cannot."""


class BadLmtpAddress(ValueError):
    """An ``--lmtp`` value that is neither HOST:PORT nor unix:/path."""


class LmtpUnavailable(CannotListen):
    """The LMTP listener cannot listen where it was told (in use, no such folder, no right)."""


@dataclass(frozen=True)
class LmtpAddress:
    """Where the LMTP listener listens: a TCP host and port, or the path of a UNIX socket."""

    host: str = ""
    port: int = 0
    path: Path | None = None

    @classmethod
    def parse(cls, text: str) -> LmtpAddress:
        """Read ``HOST:PORT`` (port 0: any free one), ``[v6-address]:PORT`` or ``unix:/absolute/path``.
        Raises :class:`BadLmtpAddress` for anything else."""
        if text.startswith(UNIX_PREFIX):
            path = Path(text[len(UNIX_PREFIX):])
            if not path.is_absolute():
                raise BadLmtpAddress(f"--lmtp {text}: give the socket's absolute path, e.g. unix:/run/pbem/lmtp")
            return cls(path=path)
        host, colon, port = text.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not colon or not host or not port.isdigit() or int(port) > 65535:
            raise BadLmtpAddress(f"--lmtp {text}: give HOST:PORT (e.g. 127.0.0.1:2424) or unix:/path/to/socket")
        return cls(host=host, port=int(port))

    def check_free(self) -> None:
        """Return when the LMTP listener can listen here now; raise CannotListen naming ``--lmtp``
        otherwise (see :mod:`pbem.mail.intake.listening`)."""
        if self.path is not None:
            check_socket_path(self.path, what="the LMTP listener", option="--lmtp")
        else:
            check_port(self.host, self.port, what="the LMTP listener", option="--lmtp")

    def __str__(self) -> str:
        """The address as ``--lmtp`` takes it."""
        if self.path is not None:
            return f"{UNIX_PREFIX}{self.path}"
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def is_own_address(address: str, own: str) -> bool:
    """True when ``address`` is ``own`` or a plus variant of it (``gm+anything@domain``), in any case."""
    local, at, domain = address.strip().lower().rpartition("@")
    own_local, _, own_domain = own.lower().rpartition("@")
    return bool(at) and domain == own_domain and local.split("+", 1)[0] == own_local


def delivered(raw: bytes, mail_from: str, recipients: list[str]) -> bytes:
    """``raw`` with the header fields a final delivery writes in front: ``Return-Path`` (the envelope
    sender; ``<>`` for a bounce, which pbem then never answers) and a ``Delivered-To`` per recipient."""
    lines = [f"Return-Path: <{mail_from}>\r\n"] + [f"Delivered-To: {rcpt}\r\n" for rcpt in recipients]
    return "".join(lines).encode("utf-8", "surrogateescape") + raw


class _Handler:
    """aiosmtpd's hooks: which recipients are taken, and storing a mail before answering for it."""

    def __init__(self, own_address: str, deliver: Deliver) -> None:
        self._own = own_address
        self._deliver = deliver

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if not is_own_address(address, self._own):
            return f"550 5.1.1 <{address}>: no such mailbox here (this is {self._own})"
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return f"452 4.5.3 too many recipients (at most {MAX_RECIPIENTS} per mail)"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        recipients = list(envelope.rcpt_tos)
        try:
            await self._deliver(delivered(envelope.original_content or b"", envelope.mail_from or "", recipients))
        except Exception as error:
            if is_transient_error(error):
                _log.warning("LMTP: mail from <%s> not stored (%s); the mail server tries again later",
                             envelope.mail_from, error)
            else:
                _log.error("LMTP: mail from <%s> not stored; the mail server tries again later",
                           envelope.mail_from, exc_info=error)
            return NOT_STORED
        return "250 2.0.0 stored"

    async def handle_exception(self, error: Exception) -> str:
        """aiosmtpd's answer to a command that failed here: logged, and a temporary failure (the mail server
        tries again later) rather than aiosmtpd's ``500`` (the mail would bounce)."""
        _log.error("LMTP: a command failed; answered %s", LOCAL_ERROR, exc_info=error)
        return LOCAL_ERROR


class _TrackedLMTP(LMTP):
    """aiosmtpd's LMTP protocol, registered in a set while connected so the listener can close it; a
    connection past ``limit`` is answered 421 and closed before aiosmtpd serves it. After the data, the
    one answer aiosmtpd gives (the handler's, its own 552 or 500 refusals, or its answer to an error) is
    given once per recipient (RFC 2033, 4.2)."""

    def __init__(self, registry: set[LMTP], limit: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._registry = registry
        self._limit = limit
        self._refused = False
        self._owed = 0  # after the data: the recipients owed an answer each

    async def push(self, status: AnyStr) -> None:
        """Send an answer; after ``354`` (the data follows), the next answer goes once per recipient."""
        text = status.decode("utf-8", "surrogateescape") if isinstance(status, bytes) else status
        owed, self._owed = self._owed, 0
        if text.startswith("354") and self.envelope is not None:
            self._owed = len(self.envelope.rcpt_tos)
        await super().push("\r\n".join([text] * max(owed, 1)))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if len(self._registry) >= self._limit:
            self._refused = True
            cast(asyncio.WriteTransport, transport).write(b"421 4.3.2 too many connections, try again later\r\n")
            transport.close()
            return
        self._registry.add(self)
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._registry.discard(self)
        super().connection_lost(exc)


class LmtpListener:
    """Listens for LMTP deliveries at an :class:`LmtpAddress` and hands each accepted mail to ``deliver``."""

    def __init__(self, where: LmtpAddress, *, own_address: str, deliver: Deliver,
                 max_size: int = DEFAULT_MAX_SIZE, max_connections: int = MAX_CONNECTIONS) -> None:
        self.where = where
        self._max_connections = max_connections
        self._handler = _Handler(own_address, deliver)
        self._max_size = max_size
        self._server: asyncio.Server | None = None
        self._connections: set[LMTP] = set()

    @property
    def address(self) -> LmtpAddress:
        """Where it listens (with the port chosen when it was given as 0)."""
        if self._server is None or self.where.path is not None:
            return self.where
        return LmtpAddress(host=self.where.host, port=self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        """Listen (nothing to do when it listens already). Raises :class:`LmtpUnavailable` when the address
        cannot be taken (in use, no such folder, no right)."""
        if self._server is not None:
            return
        loop = asyncio.get_running_loop()
        hostname = socket.getfqdn()  # once: it may ask the DNS

        def protocol() -> LMTP:
            return _TrackedLMTP(self._connections, self._max_connections, self._handler,
                                data_size_limit=self._max_size,
                                enable_SMTPUTF8=True, hostname=hostname, loop=loop)

        try:
            if self.where.path is None:
                self._server = await loop.create_server(protocol, self.where.host, self.where.port,
                                                        reuse_address=True)
            else:
                self._server = await loop.create_unix_server(protocol, sock=_unix_socket(self.where.path))
        except OSError as error:
            raise LmtpUnavailable(f"--lmtp {self.where}: cannot listen there: {error}") from error
        _log.info("LMTP listening on %s", self.address)

    async def stop(self) -> None:
        """Stop listening, close every connection (a delivery under way gets no answer, so the mail server
        tries it again), and remove the UNIX socket."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for connection in list(self._connections):
            if connection.transport is not None:
                connection.transport.close()
        await server.wait_closed()
        if self.where.path is not None:
            with contextlib.suppress(FileNotFoundError):
                self.where.path.unlink()
        _log.info("LMTP stopped")

    async def run(self, stop: asyncio.Event) -> None:
        """Listen until ``stop`` is set."""
        await self.start()
        try:
            await stop.wait()
        finally:
            await self.stop()


def _unix_socket(path: Path) -> socket.socket:
    """A listening UNIX socket at ``path`` with mode 0660 before it listens (a stale socket file left by a
    process that died is replaced). Raises OSError when another process listens there."""
    if is_listened(path):
        raise OSError(f"another process listens on {path}")
    if path.is_socket():
        path.unlink()  # nobody listens: left by a process that died
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        os.chmod(path, SOCKET_MODE)
        sock.listen(100)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock
