"""A small mail client for people-like robots, demos, tests and benchmarks.

Sends with aiosmtplib and reads a mailbox of the embedded servers (or any
IMAP server) by polling; everything on the caller's event loop.
"""

from __future__ import annotations

import asyncio
import email
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import default
from email.utils import make_msgid

import aiosmtplib

from pbem.sandbox.embedded import EmbeddedMailServers


@dataclass(frozen=True)
class ReceivedMail:
    """A mail as a reader sees it: headers of interest and the plain-text body."""

    subject: str
    sender: str
    reply_to: str | None
    message_id: str
    in_reply_to: str | None
    references: str | None
    auto_submitted: str | None
    body: str
    html: str | None
    raw: bytes


def read_mail(raw: bytes) -> ReceivedMail:
    """Decode a raw mail into a :class:`ReceivedMail`."""
    message = email.message_from_bytes(raw, policy=default)
    plain = message.get_body(("plain",))
    html = message.get_body(("html",))
    return ReceivedMail(
        subject=str(message["Subject"] or ""),
        sender=str(message["From"] or ""),
        reply_to=str(message["Reply-To"]) if message["Reply-To"] else None,
        message_id=str(message["Message-ID"] or ""),
        in_reply_to=str(message["In-Reply-To"]) if message["In-Reply-To"] else None,
        references=str(message["References"]) if message["References"] else None,
        auto_submitted=str(message["Auto-Submitted"]) if message["Auto-Submitted"] else None,
        body=plain.get_content() if plain is not None else "",
        html=html.get_content() if html is not None and html is not plain else None,
        raw=raw,
    )


def plain_mail(sender: str, to: str, subject: str, body: str, *, in_reply_to: str | None = None) -> EmailMessage:
    """Return a simple text/plain mail as a person's mail program would write it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "example.org")
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = in_reply_to
    message.set_content(body)
    return message


class MailboxReader:
    """Reads one address's mailbox on the embedded servers, remembering what it has seen."""

    def __init__(self, servers: EmbeddedMailServers, address: str) -> None:
        self.servers = servers
        self.address = address
        self.seen = 0

    async def new_mail(self, count: int = 1, *, timeout: float = 15.0) -> list[ReceivedMail]:
        """Wait until ``count`` unseen mails arrived (raises TimeoutError after ``timeout`` s); return them."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            box = await self.servers.inbox(self.address)
            if len(box) >= self.seen + count:
                fresh = box[self.seen : self.seen + count]
                self.seen += count
                return [read_mail(m.raw) for m in fresh]
            if loop.time() >= deadline:
                raise TimeoutError(f"{self.address}: {len(box) - self.seen} of {count} new mails after {timeout}s")
            await asyncio.sleep(0.02)

    async def all_mail(self) -> list[ReceivedMail]:
        """Return every mail in the mailbox (seen or not)."""
        return [read_mail(m.raw) for m in await self.servers.inbox(self.address)]


async def send_mail(servers: EmbeddedMailServers, message: EmailMessage) -> None:
    """Send a mail through the embedded SMTP server."""
    await aiosmtplib.send(message, hostname=servers.host, port=servers.smtp_port)
