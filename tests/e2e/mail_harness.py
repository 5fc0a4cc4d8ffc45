"""Test harness: real embedded IMAP and SMTP servers on 127.0.0.1, the real daemon on a
real database (a SQLite file, or PostgreSQL with ``--db-engine postgresql``), a clock the
test moves, and players who send and read mail."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from databases import database_url

from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.mail.running.daemon import DaemonOptions, MailDaemon
from pbem.sandbox.embedded import EmbeddedMailServers
from pbem.sandbox.mailclient import MailboxReader, ReceivedMail, plain_mail, send_mail
from pbem.service.api import GameService
from pbem.store import open_database

GM_ADDRESS = "gm@pbem.test"


class MovableClock:
    """A clock that stands still until the test moves it."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move the clock forward by a timedelta's keyword arguments."""
        self.now += timedelta(**delta)


class Person:
    """Somebody with a mailbox who writes to the game master."""

    def __init__(self, harness: MailHarness, address: str) -> None:
        self.harness = harness
        self.address = address
        self.inbox = MailboxReader(harness.servers, address)

    async def send(self, body: str, *, subject: str = "orders", to: str = GM_ADDRESS,
                   in_reply_to: str | None = None) -> None:
        """Send a plain mail."""
        await send_mail(self.harness.servers, plain_mail(self.address, to, subject, body, in_reply_to=in_reply_to))

    async def send_message(self, message: EmailMessage) -> None:
        """Send a prepared mail as is."""
        await send_mail(self.harness.servers, message)

    async def reply(self, to: ReceivedMail, body: str) -> None:
        """Reply to a mail the way a mail program does: to its Reply-To, subject Re:, threaded."""
        subject = to.subject if to.subject.lower().startswith("re:") else f"Re: {to.subject}"
        await self.send(body, subject=subject, to=to.reply_to or GM_ADDRESS, in_reply_to=to.message_id)

    async def receive(self, count: int = 1, *, timeout: float = 15.0) -> list[ReceivedMail]:
        """Wait for ``count`` new mails."""
        return await self.inbox.new_mail(count, timeout=timeout)

    async def last(self, *, timeout: float = 15.0) -> ReceivedMail:
        """Wait for one new mail and return it."""
        return (await self.receive(1, timeout=timeout))[0]


class MailHarness:
    """Servers, daemon, database and clock of one test."""

    def __init__(self, servers: EmbeddedMailServers, daemon: MailDaemon, clock: MovableClock, db_url: str) -> None:
        self.servers = servers
        self.daemon = daemon
        self.clock = clock
        self.db_url = db_url
        """The database's file path (SQLite) or URL."""

    @property
    def runner(self) -> GameService:
        """The daemon's game service (same database)."""
        return self.daemon.service

    def person(self, address: str) -> Person:
        """A person with the given address."""
        return Person(self, address)

    async def settle(self, seconds: float = 0.3) -> None:
        """Give the daemon a moment (for asserting that nothing happens)."""
        await asyncio.sleep(seconds)


# The budget of one mail when a test gives no options of its own: the tests of budgets set theirs; the others
# are about what a mail does, which a loaded test machine must not turn into "ran over its budget".
TEST_MAIL_BUDGET = 10.0


@asynccontextmanager
async def running_service(tmp_path: Path, *, clock: MovableClock | None = None,
                          options: DaemonOptions | None = None, web_url: str | None = None,
                          db_url: str | None = None) -> AsyncIterator[MailHarness]:
    """Start the servers and the daemon (with ``options``, or quick test timings; with ``web_url`` its mail
    carries private web links under it) on ``db_url``, or on a new database of the run's engine; stop both
    at the end."""
    clock = clock or MovableClock()
    db_url = db_url or database_url(tmp_path)
    async with EmbeddedMailServers() as servers:
        await servers.add_user(GM_ADDRESS)
        db = open_database(db_url)
        daemon = MailDaemon(
            db, imap=ImapUrl.parse(servers.imap_url(GM_ADDRESS)), smtp=SmtpUrl.parse(servers.smtp_url()),
            address=GM_ADDRESS, clock=clock, web_url=web_url,
            options=options or DaemonOptions(idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.1,
                                             mail_budget=TEST_MAIL_BUDGET),
        )
        stop = asyncio.Event()
        task = asyncio.create_task(daemon.run(stop))
        try:
            yield MailHarness(servers, daemon, clock, db_url)
        finally:
            stop.set()
            await asyncio.wait_for(task, timeout=15)
            db.close()
