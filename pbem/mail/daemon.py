"""``pbem serve``: the game master by mail, as one asyncio process.

Four loops share one database:

* intake: IMAP (IDLE or polling) -> the inbound table, committed before the
  message is flagged on the server;
* processing: each stored, unhandled message -> :class:`MailService`
  (orders, commands, reply) in one transaction, then, when the orders may
  have made a turn due (every owing seat's orders in for an early-resolving
  game, or a passed deadline), an immediate clock tick for that game so the
  turn resolves at once;
* clock: deadlines, reminders, absences (:class:`~pbem.deadlines.TurnClock`),
  and a heartbeat so that after an outage passed deadlines are extended
  instead of every seat being NMR'd;
* sender: the outbox table -> SMTP, with retries.

Database work is synchronous and short (one small transaction per mail); it
runs on the event loop thread, which keeps the order of events simple.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime

from pbem.clock import utcnow
from pbem.deadlines import TurnClock
from pbem.mail.config import ImapUrl, SmtpUrl
from pbem.mail.intake import MailIntake
from pbem.mail.mailstore import DatabaseOutbox, InboundStore
from pbem.mail.outbox import MailSender
from pbem.mail.service import MailService
from pbem.mail.tokens import ReplyTokens
from pbem.store import Database
from pbem.store.tables import SettingRow
from pbem.turns import TurnRunner

_log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
PROCESS_BATCH = 100  # stored messages taken per pass of the processing loop
SECRET_KEY = "reply_token_secret"
LAST_SEEN_KEY = "last_seen"


@dataclass(frozen=True)
class DaemonOptions:
    """Tuning of the loops; the defaults suit a real mailbox."""

    idle_recheck: float = 1.0
    poll_interval: float = 5.0
    use_idle: bool = True
    send_retry_min: float = 60.0
    clock_interval: float = 1.0
    catch_up_wait: float = 1.0
    """Longest the intake waits, after taking mail, for that mail to be handled and its replies
    sent before it looks for more (see :meth:`MailDaemon.caught_up`)."""


def tune_gc_for_serving() -> None:
    """Make Python's cyclic garbage collector cheap for a long-running daemon (process-wide).

    Everything alive now (modules, grammars, mappers, the daemon) is moved out
    of the collector's reach with ``gc.freeze()``, and young objects are
    collected every 10,000 allocations instead of every 700. Each mail makes
    many short-lived cycles (SQLAlchemy, the email package), and with the
    defaults the collector took about a sixth of the CPU per mail and paused
    the event loop for 0.1-0.2 s at each full collection (bench/bench_mail.py).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def setting(db: Database, key: str, make: Callable[[], str] | None = None) -> str | None:
    """Return an installation setting; when absent and ``make`` is given, store ``make()`` and return it."""
    with db.session() as session:
        row = session.get(SettingRow, key)
        if row is not None:
            return row.value
        if make is None:
            return None
        row = SettingRow(key=key, value=make())
        session.add(row)
        return row.value


def store_setting(db: Database, key: str, value: str) -> None:
    """Set an installation setting."""
    with db.session() as session:
        row = session.get(SettingRow, key) or SettingRow(key=key, value=value)
        row.value = value
        session.add(row)


class MailDaemon:
    """The running game master: intake, processing, clock and sender over one database."""

    def __init__(
        self,
        db: Database,
        *,
        imap: ImapUrl,
        smtp: SmtpUrl,
        address: str,
        clock: Callable[[], datetime] = utcnow,
        options: DaemonOptions = DaemonOptions(),
    ) -> None:
        self.db = db
        self.options = options
        self.clock = clock
        self.runner = TurnRunner(db, clock=clock)
        secret = setting(db, SECRET_KEY, lambda: secrets.token_hex(32))
        assert secret is not None
        self.service = MailService(self.runner, address=address, tokens=ReplyTokens(bytes.fromhex(secret)),
                                   clock=clock)
        self.turn_clock = TurnClock(self.runner, self.service.notifier)
        self.inbound = InboundStore(db)
        self.outbox = DatabaseOutbox(db)
        self.intake = MailIntake(imap, self._take, use_idle=options.use_idle, poll_interval=options.poll_interval,
                                 idle_recheck=options.idle_recheck, ready=self.caught_up)
        self.sender = MailSender(smtp, self.outbox, retry_min=options.send_retry_min)
        self._new_mail = asyncio.Event()
        self._send_now = asyncio.Event()
        self._stored: list[int] = []  # inbound ids stored by the intake and not yet taken for processing
        self._idle = asyncio.Event()  # set while the processing loop has handled all the intake stored
        self.handled = 0

    async def _take(self, uid: int, raw: bytes) -> None:
        inbound_id = self.inbound.store(uid, raw)
        if inbound_id is not None:
            self._stored.append(inbound_id)
            self._idle.clear()
        self._new_mail.set()

    async def caught_up(self) -> None:
        """Return once what the intake stored is handled and its replies are sent, or after
        ``options.catch_up_wait`` seconds; the intake awaits this after each pass.

        Under load the intake then takes the mail that arrived meanwhile in one
        SEARCH, FETCH and STORE, as a responder answering in line would, instead
        of one round of IMAP commands per message (which cost about as much CPU
        as handling the message). A reply that cannot be sent now (SMTP down)
        is queued for a retry and does not hold the intake back."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._pipeline_drained(), self.options.catch_up_wait)

    async def _pipeline_drained(self) -> None:
        await self._idle.wait()
        await self.sender.idle.wait()

    def _wake_sender(self) -> None:
        """Have the sender look at the outbox now; until it has sent what it finds it is not idle."""
        self.sender.idle.clear()
        self._send_now.set()

    async def run(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set."""
        last_seen = setting(self.db, LAST_SEEN_KEY)
        extended = self.turn_clock.recover_outage(
            datetime.fromisoformat(last_seen) if last_seen else None, self.clock()
        )
        if extended:
            _log.warning("deadlines extended after an outage: %s", ", ".join(extended))
        self._heartbeat()
        self._new_mail.set()  # handle whatever was stored but not handled before a restart
        self._wake_sender()
        tasks = [
            asyncio.create_task(self.intake.run(stop), name="intake"),
            asyncio.create_task(self.sender.run(stop, self._send_now), name="sender"),
            asyncio.create_task(self._process(stop), name="process"),
            asyncio.create_task(self._tick(stop), name="clock"),
        ]
        try:
            await stop.wait()
        finally:
            self._new_mail.set()
            done, pending = await asyncio.wait(tasks, timeout=10)
            for task in pending:
                task.cancel()
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    _log.error("task %s ended with %r", task.get_name(), task.exception())

    def _heartbeat(self) -> None:
        store_setting(self.db, LAST_SEEN_KEY, self.clock().isoformat())

    async def _process(self, stop: asyncio.Event) -> None:
        handled_upto = 0  # every stored message with an id up to this one is handled or failed
        backlog = True  # the database first (mail stored before a restart), then what the intake stores
        while not stop.is_set():
            self._new_mail.clear()
            if backlog:
                batch = self.inbound.pending(PROCESS_BATCH, after=handled_upto)
                backlog = len(batch) == PROCESS_BATCH
                if backlog:
                    self._new_mail.set()  # more are waiting: come back without sleeping
            else:
                batch = [inbound_id for inbound_id in self._stored if inbound_id > handled_upto]
                self._stored.clear()
            for inbound_id in batch:
                handled_upto = inbound_id  # marked handled by handle(), or failed below
                try:
                    outcome = self.service.handle(inbound_id)
                except Exception:  # a bug must not stop the daemon: keep the mail, log, go on
                    _log.exception("inbound %s could not be handled", inbound_id)
                    self._mark_failed(inbound_id)
                    continue
                self.handled += 1
                self._wake_sender()
                if outcome.due:  # orders in that may let a turn resolve early (or a deadline passed)
                    self._run_clock(games=outcome.due)
                await asyncio.sleep(0)
            if not self._stored:
                self._idle.set()
            try:
                await asyncio.wait_for(self._new_mail.wait(), timeout=1.0)
            except TimeoutError:
                backlog = True  # quiet for a second: look in the database again, whoever stored there

    def _mark_failed(self, inbound_id: int) -> None:
        with self.db.session() as session:
            InboundStore.set_status(session, inbound_id, "failed", "internal error")

    def _run_clock(self, games: Collection[str] | None = None) -> None:
        try:
            result = self.turn_clock.tick(self.clock(), games=games)
        except Exception:
            _log.exception("the turn clock failed")
            return
        if result.resolutions or result.reminders or result.paused or result.absences:
            self._wake_sender()

    async def _tick(self, stop: asyncio.Event) -> None:
        beat = 0.0
        while not stop.is_set():
            self._run_clock()
            beat += self.options.clock_interval
            if beat >= HEARTBEAT_SECONDS:
                self._heartbeat()
                beat = 0.0
            try:
                await asyncio.wait_for(stop.wait(), timeout=self.options.clock_interval)
            except TimeoutError:
                pass
