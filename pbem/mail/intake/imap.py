"""Take incoming mail from an IMAP mailbox, once each, and hand it to the game master.

`MailIntake.run` keeps a connection to the mailbox and calls
``await handler(uid, raw)`` for every message not yet marked as taken, in UID
order (or ``await batch_handler(messages)`` once for the messages of each
FETCH). The handler must have stored the message durably when it returns; only
then does the intake mark the message on the server: ``\\Seen`` plus the
keyword ``$PbemTaken`` when the mailbox accepts keywords (PERMANENTFLAGS has
``\\*``). Messages are never deleted or moved.

Which messages count as new: with keywords, those without ``$PbemTaken``
(reading a mail in a mail client does not hide it from the intake); without
keywords (pymap, some servers), those without ``\\Seen``.

Delivery to the handler is at least once: flags are stored once per fetched
chunk, so if the connection drops after the handler returned and before the
flags reached the server, the message is handed over again on the next pass.
The handler should treat a message it already has (same Message-ID, or same
UID in the same mailbox) as done.

A handler that raises leaves its message unmarked; it is retried after a
growing delay (retry_min doubling up to retry_max) while the other messages
go on. Waiting for new mail uses IDLE when the server offers it (and
use_idle is true), otherwise a SEARCH every poll_interval seconds. IDLE is not
trusted alone: an IDLE is ended and the mailbox searched again after
idle_recheck seconds without news (this covers wake-ups a server loses, such
as pymap's, and servers that push late), EXISTS in any response starts a new
search, and no IDLE lasts longer than idle_renew. A dropped connection is
reopened after an exponential, jittered, capped delay; each is logged.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import aioimaplib

from pbem.mail.outbound.config import ImapUrl
from pbem.ops.health import Outage

__all__ = [
    "TAKEN_KEYWORD",
    "BatchHandler",
    "Handler",
    "ImapCommandFailed",
    "ImapConnectionLost",
    "IntakeStats",
    "MailIntake",
]

_log = logging.getLogger(__name__)

Handler = Callable[[int, bytes], Awaitable[None]]
"""``async (uid, raw) -> None``; returns only once the message is durably stored."""

BatchHandler = Callable[[Sequence[tuple[int, bytes]]], Awaitable[Sequence[Exception | None]]]
"""``async [(uid, raw), ...] -> [error, ...]``: takes the messages of one FETCH at once, in UID order, and
returns only once each is durably stored (error None) or failed (the exception that kept it from being
stored, one per message)."""

TAKEN_KEYWORD = "$PbemTaken"

_T = TypeVar("_T")
_EXISTS = re.compile(rb"^\d+ (EXISTS|RECENT)\b", re.IGNORECASE)
_FETCH_START = re.compile(rb"^\d+ FETCH \(", re.IGNORECASE)
_FETCH_UID = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_PERMANENT_FLAGS = re.compile(rb"\[PERMANENTFLAGS \(([^)]*)\)\]", re.IGNORECASE)
_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]", re.IGNORECASE)


class ImapCommandFailed(Exception):
    """The server answered an IMAP command with NO or BAD (the message names the command)."""


class ImapConnectionLost(ConnectionError):
    """The connection to the IMAP server closed while the intake was using it."""


_SESSION_ERRORS = (OSError, TimeoutError, aioimaplib.AioImapException, ImapCommandFailed)


@dataclass
class IntakeStats:
    """Counters for tests and benchmarks."""

    taken: int = 0
    """Messages the handler accepted (and that were then marked on the server)."""
    handler_failures: int = 0
    connects: int = 0
    """Successful logins (the first one included)."""
    reconnects: int = 0
    """Times a connection failed or dropped and the intake tried again."""
    searches: int = 0


def _uid_set(uids: Iterable[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"1:3,7"``."""
    ranges: list[str] = []
    ordered = sorted(set(uids))
    start = prev = ordered[0]
    for uid in [*ordered[1:], 0]:
        if uid == prev + 1:
            prev = uid
            continue
        ranges.append(str(start) if start == prev else f"{start}:{prev}")
        start = prev = uid
    return ",".join(ranges)


def _chunks(items: Sequence[_T], size: int) -> Iterator[Sequence[_T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def parse_fetch(lines: Sequence[bytes | bytearray]) -> list[tuple[int, bytes]]:
    """(UID, literal) pairs from an aioimaplib ``UID FETCH ... (UID BODY.PEEK[])`` response.

    Literals are the bytearray items; the UID may come before or after the
    literal. Untagged FETCH responses without a literal (flag updates) are skipped.
    """
    found: list[tuple[int, bytes]] = []
    uid: int | None = None
    body: bytes | None = None

    def flush() -> None:
        if uid is not None and body is not None:
            found.append((uid, body))

    for line in lines:
        if isinstance(line, bytearray):
            body = bytes(line)
            continue
        if _FETCH_START.match(line):
            flush()
            uid, body = None, None
        match = _FETCH_UID.search(line)
        if match:
            uid = int(match.group(1))
    flush()
    return found


class _ImapSession:
    """One logged-in connection with the mailbox selected."""

    def __init__(self, url: ImapUrl, *, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
        self.news = False
        self.has_idle = False
        self.keywords = False
        self.uidvalidity: int | None = None
        # Every message with a lower UID was marked taken when this connection last searched:
        # searches start here, so one costs the server the new messages, not the whole mailbox.
        self.floor = 1
        self._lost = asyncio.Event()
        self._client: aioimaplib.IMAP4 | None = None
        self._idle_task: asyncio.Future[Any] | None = None

    def _connection_lost(self, exc: Exception | None) -> None:
        self._lost.set()

    @property
    def client(self) -> aioimaplib.IMAP4:
        assert self._client is not None, "open() first"
        return self._client

    async def open(self) -> None:
        """Connect, log in, learn capabilities, SELECT. Raises one of _SESSION_ERRORS."""
        url = self.url
        self._client = aioimaplib.IMAP4(
            url.host, url.port, timeout=self.timeout,
            conn_lost_cb=self._connection_lost, ssl_context=url.ssl_context(),
        )
        await self.client.wait_hello_from_server()
        await self._call("LOGIN", self.client.login(url.user, url.password))
        await self._call("CAPABILITY", self.client.protocol.capability())
        self.has_idle = self.client.has_capability("IDLE")
        selected = await self._call("SELECT", self.client.select(url.mailbox))
        joined = b"\n".join(bytes(line) for line in selected.lines)
        flags = _PERMANENT_FLAGS.search(joined)
        permanent = flags.group(1).split() if flags else []
        self.keywords = b"\\*" in permanent or TAKEN_KEYWORD.encode() in permanent
        validity = _UIDVALIDITY.search(joined)
        self.uidvalidity = int(validity.group(1)) if validity else None

    async def close(self) -> None:
        """Log out politely if still connected, then close; never raises."""
        client, self._client = self._client, None
        if self._idle_task is not None and not self._idle_task.done():
            self._idle_task.cancel()
        if client is None:
            return
        try:
            if not self._lost.is_set() and client.get_state() in ("AUTH", "SELECTED"):
                await asyncio.wait_for(client.logout(), 1.0)
        except _SESSION_ERRORS:
            pass
        finally:
            transport = client.protocol.transport
            if transport is not None:
                transport.close()

    async def _call(self, name: str, command: Awaitable[Any]) -> Any:
        """Await an aioimaplib command: fails fast if the connection drops, raises
        TimeoutError after `timeout`, ImapCommandFailed on NO/BAD; notes EXISTS."""
        task = asyncio.ensure_future(command)
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            done, _ = await asyncio.wait({task, lost}, timeout=self.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not task.done():
                task.cancel()
        if task not in done:
            if lost in done:
                raise ImapConnectionLost(f"{name}: connection to {self.url.host}:{self.url.port} lost")
            raise TimeoutError(f"{name}: no answer within {self.timeout:g}s")
        response = task.result()
        if not isinstance(response, aioimaplib.Response):
            return response
        self._note(response.lines)
        if response.result != "OK":
            last = response.lines[-1] if response.lines else b""
            raise ImapCommandFailed(f"{name}: {response.result} {bytes(last).decode(errors='replace')}")
        return response

    def _note(self, lines: Iterable[bytes | bytearray]) -> None:
        if any(not isinstance(line, bytearray) and _EXISTS.match(line) for line in lines):
            self.news = True

    async def unhandled(self) -> list[int]:
        """UIDs of the messages not yet marked as taken, ascending (from UID ``floor`` on)."""
        criteria = f"UNKEYWORD {TAKEN_KEYWORD}" if self.keywords else "UNSEEN"
        if self.floor > 1:
            criteria = f"UID {self.floor}:* {criteria}"
        response = await self._call("SEARCH", self.client.uid_search(criteria, charset=None))
        uids: set[int] = set()
        for line in response.lines[:-1]:
            uids.update(int(tok) for tok in bytes(line).split() if tok.isdigit())
        return sorted(uids)

    async def fetch(self, uids: Sequence[int]) -> list[tuple[int, bytes]]:
        """(UID, raw message) for those of `uids` still in the mailbox, without setting \\Seen."""
        response = await self._call("FETCH", self.client.uid("fetch", _uid_set(uids), "(UID BODY.PEEK[])"))
        return parse_fetch(response.lines)

    async def mark(self, uids: Sequence[int]) -> None:
        """Flag `uids` as taken."""
        flags = f"(\\Seen {TAKEN_KEYWORD})" if self.keywords else "(\\Seen)"
        await self._call("STORE", self.client.uid("store", _uid_set(uids), "+FLAGS.SILENT", flags))

    async def wait_for_news(self, timeout: float, stop: asyncio.Event, *, idle: bool) -> None:
        """Return after `timeout` seconds, on news (EXISTS during IDLE) or when `stop` is set."""
        if idle:
            await self._idle(timeout, stop)
        else:
            await _wait_any(timeout, stop.wait(), self._lost.wait())
        if self._lost.is_set():
            raise ImapConnectionLost(f"connection to {self.url.host}:{self.url.port} lost")

    async def _idle(self, timeout: float, stop: asyncio.Event) -> None:
        client = self.client
        queue = client.protocol.idle_queue
        while not queue.empty():  # pushes left over from an earlier IDLE
            queue.get_nowait()
        self._idle_task = await self._call("IDLE", client.idle_start(timeout=timeout + 60.0))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while (remaining := deadline - loop.time()) > 0 and not stop.is_set():
                push = asyncio.ensure_future(queue.get())
                await _wait_any(remaining, push, stop.wait(), self._lost.wait())
                if self._lost.is_set():
                    push.cancel()
                    return
                if not push.done():
                    push.cancel()
                    continue
                self._note(push.result())
                if self.news:
                    return
        finally:
            if not self._lost.is_set():
                client.idle_done()
                await self._call("IDLE", self._idle_task)


async def _wait_any(timeout: float, *awaitables: Awaitable[Any]) -> None:
    """Wait until the first of `awaitables` finishes or `timeout` passes; cancel the rest
    (an awaitable that is an already-created future stays the caller's to cancel)."""
    futures = [asyncio.ensure_future(a) for a in awaitables]
    try:
        await asyncio.wait(futures, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for future, awaitable in zip(futures, awaitables, strict=True):
            if future is not awaitable and not future.done():
                future.cancel()


class MailIntake:
    """Takes each message of one IMAP mailbox exactly once (at least once on a crash; see module doc)."""

    def __init__(
        self,
        url: ImapUrl,
        handler: Handler | None,
        *,
        use_idle: bool = True,
        poll_interval: float = 5.0,
        idle_recheck: float = 1.0,
        idle_renew: float = 300.0,
        fetch_chunk: int = 50,
        command_timeout: float = 30.0,
        reconnect_min: float = 0.5,
        reconnect_max: float = 60.0,
        retry_min: float = 1.0,
        retry_max: float = 300.0,
        rng: random.Random | None = None,
        ready: Callable[[], Awaitable[None]] | None = None,
        batch_handler: BatchHandler | None = None,
    ) -> None:
        """Configure; nothing connects before run().

        use_idle=False forces polling even when the server offers IDLE.
        idle_recheck: seconds an IDLE may go without news before the intake
        ends it and searches (each recheck costs about 2 ms of CPU on
        loopback, 0.2% of a core at 1 s; use 30-60 s for a remote
        provider). idle_renew caps any IDLE (RFC 2177
        asks for less than 29 minutes). fetch_chunk: UIDs per FETCH.
        command_timeout: longest wait for any server answer before the
        connection is dropped and reopened. Delays are in seconds; rng
        jitters the reconnect delays (tests pass a seeded one). ``ready``,
        when given, is awaited after each pass that handed messages over and
        before the next search: the handler's owner returns from it once it has
        worked through what it was handed (or has waited long enough), so that
        mail arriving meanwhile is taken in one SEARCH, FETCH and STORE instead
        of one round of commands per message. ``batch_handler``, when given,
        takes the messages of each FETCH in one call instead of ``handler``
        one by one (its owner then hands them on in one piece of work).
        """
        if handler is None and batch_handler is None:
            raise ValueError("a handler or a batch handler is needed")
        self.url = url
        self.handler = handler
        self.batch_handler = batch_handler
        self.use_idle = use_idle
        self.poll_interval = poll_interval
        self.idle_recheck = idle_recheck
        self.idle_renew = idle_renew
        self.fetch_chunk = fetch_chunk
        self.command_timeout = command_timeout
        self.reconnect_min = reconnect_min
        self.reconnect_max = reconnect_max
        self.retry_min = retry_min
        self.retry_max = retry_max
        self.ready = ready
        self.stats = IntakeStats()
        self.outage: Outage | None = None
        """Since when, and why, the IMAP server cannot be reached (None while it can)."""
        self._rng = rng or random.Random()
        self._retry: dict[int, tuple[int, float]] = {}  # uid -> (failures, loop time when due)
        self._uidvalidity: int | None = None

    async def run(self, stop: asyncio.Event) -> None:
        """Take mail until `stop` is set; returns soon after. Never raises for mail trouble:
        connection (and unexpected) errors are logged and the connection reopened; handler
        errors are logged and the message retried later."""
        failures = 0
        while not stop.is_set():
            session = _ImapSession(self.url, timeout=self.command_timeout)
            try:
                await session.open()
                self.stats.connects += 1
                self.outage = None
                mode = "IDLE" if self.use_idle and session.has_idle else f"polling every {self.poll_interval:g}s"
                _log.info("IMAP %s connected (%s, marking by %s)", self.url, mode,
                          TAKEN_KEYWORD if session.keywords else "\\Seen")
                failures = 0
                await self._serve(session, stop)
            except Exception as exc:
                if stop.is_set():
                    break
                self.stats.reconnects += 1
                self.outage = Outage.begun(exc, self.outage)
                delay = min(self.reconnect_max, self.reconnect_min * 2**failures)
                delay *= self._rng.uniform(0.5, 1.0)
                failures += 1
                expected = isinstance(exc, _SESSION_ERRORS)
                _log.warning("IMAP %s: %s: %s; reconnecting in %.1fs", self.url,
                             type(exc).__name__, exc, delay, exc_info=not expected)
            else:
                break  # _serve returns only once stop is set
            finally:
                await session.close()
            await _wait_any(delay, stop.wait())

    async def _serve(self, session: _ImapSession, stop: asyncio.Event) -> None:
        if session.uidvalidity != self._uidvalidity:
            self._retry.clear()
            self._uidvalidity = session.uidvalidity
        idle = self.use_idle and session.has_idle
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            session.news = False
            self.stats.searches += 1
            now = loop.time()
            found = await session.unhandled()
            if found:  # all below the lowest found were taken (messages are marked only by this loop)
                session.floor = max(session.floor, found[0])
            self._forget_gone(found)
            uids = [uid for uid in found if self._retry.get(uid, (0, now))[1] <= now]
            if uids:
                await self._take(session, uids, stop)
                if self.ready is not None:
                    await self.ready()
                continue
            if session.news:
                continue
            await session.wait_for_news(self._wait_time(now, idle=idle), stop, idle=idle)

    def _forget_gone(self, found: Sequence[int]) -> None:
        """Drop retry entries of messages no longer waiting (taken or deleted meanwhile)."""
        if self._retry:
            waiting = set(found)
            self._retry = {uid: due for uid, due in self._retry.items() if uid in waiting}

    def _wait_time(self, now: float, *, idle: bool) -> float:
        wait = min(self.idle_recheck, self.idle_renew) if idle else self.poll_interval
        if self._retry:
            wait = min(wait, max(0.0, min(due for _, due in self._retry.values()) - now))
        return wait

    async def _take(self, session: _ImapSession, uids: Sequence[int], stop: asyncio.Event) -> None:
        for chunk in _chunks(uids, self.fetch_chunk):
            messages = await session.fetch(chunk)
            errors = await self._hand_over(messages)
            taken = [uid for (uid, _), error in zip(messages, errors, strict=True) if self._settle(uid, error)]
            if taken:
                await session.mark(taken)
                self.stats.taken += len(taken)
            if stop.is_set():
                return

    async def _hand_over(self, messages: Sequence[tuple[int, bytes]]) -> list[Exception | None]:
        """Hand ``messages`` to the handler; for each, None (stored) or the exception it failed with."""
        if self.batch_handler is not None:
            try:
                errors = list(await self.batch_handler(messages))
            except Exception as exc:
                return [exc] * len(messages)
            if len(errors) != len(messages):
                raise RuntimeError(f"the batch handler answered {len(errors)} of {len(messages)} messages")
            return errors
        assert self.handler is not None
        errors: list[Exception | None] = []
        for uid, raw in messages:
            try:
                await self.handler(uid, raw)
            except Exception as exc:
                errors.append(exc)
            else:
                errors.append(None)
        return errors

    def _settle(self, uid: int, error: Exception | None) -> bool:
        """Record how handing ``uid`` over went; True when it was stored (to be marked taken)."""
        if error is not None:
            failures = self._retry.get(uid, (0, 0.0))[0] + 1
            delay = min(self.retry_max, self.retry_min * 2 ** (failures - 1))
            self._retry[uid] = (failures, asyncio.get_running_loop().time() + delay)
            self.stats.handler_failures += 1
            _log.warning("handler failed for UID %d (failure %d), retrying in %.1fs: %s",
                         uid, failures, delay, error, exc_info=error)
            return False
        self._retry.pop(uid, None)
        return True
