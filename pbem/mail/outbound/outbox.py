"""Send composed mail from a durable queue over SMTP, with retries.

`MailSender.run` drains an `OutboxQueue` (the caller's durable table) over
up to ``connections`` reused SMTP connections at once (default
:data:`DEFAULT_CONNECTIONS`, 4): each
mail goes over the connection its recipients pick, so mail to one address
goes over one connection, in the order it was queued, while mail to others
goes over the others meanwhile (an SMTP transaction is four round trips that
mostly wait for the server; the other connections send while one waits). A
mail is marked sent only after the server accepted it (250 after DATA).
Outcomes:

* accepted for at least one recipient -> ``mark_sent``; recipients refused in
  the same transaction are logged (pbem sends one mail per recipient, so this
  is rare) and not retried, since retrying would send the mail again to the
  others;
* refused with a 5xx code (sender, every recipient, or the data) ->
  ``mark_failed`` at once; also for a mail that cannot be sent at all (an
  address that cannot go on an SMTP command line; the transaction itself is
  :func:`pbem.mail.outbound.transaction.send_mail`);
* everything temporary (4xx, every recipient refused with at least one 4xx,
  connection refused/dropped/timed out, failed login) -> ``mark_retry`` at
  now + retry_min * 2**attempts (capped at retry_max), or ``mark_failed`` once
  max_attempts attempts were made. When the connection itself fails, the rest
  of the claimed batch that was to go over that connection is marked for
  retry too, without being tried.

A connection that was reused and turns out dead (servers drop idle clients)
is reopened and the mail tried again once before anything counts as failed.
Idle connections are closed after idle_disconnect seconds. A restart resumes
where the queue says: the sender keeps no state of its own.

Delivery is at least once, not exactly once. SMTP has no way to ask whether
a message arrived, so a crash after the server's 250 and before ``mark_sent``
is committed (one mail per connection at most: over each connection mails are
sent and marked one by one), or a
connection that drops before the 250 is read, sends that mail again. The
copy is the same message, Message-ID included (the queue stores it whole), so
a receiver that drops duplicates by Message-ID (Sieve ``duplicate``,
``formail -D``, Gmail) shows it once. tests/e2e/test_crash.py checks this.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

import aiosmtplib

from pbem.mail.outbound.config import SmtpUrl
from pbem.mail.outbound.transaction import send_mail
from pbem.ops.health import Outage

__all__ = ["DEFAULT_CONNECTIONS", "MailSender", "OutboxQueue", "OutgoingMail", "SenderStats"]

_log = logging.getLogger(__name__)

_MIN_SLEEP = 0.05

DEFAULT_CONNECTIONS = 4
"""SMTP connections a sender uses at once unless told otherwise. Four, not two: the mail server has a
transaction to work on while pbem waits for another's answer (docs/operators.md, "What a mail costs",
has the measurements)."""

_CONNECTION_ERRORS = (
    OSError,  # includes SMTPServerDisconnected, SMTPConnectError, SMTPTimeoutError
    aiosmtplib.SMTPHeloError,
    aiosmtplib.SMTPAuthenticationError,
)


@dataclass(frozen=True)
class OutgoingMail:
    """One queued mail: envelope and the complete message as it goes on the wire."""

    id: int
    sender: str
    """Envelope sender (MAIL FROM)."""
    recipients: tuple[str, ...]
    raw: bytes
    attempts: int = 0
    """Attempts already made and failed temporarily."""
    purpose: str = "reply"
    """What the mail is: reply, report, reminder or notice (counted by purpose when sent)."""


class OutboxQueue(Protocol):
    """The durable outbox, implemented by the caller; the sender awaits each call, so a queue
    kept in a database can do its work off the event loop (see :mod:`pbem.mail.running.daemon`)."""

    async def claim_due(self, now: datetime, limit: int) -> Sequence[OutgoingMail]:
        """Up to `limit` unsent mails whose next attempt is at or before `now`, oldest first.
        The sender reports each claimed mail with exactly one mark_* call. Claims need not
        survive a restart: after one, every unsent mail is due again at its next attempt."""
        ...

    def holds(self, mail_id: int) -> bool:
        """True while the claim on ``mail_id`` is still this sender's, so it may send the mail; False once
        the claim may have passed to another sender (then the mail is neither sent nor recorded here)."""
        ...

    async def mark_sent(self, mail_id: int, when: datetime) -> None:
        """The server accepted the mail."""
        ...

    async def mark_retry(self, mail_id: int, error: str, next_attempt: datetime) -> None:
        """A temporary failure: count one more attempt, offer the mail again at next_attempt."""
        ...

    async def mark_failed(self, mail_id: int, error: str) -> None:
        """Give up on the mail for good."""
        ...

    async def next_due(self) -> datetime | None:
        """The earliest next attempt among unsent, unclaimed mails; None when there are none."""
        ...


@dataclass
class SenderStats:
    """Counters for tests and benchmarks."""

    sent: int = 0
    sent_by_purpose: Counter[str] = field(default_factory=Counter)
    retried: int = 0
    failed: int = 0
    connects: int = 0


@dataclass
class _Lane:
    """One SMTP connection of the sender, open or not, and when it last sent (event loop time)."""

    smtp: aiosmtplib.SMTP | None = None
    last_used: float = 0.0


@dataclass(frozen=True)
class _Failure:
    error: str
    permanent: bool
    connection: bool = False


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _classify(exc: Exception) -> _Failure:
    """How an exception of a mail transaction counts: permanent or temporary, connection-wide or not."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in exc.recipients]
        detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
        return _Failure(f"all recipients refused: {detail}", permanent=all(c >= 500 for c in codes))
    if isinstance(exc, _CONNECTION_ERRORS):
        return _Failure(f"{type(exc).__name__}: {exc}", permanent=False, connection=True)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return _Failure(
            f"{exc.code} {exc.message}", permanent=exc.code >= 500, connection=exc.code == 421
        )
    return _Failure(f"{type(exc).__name__}: {exc}", permanent=True)


class MailSender:
    """Sends queued mail over one SMTP connection; see the module doc for the outcomes."""

    def __init__(
        self,
        url: SmtpUrl,
        queue: OutboxQueue,
        *,
        batch: int = 10,
        connections: int = DEFAULT_CONNECTIONS,
        max_attempts: int = 8,
        retry_min: float = 60.0,
        retry_max: float = 3600.0,
        timeout: float = 30.0,
        idle_disconnect: float = 60.0,
        poll_interval: float = 60.0,
        local_hostname: str | None = None,
        clock: Callable[[], datetime] = _utc_now,
        sign: Callable[[bytes], bytes] | None = None,
        envelope_sender: Callable[[OutgoingMail], str] | None = None,
        undeliverable: Callable[[str, str], Awaitable[None]] | None = None,
    ) -> None:
        """Configure; nothing connects before run(). Delays in seconds.

        max_attempts counts every attempt (the first included) before a
        temporary failure becomes final. poll_interval bounds how long the
        sender sleeps without a wake or a known retry time. local_hostname is
        the EHLO name (default: this host's FQDN). connections (at least 1)
        bounds the SMTP connections open at once; a batch opens only those its
        mails' recipients pick. sign, when given, turns each mail's bytes into
        what is sent, as they leave (a DKIM signature on top: see
        :class:`~pbem.mail.outbound.dkim_signing.DkimSigner`). envelope_sender, when
        given, is the MAIL FROM of each mail (where its bounces go; the
        mail's own sender otherwise). undeliverable(address, reply) is awaited
        for each recipient the server refused with a 5xx: that address cannot
        be reached.
        """
        if connections < 1:
            raise ValueError(f"connections={connections}: give at least 1")
        self.url = url
        self.queue = queue
        self.batch = batch
        self.max_attempts = max_attempts
        self.retry_min = retry_min
        self.retry_max = retry_max
        self.timeout = timeout
        self.idle_disconnect = idle_disconnect
        self.poll_interval = poll_interval
        self.local_hostname = local_hostname
        self.stats = SenderStats()
        self.outage: Outage | None = None
        """Since when, and why, the SMTP server cannot be reached (None while it can)."""
        self.idle = asyncio.Event()
        """Set while the sender has sent everything that was due when it last looked and was
        not woken since; a caller that queues mail clears it as it sets ``wake``."""
        self._clock = clock
        self._sign = sign
        self._envelope_sender = envelope_sender
        self._undeliverable = undeliverable
        self._lanes = [_Lane() for _ in range(connections)]

    async def run(self, stop: asyncio.Event, wake: asyncio.Event) -> None:
        """Send until `stop` is set (the current batch is finished first). Set `wake` after
        queueing mail to have it sent at once; retries are sent when due. Never raises for
        SMTP trouble: that is recorded in the queue."""
        try:
            while not stop.is_set():
                wake.clear()
                mails = await self.queue.claim_due(self._clock(), self.batch)
                if mails:
                    self.idle.clear()
                    await self._send_batch(mails)
                if len(mails) < self.batch:  # the queue held no more (_sleep returns at once if it does now)
                    if not wake.is_set():
                        self.idle.set()
                    await self._sleep(stop, wake)
        finally:
            for lane in self._lanes:
                await self._disconnect(lane)

    async def _sleep(self, stop: asyncio.Event, wake: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        timeout = self.poll_interval
        due = await self.queue.next_due()
        if due is not None:  # the floor keeps a queue whose next_due disagrees with claim_due from spinning
            timeout = min(timeout, max(_MIN_SLEEP, (due - self._clock()).total_seconds()))
        for lane in self._lanes:
            if lane.smtp is not None:
                idle_left = self.idle_disconnect - (loop.time() - lane.last_used)
                if idle_left <= 0:
                    await self._disconnect(lane)
                else:
                    timeout = min(timeout, idle_left)
        waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(wake.wait())]
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()

    async def _send_batch(self, mails: Sequence[OutgoingMail]) -> None:
        """Send and record every mail of a batch, each over the connection of its recipients (see
        :meth:`_lane_of`), the connections at once; a failure to record (the queue's) is raised once
        every connection is done with its mails."""
        shares: dict[int, list[OutgoingMail]] = {}
        for mail in mails:
            shares.setdefault(self._lane_of(mail), []).append(mail)
        results = await asyncio.gather(*(self._send_share(self._lanes[lane], share) for lane, share in shares.items()),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    def _lane_of(self, mail: OutgoingMail) -> int:
        """The connection a mail goes over: the same for every mail to the same recipients."""
        return zlib.crc32(",".join(mail.recipients).lower().encode()) % len(self._lanes)

    async def _send_share(self, lane: _Lane, mails: Sequence[OutgoingMail]) -> None:
        """Send and record mails one by one over one connection, each while the queue says its claim holds;
        once the connection failed, the rest are recorded as failed the same way without being tried."""
        connection_error: str | None = None
        for mail in mails:
            if not self.queue.holds(mail.id):  # its claim ran out (another sender may send it): not sent twice
                _log.warning("mail %s: the claim on it ran out before it was sent; left to whichever sender "
                             "claims it next", mail.id)
                continue
            if connection_error is not None:
                await self._record(mail, _Failure(connection_error, permanent=False))
                continue
            failure = await self._send(lane, mail)
            await self._record(mail, failure)
            if failure is not None and failure.connection:
                connection_error = failure.error

    async def _record(self, mail: OutgoingMail, failure: _Failure | None) -> None:
        now = self._clock()
        if failure is None:
            await self.queue.mark_sent(mail.id, now)
            self.stats.sent += 1
            self.stats.sent_by_purpose[mail.purpose] += 1
            self.outage = None
            return
        if failure.connection:
            self.outage = Outage.begun(failure.error, self.outage)
        attempts = mail.attempts + 1
        if failure.permanent or attempts >= self.max_attempts:
            why = failure.error if failure.permanent else f"gave up after {attempts} attempts: {failure.error}"
            await self.queue.mark_failed(mail.id, why)
            self.stats.failed += 1
            _log.error("mail %s to %s failed: %s", mail.id, ", ".join(mail.recipients), why)
            return
        delay = min(self.retry_max, self.retry_min * 2**mail.attempts)
        await self.queue.mark_retry(mail.id, failure.error, now + timedelta(seconds=delay))
        self.stats.retried += 1
        _log.warning("mail %s to %s: %s; attempt %d, retrying in %.0fs", mail.id,
                     ", ".join(mail.recipients), failure.error, attempts, delay)

    async def _send(self, lane: _Lane, mail: OutgoingMail) -> _Failure | None:
        """Deliver one mail over ``lane`` (trying twice when a reused connection was dead); None = accepted."""
        reused = lane.smtp is not None
        failure = await self._attempt(lane, mail)
        if failure is not None and failure.connection and reused:
            _log.info("SMTP connection to %s was dead (%s); reconnecting", self.url, failure.error)
            failure = await self._attempt(lane, mail)
        return failure

    async def _attempt(self, lane: _Lane, mail: OutgoingMail) -> _Failure | None:
        try:
            raw = mail.raw if self._sign is None else self._sign(mail.raw)
            envelope = mail.sender if self._envelope_sender is None else self._envelope_sender(mail)
            smtp = await self._connection(lane)
            refused = await send_mail(smtp, envelope, mail.recipients, raw, timeout=self.timeout)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            await self._refused({r.recipient: (r.code, r.message) for r in exc.recipients})
            return _classify(exc)
        except Exception as exc:
            failure = _classify(exc)
            if failure.connection:
                await self._disconnect(lane)
            return failure
        lane.last_used = asyncio.get_running_loop().time()
        for rcpt, response in refused.items():
            _log.warning("mail %s: recipient %s refused: %s %s (sent to the others)",
                         mail.id, rcpt, response.code, response.message)
        await self._refused({rcpt: (response.code, response.message) for rcpt, response in refused.items()})
        return None

    async def _refused(self, refusals: dict[str, tuple[int, str]]) -> None:
        """Report each recipient refused for good (a 5xx) as undeliverable."""
        if self._undeliverable is None:
            return
        for rcpt, (code, message) in refusals.items():
            if code >= 500:
                await self._undeliverable(rcpt, f"{code} {message}".strip())

    async def _connection(self, lane: _Lane) -> aiosmtplib.SMTP:
        if lane.smtp is not None and lane.smtp.is_connected:
            return lane.smtp
        url = self.url
        smtp = aiosmtplib.SMTP(
            hostname=url.host,
            port=url.port,
            username=url.user,
            password=url.password,
            use_tls=url.security == "tls",
            start_tls=url.security == "starttls",
            tls_context=url.ssl_context(),
            timeout=self.timeout,
            local_hostname=self.local_hostname,
        )
        await smtp.connect()
        lane.smtp = smtp
        self.stats.connects += 1
        _log.info("SMTP connected to %s", url)
        return smtp

    async def _disconnect(self, lane: _Lane) -> None:
        smtp, lane.smtp = lane.smtp, None
        if smtp is None or not smtp.is_connected:
            return
        try:
            await asyncio.wait_for(smtp.quit(), 2.0)
        except (OSError, aiosmtplib.SMTPException):
            smtp.close()
