"""Starting the daemon from the command line: configuration, embedded servers, signals."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from collections.abc import Awaitable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from sqlalchemy.engine import make_url

from pbem.mail.outbound.config import ImapUrl, SendRate, SmtpUrl
from pbem.mail.running.daemon import (
    DEFAULT_MAIL_BUDGET,
    DaemonOptions,
    MailDaemon,
    reply_tokens,
    single_daemon,
    tune_gc_for_serving,
)
from pbem.mail.intake.listening import CannotListen, check_port
from pbem.mail.intake.lmtp import LmtpAddress
from pbem.mail.outbound.outbox import DEFAULT_CONNECTIONS
from pbem.ops.figures import RECOUNT_SECONDS
from pbem.ops.metrics import metrics_registry
from pbem.sandbox.embedded import EmbeddedMailServers
from pbem.service.api import GameService
from pbem.service.compaction import DEFAULT_COMPACT_AFTER
from pbem.store import open_database
from pbem.store.database import database_url
from pbem.web.app import make_app, parse_listen
from pbem.web.ops import OpsView, database_health, not_started
from pbem.web.server import WebLimits, WebServer

if TYPE_CHECKING:
    from pbem.mail.outbound.dkim_signing import DkimSigner

DEFAULT_ADDRESS = "gm@pbem.localhost"
EMBEDDED_HOST = "127.0.0.1"
"""Where the embedded mail servers listen."""
STUCK_SECONDS = 120.0
"""On PostgreSQL: a daemon whose transaction stands still this long (it hangs while it holds a mail's or a
game's lock) has its session ended by the server, so another daemon takes the mail or the game over."""


async def serve(
    *,
    db_path: str,
    imap: str | None,
    smtp: str | None,
    address: str,
    imap_port: int,
    smtp_port: int,
    out: TextIO,
    stop: asyncio.Event | None = None,
    secret_file: Path | None = None,
    retention: timedelta = timedelta(days=7),
    compact_after: timedelta = DEFAULT_COMPACT_AFTER,
    web: str | None = None,
    web_url: str | None = None,
    web_limits: WebLimits | None = None,
    smtp_connections: int = DEFAULT_CONNECTIONS,
    lmtp: str | None = None,
    mail_budget: float = DEFAULT_MAIL_BUDGET,
    dkim: DkimSigner | None = None,
    trusted_authserv: tuple[str, ...] = (),
    send_rate: SendRate | None = None,
    mailboxes: Path | None = None,
) -> None:
    """Run the game master until ``stop`` is set (or SIGINT/SIGTERM).

    With neither ``imap`` nor ``smtp`` (nor ``lmtp``), embedded IMAP and SMTP
    servers are started on 127.0.0.1 and described on ``out``; their mailboxes are
    kept on disk in ``mailboxes`` (default beside the database, :func:`mailboxes_dir`),
    so a restart keeps them. With ``lmtp``
    (HOST:PORT or unix:/path) the mail server hands mail over by LMTP there,
    and the replies leave through ``smtp``, which must be given; with ``lmtp``
    and no ``imap`` no mailbox is read at all. With ``web`` (HOST:PORT)
    the web archive is served from the same process, in a thread and event
    loop of its own, within ``web_limits`` (connections at once, idle time;
    with the daemon's ``/healthz`` and ``/metrics``), and every mail to a
    seat carries its private link under ``web_url`` (default the address
    listened on). The sender uses up to ``smtp_connections`` SMTP connections
    at once, and handling one mail may take ``mail_budget`` seconds. ``dkim`` signs every mail sent;
    ``trusted_authserv`` names the receiving servers whose DMARC verdict on a From pbem believes;
    ``send_rate`` bounds the mail sent in a period. Raises BadMailUrl for a bad URL and
    ValueError when only one of the two servers is given (``lmtp`` without ``smtp``), ``web`` is no
    HOST:PORT or ``lmtp`` neither HOST:PORT nor unix:/path, CannotListen (LmtpUnavailable for
    the LMTP listener) when a port to listen on is taken: asked before the database is opened, so
    nothing is created then,
    :class:`~pbem.mail.running.daemon.AnotherDaemon` (a ValueError) when another daemon
    serves the same SQLite file, and :class:`~pbem.mail.running.daemon.DaemonFailed`
    when a part of the daemon kept failing.
    """
    if smtp is None and lmtp is not None:
        raise ValueError("give --smtp with --lmtp: the replies leave through it")
    if (imap is None) != (smtp is None) and lmtp is None:
        raise ValueError("give both --imap and --smtp, or neither (to use the embedded servers)")
    lmtp_address = LmtpAddress.parse(lmtp) if lmtp is not None else None
    listen = parse_listen(web) if web else None
    if smtp is None:
        check_port(EMBEDDED_HOST, imap_port, what="the embedded IMAP server", option="--imap-port")
        check_port(EMBEDDED_HOST, smtp_port, what="the embedded SMTP server", option="--smtp-port")
    if lmtp_address is not None:
        lmtp_address.check_free()
    if listen is not None:
        check_port(*listen, what="the web archive", option="--web")
    stop = stop_on_signals(stop)
    db = open_database(db_path, stuck_seconds=STUCK_SECONDS)
    try:
        with single_daemon(db):
            async with contextlib.AsyncExitStack() as stack:
                imap_url: ImapUrl | None
                if smtp is None:
                    servers = EmbeddedMailServers(host=EMBEDDED_HOST, imap_port=imap_port, smtp_port=smtp_port,
                                                  mail_dir=mailboxes or mailboxes_dir(db_path))
                    await _listening(servers.start(), "the embedded mail servers", "--imap-port and --smtp-port")
                    stack.push_async_callback(servers.stop)
                    await servers.add_user(address)
                    imap_url, smtp_url = ImapUrl.parse(servers.imap_url(address)), SmtpUrl.parse(servers.smtp_url())
                    out.write(servers.describe() + "\n")
                else:
                    imap_url, smtp_url = (ImapUrl.parse(imap) if imap else None), SmtpUrl.parse(smtp)
                ops = OpsView(metrics_registry(db), not_started)
                web_service = GameService(db)
                if listen is not None:
                    web_server = WebServer(make_app(web_service, reply_tokens(db, secret_file), ops=ops), *listen,
                                           limits=web_limits)
                    await _listening(web_server.start(), "the web archive", "--web")
                    stack.push_async_callback(web_server.stop)
                    web_url = web_url or web_server.url
                daemon = MailDaemon(db, imap=imap_url, smtp=smtp_url, address=address, web_url=web_url,
                                    lmtp=lmtp_address,
                                    options=DaemonOptions(secret_file=secret_file, retention=retention,
                                                          compact_after=compact_after,
                                                          smtp_connections=smtp_connections,
                                                          mail_budget=mail_budget, dkim=dkim,
                                                          trusted_authserv=trusted_authserv,
                                                          send_rate=send_rate))
                watch_daemon(ops, daemon)
                web_service.on_news.extend(daemon.service.on_news)  # an unsubscribe on the web: its GMs hear of it
                taking = [f"watching {imap_url}"] if imap_url is not None else []
                if daemon.lmtp is not None:  # listening before it says it serves (the daemon's run keeps it)
                    await daemon.lmtp.start()
                    stack.push_async_callback(daemon.lmtp.stop)
                    taking.append(f"taking LMTP deliveries at {daemon.lmtp.address}")
                out.write(f"pbem serves as {address}: mail HELP to it for the commands. Database: {shown(db_path)}.\n")
                intake = " and ".join(taking)
                out.write(f"{intake[:1].upper()}{intake[1:]}, sending through {smtp_url}. Stop with Ctrl-C.\n")
                if listen is not None:
                    out.write(f"The web archive is at {web_server.url}/ (links in mail: {web_url}/...), "
                              "health at /healthz, metrics at /metrics.\n")
                out.flush()
                tune_gc_for_serving()
                await daemon.run(stop)
    finally:
        db.close()


def mailboxes_dir(db_path: str) -> Path:
    """Where the embedded mail servers keep their mailboxes: beside the SQLite file (``pbem.db`` keeps
    them in ``pbem.db-mailboxes``), or for a database URL of a server in ``pbem-mailboxes`` in the
    working directory."""
    url = make_url(database_url(db_path))
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return Path(f"{url.database}-mailboxes")
    return Path("pbem-mailboxes")


async def _listening(starting: Awaitable[None], what: str, options: str) -> None:
    """Await ``starting`` (a server beginning to listen); a port taken since it was checked is a
    CannotListen naming ``options``, as when it was taken before."""
    try:
        await starting
    except OSError as error:
        raise CannotListen(f"{what} cannot listen: {error.strerror or error}; give another port with {options}") \
            from None


def watch_daemon(ops: OpsView, daemon: MailDaemon, *, recount_seconds: float = RECOUNT_SECONDS) -> None:
    """Have ``ops`` (the web's ``/healthz`` and ``/metrics``) show ``daemon``: its health, and its figures
    beside its database's (see :func:`~pbem.ops.metrics.metrics_registry`)."""
    ops.registry = metrics_registry(daemon.db, (daemon.metrics, daemon.view()), recount_seconds=recount_seconds)
    ops.health = daemon.verdict


def shown(db_path: str) -> str:
    """A database path or URL as it may be printed: a URL's password left out."""
    if "://" not in db_path:
        return db_path
    return make_url(db_path).render_as_string(hide_password=True)


_CHATTY = ("aiosmtplib", "aioimaplib", "aioimaplib.aioimaplib", "alembic", "alembic.runtime.migration",
           "mail.log", "pymap", "asyncio")
"""Libraries whose per-connection and start-up lines go below the default level."""
LOG_FIELDS = ("inbound", "sender", "game", "seat", "done", "ms", "turn", "reason")
"""The structured fields a log line may carry (``extra=``), written as keys in JSON lines."""


class JsonLineFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the structured fields of the record."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as one line of JSON."""
        line = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"), "level": record.levelname,
                "logger": record.name, "message": record.getMessage()}
        line.update({key: getattr(record, key) for key in LOG_FIELDS if hasattr(record, key)})
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure_logging(level: str = "INFO", log_format: str = "text") -> None:
    """Log to standard error at ``level`` (DEBUG, INFO, WARNING, ERROR), as text lines or JSON lines.

    pbem logs one line per handled mail and per resolved turn at INFO; the
    chatter of the mail and migration libraries only shows at DEBUG.
    Raises ValueError for an unknown level or format.
    """
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"--log-level {level}: give DEBUG, INFO, WARNING or ERROR")
    if log_format not in ("text", "json"):
        raise ValueError(f"--log-format {log_format}: give text or json")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLineFormatter() if log_format == "json"
                         else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(number)
    for name in _CHATTY:
        logging.getLogger(name).setLevel(max(number, logging.WARNING) if number > logging.DEBUG else logging.DEBUG)


async def serve_web(*, db_path: str, listen: str, out: TextIO, stop: asyncio.Event | None = None,
                    secret_file: Path | None = None, limits: WebLimits | None = None) -> None:
    """Serve the web archive alone at ``listen`` (HOST:PORT) over the database at ``db_path``, within
    ``limits``, until ``stop`` is set (or SIGINT/SIGTERM); private links are checked with the key of
    ``pbem serve`` (``secret_file`` when it keeps it in a file). Raises ValueError when ``listen`` is no
    HOST:PORT, and CannotListen, before the database is opened, when the port is taken."""
    host, port = parse_listen(listen)
    check_port(host, port, what="the web archive", option="pbem web HOST:PORT")
    stop = stop_on_signals(stop)
    db = open_database(db_path)
    ops = OpsView(metrics_registry(db), database_health(db))
    alone = replace(limits or WebLimits(), cpu_share=None)  # no mail to leave the processor to
    web_server = WebServer(make_app(GameService(db), reply_tokens(db, secret_file), ops=ops), host, port,
                           limits=alone)
    try:
        await _listening(web_server.start(), "the web archive", "pbem web HOST:PORT")
        out.write(f"The web archive of {shown(db_path)} is at {web_server.url}/. Stop with Ctrl-C.\n")
        out.flush()
        await stop.wait()
    finally:
        await web_server.stop()
        db.close()


def stop_on_signals(stop: asyncio.Event | None = None) -> asyncio.Event:
    """Return ``stop`` (a new event when None), set by SIGINT or SIGTERM when this is the main thread."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread
            pass
    return stop
