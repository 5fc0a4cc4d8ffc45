"""MailSender against real SMTP servers on 127.0.0.1, with an in-memory queue."""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session

from pbem.mail.outbound.config import SmtpUrl
from pbem.mail.outbound.outbox import MailSender, OutgoingMail
from pbem.sandbox.embedded import EmbeddedMailServers

Until = Callable[..., Awaitable[None]]
StubStarter = Callable[[Any], Awaitable[int]]


@dataclass
class _Entry:
    mail: OutgoingMail
    due: datetime
    status: str = "pending"
    claimed: bool = False
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    sent_at: datetime | None = None


class MemoryQueue:
    """An OutboxQueue in memory, standing in for the SQLite table."""

    def __init__(self) -> None:
        self.entries: dict[int, _Entry] = {}
        self.claims: Counter[int] = Counter()
        self.lost: set[int] = set()
        """Mails whose next claim runs out before they are sent (another sender may have taken them)."""

    def add(self, recipient: str, subject: str, *more_recipients: str) -> int:
        mail_id = len(self.entries) + 1
        raw = f"From: gm@example.org\r\nTo: {recipient}\r\nSubject: {subject}\r\n\r\nreport\r\n".encode()
        mail = OutgoingMail(mail_id, "gm@example.org", (recipient, *more_recipients), raw)
        self.entries[mail_id] = _Entry(mail, datetime.now(UTC))
        return mail_id

    async def claim_due(self, now: datetime, limit: int) -> Sequence[OutgoingMail]:
        due = [e for e in self.entries.values() if e.status == "pending" and not e.claimed and e.due <= now]
        due.sort(key=lambda e: (e.due, e.mail.id))
        for entry in due[:limit]:
            entry.claimed = True
            self.claims[entry.mail.id] += 1
        return [OutgoingMail(e.mail.id, e.mail.sender, e.mail.recipients, e.mail.raw, e.attempts)
                for e in due[:limit]]

    def holds(self, mail_id: int) -> bool:
        if mail_id in self.lost:
            self.lost.discard(mail_id)
            self.entries[mail_id].claimed = False
        return self.entries[mail_id].claimed

    async def mark_sent(self, mail_id: int, when: datetime) -> None:
        entry = self.entries[mail_id]
        assert entry.claimed and entry.status == "pending"
        entry.status, entry.claimed, entry.sent_at = "sent", False, when

    async def mark_retry(self, mail_id: int, error: str, next_attempt: datetime) -> None:
        entry = self.entries[mail_id]
        assert entry.claimed and entry.status == "pending"
        entry.attempts += 1
        entry.errors.append(error)
        entry.due, entry.claimed = next_attempt, False

    async def mark_failed(self, mail_id: int, error: str) -> None:
        entry = self.entries[mail_id]
        assert entry.claimed and entry.status == "pending"
        entry.errors.append(error)
        entry.status, entry.claimed = "failed", False

    async def next_due(self) -> datetime | None:
        return min((e.due for e in self.entries.values() if e.status == "pending" and not e.claimed),
                   default=None)

    def statuses(self) -> list[str]:
        return [entry.status for entry in self.entries.values()]


class StubHandler:
    """aiosmtpd handler: refuses the `refused` recipients, answers DATA with the queued
    replies first, then 250; records sessions."""

    def __init__(self, replies: Sequence[str] = (), refused: dict[str, str] | None = None) -> None:
        self.replies = list(replies)
        self.refused = refused or {}
        self.accepted: list[bytes] = []
        self.sessions: set[int] = set()
        self.data_commands = 0

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if address in self.refused:
            return self.refused[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.sessions.add(id(session))
        self.data_commands += 1
        if self.replies:
            return self.replies.pop(0)
        self.accepted.append(envelope.original_content or b"")
        return "250 2.0.0 queued"


def _sender(port: int, queue: MemoryQueue, **options: Any) -> MailSender:
    options.setdefault("retry_min", 0.05)
    options.setdefault("local_hostname", "pbem.test")
    return MailSender(SmtpUrl.parse(f"smtp://127.0.0.1:{port}"), queue, **options)


async def _running(sender: MailSender) -> tuple[asyncio.Event, asyncio.Event, asyncio.Task[None]]:
    stop, wake = asyncio.Event(), asyncio.Event()
    return stop, wake, asyncio.create_task(sender.run(stop, wake))


async def _stopped(stop: asyncio.Event, task: asyncio.Task[None]) -> None:
    stop.set()
    await asyncio.wait_for(task, 2.0)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_queued_mail_is_delivered_and_marked_sent_over_one_connection(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        queue = MemoryQueue()
        for n in range(5):
            queue.add(f"p{n % 2}@example.org", f"report {n}")
        sender = _sender(servers.smtp_port, queue, connections=1)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["sent"] * 5)
        await _stopped(stop, task)
        assert [len(await servers.inbox(f"p{i}@example.org")) for i in (0, 1)] == [3, 2]
        assert sender.stats.connects == 1 and sender.stats.sent == 5

    arun(scenario())


def test_a_mail_whose_claim_ran_out_is_neither_sent_nor_recorded_but_claimed_again(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        queue = MemoryQueue()
        ids = [queue.add(f"p{n}@example.org", f"reply {n}") for n in range(3)]
        queue.lost.add(ids[1])
        sender = _sender(servers.smtp_port, queue, connections=1)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["sent"] * 3)
        await _stopped(stop, task)
        assert [queue.claims[mail_id] for mail_id in ids] == [1, 2, 1]
        assert [len(await servers.inbox(f"p{n}@example.org")) for n in range(3)] == [1, 1, 1]
        assert sender.stats.sent == 3

    arun(scenario())


class SlowHandler(StubHandler):
    """A StubHandler whose DATA takes ``seconds``, recording how many DATA commands were under way at once
    and the subjects in the order the server accepted them."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.under_way = self.most_at_once = 0

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.under_way += 1
        self.most_at_once = max(self.most_at_once, self.under_way)
        try:
            await asyncio.sleep(self.seconds)
            return await super().handle_DATA(server, session, envelope)
        finally:
            self.under_way -= 1


def _subjects(accepted: Sequence[bytes], recipient: str) -> list[str]:
    return [raw.split(b"Subject: ")[1].split(b"\r\n")[0].decode() for raw in accepted
            if f"To: {recipient}\r\n".encode() in raw]


def test_mail_to_different_recipients_goes_over_two_connections_at_once_in_order_per_recipient(
        smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = SlowHandler(0.05)
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        recipients = [f"p{n}@example.org" for n in range(6)]
        for turn in range(3):
            for recipient in recipients:
                queue.add(recipient, f"{recipient} turn {turn}")
        sender = _sender(port, queue, batch=18, connections=2)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["sent"] * 18)
        await _stopped(stop, task)
        assert handler.most_at_once == 2 and len(handler.sessions) == 2 and sender.stats.connects == 2
        for recipient in recipients:  # one recipient's mail goes over one connection, in the queue's order
            assert _subjects(handler.accepted, recipient) == [f"{recipient} turn {turn}" for turn in range(3)]

    arun(scenario())


def test_one_connection_sends_one_mail_at_a_time(smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = SlowHandler(0.02)
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        for n in range(6):
            queue.add(f"p{n}@example.org", f"report {n}")
        sender = _sender(port, queue, connections=1)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["sent"] * 6)
        await _stopped(stop, task)
        assert handler.most_at_once == 1 and len(handler.sessions) == 1
        assert [_subjects(handler.accepted, f"p{n}@example.org") for n in range(6)] == [[f"report {n}"] for n in range(6)]

    arun(scenario())


def test_a_sender_needs_a_connection() -> None:
    with pytest.raises(ValueError, match="connections=0"):
        _sender(25, MemoryQueue(), connections=0)


def test_one_smtp_session_carries_many_mails(smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = StubHandler()
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        sender = _sender(port, queue, batch=3)
        stop, wake, task = await _running(sender)
        for n in range(7):
            queue.add("p@example.org", f"report {n}")
            wake.set()
            await asyncio.sleep(0.01)
        await until(lambda: queue.statuses() == ["sent"] * 7)
        await _stopped(stop, task)
        assert len(handler.accepted) == 7 and len(handler.sessions) == 1

    arun(scenario())


def test_temporary_refusal_451_is_retried_with_backoff_until_accepted(
        smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = StubHandler(replies=["451 4.3.0 try again later"] * 2)
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        mail_id = queue.add("p@example.org", "report")
        sender = _sender(port, queue, retry_min=0.1)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.entries[mail_id].attempts == 1)
        assert queue.statuses() == ["pending"] and handler.accepted == []
        await until(lambda: queue.statuses() == ["sent"])
        await _stopped(stop, task)
        entry = queue.entries[mail_id]
        assert entry.attempts == 2 and all(e.startswith("451") for e in entry.errors)
        assert len(handler.accepted) == 1 and sender.stats.retried == 2

    arun(scenario())


@pytest.mark.parametrize("refusal", ["data", "rcpt"])
def test_permanent_refusal_550_fails_at_once(
        smtp_stub: StubStarter, arun: Any, until: Until, refusal: str) -> None:
    async def scenario() -> None:
        if refusal == "data":
            handler = StubHandler(replies=["550 5.7.1 message refused"])
        else:
            handler = StubHandler(refused={"nobody@example.org": "550 5.1.1 no such user"})
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        mail_id = queue.add("nobody@example.org", "report")
        queue.add("p@example.org", "next report")
        sender = _sender(port, queue)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["failed", "sent"])
        await _stopped(stop, task)
        entry = queue.entries[mail_id]
        assert entry.attempts == 0 and "550" in entry.errors[0]
        assert sender.stats.connects == 1  # the connection stays usable after a refusal


def test_a_mail_accepted_for_some_recipients_counts_as_sent(
        smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = StubHandler(refused={"gone@example.org": "550 5.1.1 no such user"})
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        queue.add("p@example.org", "report", "gone@example.org")
        sender = _sender(port, queue)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["sent"])
        await _stopped(stop, task)
        assert len(handler.accepted) == 1

    arun(scenario())


def test_every_recipient_refused_with_a_4xx_is_retried(smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = StubHandler(refused={"p@example.org": "450 4.2.1 mailbox busy",
                                       "q@example.org": "550 5.1.1 no such user"})
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        mail_id = queue.add("p@example.org", "report", "q@example.org")
        sender = _sender(port, queue, retry_min=30.0)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.entries[mail_id].attempts == 1)
        await _stopped(stop, task)
        assert queue.statuses() == ["pending"] and "450" in queue.entries[mail_id].errors[0]

    arun(scenario())

    arun(scenario())


def test_temporary_failures_turn_final_after_max_attempts(
        smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        port = await smtp_stub(StubHandler(replies=["452 4.3.1 insufficient storage"] * 10))
        queue = MemoryQueue()
        mail_id = queue.add("p@example.org", "report")
        sender = _sender(port, queue, max_attempts=3, retry_min=0.02)
        stop, _wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["failed"])
        await _stopped(stop, task)
        entry = queue.entries[mail_id]
        assert entry.attempts == 2 and "gave up after 3 attempts" in entry.errors[-1]

    arun(scenario())


def test_unreachable_server_means_retry_for_the_whole_batch_never_sent(arun: Any, until: Until) -> None:
    async def scenario() -> None:
        queue = MemoryQueue()
        for n in range(3):
            queue.add("p@example.org", f"report {n}")
        sender = _sender(_free_port(), queue, retry_min=30.0)
        stop, _wake, task = await _running(sender)
        await until(lambda: all(e.attempts == 1 for e in queue.entries.values()))
        await _stopped(stop, task)
        assert queue.statuses() == ["pending"] * 3 and sender.stats.sent == 0

    arun(scenario())


def test_wake_sends_new_mail_at_once(smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = StubHandler()
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        sender = _sender(port, queue, poll_interval=60.0)
        stop, wake, task = await _running(sender)
        await asyncio.sleep(0.05)
        queue.add("p@example.org", "report")
        wake.set()
        await until(lambda: queue.statuses() == ["sent"], timeout=0.5)
        await _stopped(stop, task)

    arun(scenario())


def test_idle_tells_when_everything_due_was_sent(smtp_stub: StubStarter, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = StubHandler()
        port = await smtp_stub(handler)
        queue = MemoryQueue()
        queue.add("p@example.org", "report 0")
        sender = _sender(port, queue, poll_interval=60.0)
        stop, wake, task = await _running(sender)
        await asyncio.wait_for(sender.idle.wait(), 2.0)
        assert queue.statuses() == ["sent"]
        queue.add("p@example.org", "report 1")
        wake.set()
        sender.idle.clear()  # what a caller queueing mail sees until the sender looked again
        await asyncio.wait_for(sender.idle.wait(), 2.0)
        assert queue.statuses() == ["sent", "sent"]
        await _stopped(stop, task)

    arun(scenario())


def test_a_dropped_connection_is_reopened_without_counting_a_failure(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        queue = MemoryQueue()
        queue.add("p@example.org", "first")
        sender = _sender(servers.smtp_port, queue)
        stop, wake, task = await _running(sender)
        await until(lambda: queue.statuses() == ["sent"])
        await servers.stop_smtp()  # closes the sender's connection
        await servers.start_smtp()
        queue.add("p@example.org", "second")
        wake.set()
        await until(lambda: queue.statuses() == ["sent", "sent"])
        await _stopped(stop, task)
        assert sender.stats.connects == 2 and sender.stats.retried == 0
        assert len(await servers.inbox("p@example.org")) == 2

    arun(scenario())


def test_a_new_sender_resumes_the_queue_left_by_a_stopped_one(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        queue = MemoryQueue()
        for n in range(6):
            queue.add("p@example.org", f"report {n}")
        first = _sender(_free_port(), queue, retry_min=0.2)  # nothing listens there
        stop, _wake, task = await _running(first)
        await until(lambda: all(e.attempts == 1 for e in queue.entries.values()))
        await _stopped(stop, task)
        second = _sender(servers.smtp_port, queue)
        stop, _wake, task = await _running(second)
        await until(lambda: queue.statuses() == ["sent"] * 6)
        await _stopped(stop, task)
        subjects = sorted(m.raw.split(b"Subject: ")[1].split(b"\r\n")[0]
                          for m in await servers.inbox("p@example.org"))
        assert subjects == [b"report %d" % n for n in range(6)]
        assert first.stats.sent == 0 and second.stats.sent == 6

    arun(scenario())
