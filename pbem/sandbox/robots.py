"""Robot mail players: somebody with a real mailbox who plays a game by email.

A :class:`MailRobot` reads its mailbox over IMAP (the same
:class:`~pbem.mail.intake.imap.MailIntake` the game master uses: IDLE, every
message once) and sends over SMTP, like a person with a mail program. It
keeps a transcript of everything it sent and received, in order, and can
write it as an mbox file any mail program opens.

:class:`RobotPlayer` adds what a player does (join a game, answer the
newest report with orders, correct orders after the check reply) and
:class:`RobotGm` what a game master does (create and start a game). The
orders themselves come from the caller (for example
:func:`pbem.sandbox.demo.robot_orders`): robots only carry them by mail. Used by
``pbem demo`` and reusable by tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import mailbox
import re
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from types import TracebackType
from typing import Self

import aiosmtplib

from pbem.clock import utcnow
from pbem.mail.intake.imap import MailIntake
from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.sandbox.embedded import EmbeddedMailServers
from pbem.sandbox.mailclient import ReceivedMail, plain_mail, read_mail

__all__ = ["MailMatch", "MailRobot", "RobotGm", "RobotPlayer", "answers", "is_report", "subject_is"]

DEFAULT_TIMEOUT = 20.0
_PASSWORD = re.compile(r"password is ([a-z0-9]+)")
_JOINED = re.compile(r"You joined game (\S+) \(.*?\) as seat (\S+)\.")

MailMatch = Callable[[ReceivedMail], bool]


def subject_is(*subjects: str) -> MailMatch:
    """Match a mail whose subject is one of ``subjects``."""
    return lambda mail: mail.subject in subjects


def is_report(game: str) -> MailMatch:
    """Match a turn report (or the final report) of ``game``."""
    prefix = f"[{game}] "
    return lambda mail: mail.subject.startswith(prefix + "Turn ") or mail.subject == prefix + "Final report"


def answers(message: EmailMessage) -> MailMatch:
    """Match the reply to ``message`` (its In-Reply-To names the message)."""
    message_id = str(message["Message-ID"])
    return lambda mail: mail.in_reply_to == message_id


class MailRobot:
    """One address with a mailbox: sends over SMTP, reads over IMAP, keeps a transcript.

    Use as ``async with MailRobot(...) as robot:``; reading starts on entry
    and stops on exit.
    """

    def __init__(self, address: str, *, imap: ImapUrl, smtp: SmtpUrl, gm_address: str,
                 clock: Callable[[], datetime] = utcnow, idle_recheck: float = 0.5) -> None:
        """Configure; nothing connects before entering the context. ``clock`` dates the
        robot's mail and its transcript."""
        self.address = address
        self.clock = clock
        self.smtp = smtp
        self.gm_address = gm_address
        self.transcript: list[tuple[str, datetime, bytes]] = []  # (sender, when, raw) as sent or received
        self._unread: list[ReceivedMail] = []
        self._arrived = asyncio.Event()
        self._intake = MailIntake(imap, self._take, idle_recheck=idle_recheck, reconnect_min=0.1,
                                  reconnect_max=1.0)
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def on(cls, servers: EmbeddedMailServers, address: str, *, gm_address: str,
           clock: Callable[[], datetime] = utcnow) -> Self:
        """A robot with a mailbox on the embedded ``servers`` (IMAP login = its address)."""
        return cls(address, imap=ImapUrl.parse(servers.imap_url(address)), smtp=SmtpUrl.parse(servers.smtp_url()),
                   gm_address=gm_address, clock=clock)

    async def __aenter__(self) -> Self:
        self._task = asyncio.create_task(self._intake.run(self._stop), name=f"robot {self.address}")
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self._stop.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, timeout=5.0)
            except TimeoutError:
                self._task.cancel()

    async def _take(self, uid: int, raw: bytes) -> None:
        mail = read_mail(raw.replace(b"\r\n", b"\n"))  # IMAP hands over CRLF; text reads better with \n
        self._unread.append(mail)
        self.transcript.append((parseaddr(mail.sender)[1] or "MAILER-DAEMON", self.clock(), raw))
        self._arrived.set()

    async def send(self, body: str, *, subject: str = "orders", to: str | None = None,
                   in_reply_to: str | None = None) -> EmailMessage:
        """Send a plain-text mail (to the game master unless ``to``); return it as sent."""
        message = plain_mail(self.address, to or self.gm_address, subject, body, in_reply_to=in_reply_to)
        message["Date"] = self.clock()
        await aiosmtplib.send(message, hostname=self.smtp.host, port=self.smtp.port, timeout=DEFAULT_TIMEOUT)
        self.transcript.append((self.address, self.clock(), message.as_bytes()))
        return message

    async def reply(self, to: ReceivedMail, body: str) -> EmailMessage:
        """Reply as a mail program does: to the Reply-To (else the sender), ``Re:`` subject, threaded."""
        subject = to.subject if to.subject.lower().startswith("re:") else f"Re: {to.subject}"
        return await self.send(body, subject=subject, to=to.reply_to or self.gm_address,
                               in_reply_to=to.message_id)

    async def expect(self, match: MailMatch, *, timeout: float = DEFAULT_TIMEOUT) -> ReceivedMail:
        """Return the oldest unread mail that ``match`` accepts, waiting for it up to ``timeout``
        seconds (TimeoutError names the address and the subjects that did arrive). Other
        unread mail stays unread."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for index, mail in enumerate(self._unread):
                if match(mail):
                    del self._unread[index]
                    return mail
            remaining = deadline - loop.time()
            if remaining <= 0:
                unread = ", ".join(repr(m.subject) for m in self._unread) or "none"
                raise TimeoutError(f"{self.address}: the expected mail did not come in {timeout:g}s "
                                   f"(unread: {unread})")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), timeout=remaining)

    def write_mbox(self, path: Path) -> Path:
        """Write the transcript (sent and received, in order) to a fresh mbox file at ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        for stale in (path, path.with_name(path.name + ".lock")):
            stale.unlink(missing_ok=True)
        box = mailbox.mbox(str(path), create=True)
        box.lock()
        try:
            for sender, when, raw in self.transcript:
                message = mailbox.mboxMessage(raw.replace(b"\r\n", b"\n"))
                message.set_from(sender, when.astimezone(UTC).timetuple())
                box.add(message)
            box.flush()
        finally:
            box.unlock()
            box.close()
        return path


class RobotPlayer(MailRobot):
    """A robot who joins a game and plays it by replying to the game's mail."""

    game: str = ""
    seat: str = ""
    password: str = ""

    async def join(self, game: str) -> ReceivedMail:
        """Mail ``JOIN game``, remember the seat and password the answer gives; return the answer.

        Raises RuntimeError when the game master did not give a seat (the answer quoted).
        """
        sent = await self.send(f"JOIN {game}\n", subject=f"Join {game}")
        answer = await self.expect(answers(sent))
        joined, password = _JOINED.search(answer.body), _PASSWORD.search(answer.body)
        if joined is None or password is None:
            raise RuntimeError(f"{self.address} could not join {game}: {answer.body.strip()}")
        self.game, self.seat, self.password = joined.group(1), joined.group(2), password.group(1)
        return answer

    async def next_report(self, *, timeout: float = DEFAULT_TIMEOUT) -> ReceivedMail:
        """Wait for the next turn report (or the final report) of the robot's game."""
        return await self.expect(is_report(self.game), timeout=timeout)

    async def send_orders(self, report: ReceivedMail, orders: str) -> ReceivedMail:
        """Reply to ``report`` with ``orders`` (no SIGNON: the reply address signs on) and
        return the game master's check of them."""
        sent = await self.reply(report, orders)
        return await self.expect(answers(sent))

    async def send_orders_with_mistake(self, report: ReceivedMail, orders: str, mistake: str) -> list[ReceivedMail]:
        """Send ``orders`` with the bad line ``mistake`` added; when the check refuses it,
        answer the check with the orders alone. Returns the checks: the first one and,
        when it refused a line, the check of the correction.
        """
        first = await self.send_orders(report, f"{orders.rstrip()}\n{mistake.strip()}\n")
        if "REFUSED" not in first.body:
            return [first]
        return [first, await self.send_orders(first, orders)]


class RobotGm(MailRobot):
    """A robot game master: creates a game by mail and starts it."""

    game: str = ""
    password: str = ""

    async def create(self, kind: str, game: str, options: str = "") -> ReceivedMail:
        """Mail ``CREATE kind game options``, remember the GM password; return the answer.

        Raises RuntimeError when the game master did not create it (the answer quoted).
        """
        sent = await self.send(f"CREATE {kind} {game} {options}".rstrip() + "\n", subject=f"New game {game}")
        answer = await self.expect(answers(sent))
        password = _PASSWORD.search(answer.body)
        if "you are its GM" not in answer.body or password is None:
            raise RuntimeError(f"{self.address} could not create {game}: {answer.body.strip()}")
        self.game, self.password = game, password.group(1)
        return answer

    async def command(self, lines: str) -> ReceivedMail:
        """Mail GM commands for the robot's game (signed on with the GM password); return the answer."""
        sent = await self.send(f"GM {self.game} {self.password}\n{lines.rstrip()}\n", subject=f"GM {self.game}")
        return await self.expect(answers(sent))
