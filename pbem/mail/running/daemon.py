"""``pbem serve``: the game master by mail, as one asyncio process.

Four loops share one database:

* intake: IMAP (IDLE or polling) -> the inbound table, committed before the
  message is flagged on the server; and/or mail the mail server hands over
  by LMTP (:mod:`pbem.mail.intake.lmtp`), committed before it is answered 250;
* processing: each stored, unhandled message -> :class:`MailHandler`
  (orders, commands, reply) in one transaction, then, when the orders may
  have made a turn due (every owing seat's orders in for an early-resolving
  game, or a passed deadline), an immediate clock tick for that game so the
  turn resolves at once. Mail is handled in the order it was stored; the
  intake stores the mails of one FETCH in one piece of the worker's work,
  and while every mail stored before is handled, a daemon alone on its
  database hands each new mail on to the handler in that same piece of work;
* clock: deadlines, reminders, absences, report digests (:class:`~pbem.service.deadlines.TurnClock`),
  and a heartbeat so that after an outage passed deadlines are extended
  instead of every seat being NMR'd;
* sender: the outbox table -> SMTP, with retries, over ``options.smtp_connections``
  connections at once.

Several daemons may share one PostgreSQL database and one mailbox (SQLite
serves one daemon: a second one on the same file is refused at start, see
:func:`single_daemon`): one of them fetches (:mod:`pbem.mail.running.leader`), and
every one handles the next new mail (its row lock: no mail is handled twice),
works on the due games (each game's row lock: no turn resolves twice) and
sends the outbox (leases, renewed while the daemon lives: another daemon takes a dead one's mail over
within seconds, see :mod:`pbem.mail.running.leases`).

All database work of a daemon runs in one worker thread, the database's only user:
handling mail and the clock's work, and also storing the mail the intake
takes and the outbox's claims for the sender. The event loop (IMAP
intake, SMTP sending) so never waits for a mail being handled nor for a
database lock, and the database is used through one connection: a second
connection (the event loop's, for the intake and the outbox) made each of the
other's transactions start with an empty page cache, since SQLite drops a
connection's cache whenever another one wrote, and waited in SQLite's busy
handler whenever the other held the write lock, with the event loop standing
still meanwhile. One exception, on SQLite: a mail the server took is marked sent
on the event loop itself while the worker has nothing to do, on the worker's
connection, lent, which then does not wait for a lock held elsewhere (it hands the
mark to the worker instead): a hand-over to the worker and back costs more CPU
than the mark (:meth:`MailDaemon._short_work`). The work one mail can cause is bounded besides (see
:mod:`pbem.mail.commands.script` and :mod:`pbem.mail.handling.handler`).

Every mail ends answered: handling one mail has a time budget
(``options.mail_budget``): the work stops at its next safe point once the
watchdog finds the budget spent, a database statement running then is ended
by the database, and Python code that reaches no safe point is interrupted
where it holds no lock (:mod:`pbem.mail.running.watchdog`); a mail over it is set
aside, its transaction rolled back. A mail whose
handling fails is tried again after a growing pause, and after the last try
failed; either way its sender gets one short answer (:mod:`pbem.mail.running.retries`).
At its start the daemon loads every file of the package it reads
(:mod:`pbem.preload`).

Every loop is supervised: a failure is logged at once with its traceback and
the loop restarts after a growing pause; transient database errors (locked,
busy, disk full) are retried for ever, and only a loop that keeps failing
otherwise stops the daemon (:attr:`MailDaemon.fatal`), for systemd to restart
it.

What the daemon does is counted in :attr:`MailDaemon.metrics`, whether its loops run is kept in
:attr:`MailDaemon.watch` (see :mod:`pbem.ops`: ``/healthz``, ``/metrics``, systemd's notifications).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import functools
import gc
import logging
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session

from pbem.budget import OverBudget
from pbem.clock import utcnow
from pbem.mail.handling.handler import HandledMail, MailFailed, MailHandler, MailOverran, NotStored
from pbem.mail.handling.incoming import Read, identity_read, may_hold_password
from pbem.mail.intake.imap import MailIntake
from pbem.mail.intake.lmtp import LmtpAddress, LmtpListener
from pbem.mail.intake.wake import WakeListener
from pbem.mail.outbound.config import ImapUrl, SendRate, SmtpUrl
from pbem.mail.outbound.outbox import DEFAULT_CONNECTIONS, MailSender, OutgoingMail
from pbem.mail.outbound.queue import DEFAULT_LEASE, SHARED_LEASE, Claim, DatabaseOutbox
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.reading.mailstore import InboundStore
from pbem.mail.running.leader import IntakeLeadership
from pbem.mail.running.leases import LeaseKeeper
from pbem.mail.running.retention import purge_old_mail, reclaim_space
from pbem.mail.running.retries import FIRST_PAUSE, MAX_TRIES, is_first_end, next_try
from pbem.mail.running.watchdog import Watchdog
from pbem.ops.figures import LAST_SEEN_KEY
from pbem.ops.health import WATCHED_LOOPS, LoopWatch, Outage, Verdict
from pbem.ops.metrics import DaemonMetrics, DaemonView
from pbem.ops.notify import SystemdNotifier
from pbem.preload import preload
from pbem.service.api import GameService
from pbem.service.compaction import COMPACT_BATCH, DEFAULT_COMPACT_AFTER, compact_finished
from pbem.service.deadlines import CLOCK_BATCH, TurnClock
from pbem.store import Database, is_transient_error
from pbem.store.tables import SettingRow

if TYPE_CHECKING:
    from pbem.mail.outbound.dkim_signing import DkimSigner
    from pbem.service.unit import Unit

_log = logging.getLogger(__name__)
T = TypeVar("T")

HEARTBEAT_SECONDS = 5.0
STOP_GRACE = 2.0
"""Seconds the loops get to end by themselves once the daemon is told to stop; then they are cancelled."""
PURGE_SECONDS = 3600.0
"""How often the retention purge runs: this many seconds by the event loop's time or by the daemon's clock,
whichever passes first."""
CONFLICT_RETRIES = 3
"""Times a mail is handled again after it collided with another daemon's work (a unique key both wrote)."""
SECRET_KEY = "reply_token_secret"
MAX_FAILURES = 8
"""Failures in a row (other than transient database errors) after which a loop stops the daemon."""
HEALTHY_SECONDS = 300.0
"""A loop that ran this long without failing starts counting its failures afresh."""
DEFAULT_MAIL_BUDGET = 2.0
"""Seconds handling one mail may take (``pbem serve --mail-budget``)."""


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
    retention: timedelta = timedelta(days=7)
    """How long the raw text of handled and sent mail is kept."""
    compact_after: timedelta = DEFAULT_COMPACT_AFTER
    """How long after its last turn a finished game's turns keep their states and events uncompressed
    (:mod:`pbem.service.compaction`)."""
    restart_first: float = 1.0
    restart_longest: float = 60.0
    """The pause before a failed loop restarts: ``restart_first`` seconds, doubled after each failure in a
    row up to ``restart_longest``."""
    secret_file: Path | None = None
    """Where the key that signs reply addresses lives; None keeps it in the database."""
    worker_wait: float = 0.05
    """Longest the event loop stands still, in seconds, waiting for a piece of work it handed to the worker
    thread before it goes back to its other work (see :meth:`MailDaemon._work`); 0 never waits."""
    shared_poll: float = 0.2
    """On a database shared with other daemons: how often, in seconds, a daemon looks for mail the
    fetcher stored and for mail the others queued (its own it handles and sends at once)."""
    election_retry: float = 2.0
    """On a shared database: how often a daemon that does not fetch tries to become the fetcher."""
    outbox_lease: timedelta = SHARED_LEASE
    """On a shared database: how long a sender's claim on queued mail lasts unless renewed (the daemon renews
    it while it lives, :mod:`pbem.mail.running.leases`); a dead daemon's mail goes out within this. A daemon alone
    on its database claims for :data:`~pbem.mail.outbound.queue.DEFAULT_LEASE` and renews nothing."""
    smtp_connections: int = DEFAULT_CONNECTIONS
    """SMTP connections the sender sends over at once (see :class:`~pbem.mail.outbound.outbox.MailSender`)."""
    clock_yield: float = 5.0
    """Longest the clock waits, after a game that queued mail, for the sender to have sent what is due."""
    mail_budget: float = DEFAULT_MAIL_BUDGET
    """Seconds handling one mail may take; a mail that runs over is interrupted and set aside
    (:mod:`pbem.mail.running.watchdog`)."""
    retry_first: timedelta = FIRST_PAUSE
    """The pause after a mail's first failed try, doubled after each further one (:mod:`pbem.mail.running.retries`)."""
    send_rate: SendRate | None = None
    """At most this many mails sent in a period (``pbem serve --send-rate``); None: no limit."""
    dkim: DkimSigner | None = None
    """Signs every mail as it is sent (``pbem serve --dkim-key``); None sends it unsigned."""
    trusted_authserv: tuple[str, ...] = ()
    """The authserv-ids of the receiving mail servers whose Authentication-Results pbem believes
    (``--trust-authserv``; :mod:`pbem.mail.reading.authresults`)."""


class DaemonFailed(RuntimeError):
    """A loop of the daemon kept failing and the daemon stopped; the message says which and why."""


class AnotherDaemon(ValueError):
    """A second daemon on a SQLite file: refused (SQLite serves one daemon; PostgreSQL serves several)."""


@contextlib.contextmanager
def single_daemon(db: Database) -> Iterator[None]:
    """Hold, for the block, the one daemon's place on a SQLite file: an exclusive lock on the file
    ``<database>-lock`` beside it, which the system releases when the process ends, however it ends.
    Nothing to hold on a database that daemons share (PostgreSQL). Raises :class:`AnotherDaemon` when
    another process holds it."""
    path = db.engine.url.database
    if db.engine.dialect.name != "sqlite" or not path or path == ":memory:":
        yield
        return
    lock_path = f"{path}-lock"
    descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AnotherDaemon(
                f"another pbem serve is running on {path}: a SQLite database serves one daemon. Stop the "
                "other one, or keep the games in PostgreSQL (--db postgresql+psycopg://...) to run several"
            ) from None
        yield
    finally:
        os.close(descriptor)


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


def secret_key(db: Database, path: Path | None) -> bytes:
    """Return the key that signs reply addresses.

    With ``path`` it is read from that file, which is created (mode 0600,
    holding a key moved out of the database if one was stored there, so that
    reply addresses already sent keep working) when absent; without it, it
    lives in the database's settings.
    """
    if path is None:
        stored = setting(db, SECRET_KEY, lambda: secrets.token_hex(32))
        assert stored is not None
        return bytes.fromhex(stored)
    if not path.exists():
        value = setting(db, SECRET_KEY) or secrets.token_hex(32)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(value + "\n")
        try:
            os.link(draft, path)  # whole or not at all, and only if no daemon starting beside this one was first
        except FileExistsError:
            return bytes.fromhex(path.read_text().strip())
        finally:
            draft.unlink()
        with db.session() as session:
            row = session.get(SettingRow, SECRET_KEY)
            if row is not None:
                session.delete(row)
    return bytes.fromhex(path.read_text().strip())


def setting(db: Database, key: str, make: Callable[[], str] | None = None) -> str | None:
    """Return an installation setting; when absent and ``make`` is given, store ``make()`` and return it.
    When daemons starting together both make one, the first stored wins and both return it."""
    with db.session() as session:
        row = session.get(SettingRow, key)
        if row is not None:
            return row.value
        if make is None:
            return None
        value = make()
    if _insert_setting(db, key, value):
        return value
    return setting(db, key)


def store_setting(db: Database, key: str, value: str) -> None:
    """Set an installation setting (whichever daemon writes last wins)."""
    with db.session() as session:
        row = session.get(SettingRow, key)
        if row is not None:
            row.value = value
            session.add(row)
            return
    if not _insert_setting(db, key, value):
        store_setting(db, key, value)


def _insert_setting(db: Database, key: str, value: str) -> bool:
    """Store a new setting; False when another process stored the key first (its unique key refused ours)."""
    try:
        with db.session() as session:
            session.add(SettingRow(key=key, value=value))
    except IntegrityError:
        return False
    return True


def reply_tokens(db: Database, secret_file: Path | None = None) -> ReplyTokens:
    """Return the signer of reply addresses and private links, with the installation's key
    (:func:`secret_key`)."""
    return ReplyTokens(secret_key(db, secret_file))


class MailDaemon:
    """The running game master: intake, processing, clock and sender over one database."""

    def __init__(
        self,
        db: Database,
        *,
        imap: ImapUrl | None,
        smtp: SmtpUrl,
        address: str,
        clock: Callable[[], datetime] = utcnow,
        options: DaemonOptions = DaemonOptions(),
        web_url: str | None = None,
        lmtp: LmtpAddress | None = None,
    ) -> None:
        """Take mail from ``imap``, or from the mail server over LMTP at ``lmtp``, or both."""
        self.db = db
        self.options = options
        self.clock = clock
        self.service = GameService(db, clock=clock)
        tokens = reply_tokens(db, options.secret_file)
        self.handler = MailHandler(self.service, address=address, tokens=tokens,
                                   trusted_authserv=options.trusted_authserv,
                                   on_bounce=lambda: self.metrics.record_bounce(),
                                   clock=clock, web_url=web_url)
        self.turn_clock = TurnClock(self.service, self.handler.notifier)
        self.inbound = InboundStore(db)
        self.outbox = DatabaseOutbox(db, lease=options.outbox_lease if db.shared else DEFAULT_LEASE,
                                     rate=options.send_rate)
        self.leases = LeaseKeeper(self.outbox) if db.shared else None
        """Renews the outbox's claims while the daemon lives, on a shared database (None: alone on it)."""
        self.wake = WakeListener(db, self._look_for_stored_mail)
        """Where ``pbem deliver`` nudges this daemon once it stored a mail (see :mod:`pbem.mail.intake.wake`)."""
        self.intake = None if imap is None else MailIntake(
            imap, None, batch_handler=self._take, use_idle=options.use_idle, poll_interval=options.poll_interval,
            idle_recheck=options.idle_recheck, ready=self.caught_up)
        self.lmtp = None if lmtp is None else LmtpListener(lmtp, own_address=self.handler.address,
                                                           deliver=self._deliver)
        # On a shared database the others queue mail too: the sender looks for it often.
        self._queue = WorkerOutbox(self.outbox, self._work, self._short_work)
        self.sender = MailSender(smtp, self._queue, retry_min=options.send_retry_min,
                                 connections=options.smtp_connections,
                                 sign=options.dkim.sign if options.dkim is not None else None,
                                 envelope_sender=lambda mail: tokens.bounce_address(self.handler.address, mail.id),
                                 undeliverable=self._refused,
                                 **({"poll_interval": options.shared_poll * 5} if db.shared else {}))
        self.leadership = IntakeLeadership(db) if db.shared else None
        """Whether this daemon fetches, on a shared database (None: it always fetches)."""
        self._new_mail = asyncio.Event()
        self._send_now = asyncio.Event()
        self._idle = asyncio.Event()  # set while the processing loop has handled all the intake stored
        self._conflicts: dict[int, int] = {}  # inbound id -> times it collided with another daemon's work
        self._worker_thread: int | None = None
        self._pending: set[concurrent.futures.Future[Any]] = set()  # pieces given to the worker, not yet done
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbem-work",
                                          initializer=self._worker_started)
        self.watchdog = Watchdog(options.mail_budget, on_stuck=self._stuck, interrupt=db.interrupt)
        self._answered_failure = False
        """Set in the worker when it queued the answer to a mail that ended unhandled (the sender is woken)."""
        self._next_retry: float | None = None
        """When (``time.monotonic``) the last mail whose try failed is tried again, or None."""
        self._in_order = False
        """Worker thread only: every stored mail is handled, so a mail just stored may be handled at once
        (see :meth:`_store_and_handle`); set by a look that found no mail to handle, cleared by a mail left
        unhandled."""
        self.handled = 0
        self.fatal: str | None = None
        """Why the daemon stopped by itself (a loop kept failing), or None."""
        self.restarts: dict[str, int] = {}
        """How often each loop was restarted after a failure."""
        self.metrics = DaemonMetrics()
        self.watch = LoopWatch(tuple(loop for loop in WATCHED_LOOPS if loop != "intake" or self.intake is not None))
        """Whether the loops run (see :meth:`verdict`)."""

    async def _take(self, messages: Sequence[tuple[int, bytes]]) -> list[Exception | None]:
        """Store the messages of one FETCH (and handle them, see :meth:`_store_and_handle`) in one piece
        of the worker's work; for each, None once stored, or the exception that kept it from being stored."""
        claim = self.sender.batch if self.sender.idle.is_set() else 0
        taken, claimed = await self._work(self._store_and_handle, messages, claim)
        self._queue.hand_over(claimed)
        self._send_answers_to_failures()
        for took in taken:
            if took.outcome is not None:
                await self._handled(took.outcome)
            if took.left is not None:
                self._look_for_stored_mail()
        return [took.error for took in taken]

    async def _refused(self, address: str, reply: str) -> None:
        """The SMTP server refused ``address`` for good (a 5xx): it cannot be reached (see
        :meth:`_bounced`); the GMs' notices go out at once."""
        await self._work(self._bounced, address, f"the mail server refused it: {reply}")
        self._wake_sender()

    def _bounced(self, address: str, reason: str) -> None:
        """Worker thread: mail to ``address`` cannot be delivered (an SMTP 5xx): pbem writes no more to it
        until it writes again, and the GMs of its seats are told."""
        held = self.service.mark_undeliverable(address, reason)
        self.metrics.record_bounce()
        _log.warning("%s cannot be reached (%s): no more mail goes to it until it writes again%s", address, reason,
                     "".join(f"; seat {seat} of {game}" for game, seat in held))

    async def _deliver(self, raw: bytes) -> None:
        """Store a mail the mail server handed over (LMTP) and have the processing loop handle it at once;
        return once it is committed (or was stored before: the same Message-ID). Raises what kept it from
        being stored."""
        if await self._work(functools.partial(self.inbound.store, None, raw, durable=True)) is not None:
            self.metrics.received.inc()
        self._look_for_stored_mail()

    def _look_for_stored_mail(self) -> None:
        """Mail was stored that is not handled yet (left by the intake, handed over by LMTP, or stored by
        ``pbem deliver``, which nudged): have the processing loop look now."""
        self._idle.clear()
        self._new_mail.set()

    def _store_and_handle(self, messages: Sequence[tuple[int, bytes]],
                          claim: int) -> tuple[list[Taken], Sequence[OutgoingMail]]:
        """Store the mails the intake took (in the worker thread, in their order) and, while every mail
        stored before it is handled and this daemon is alone on its database, handle each at once, in the
        same piece of work and the same unit of work as its storing (one commit, see :meth:`_store_handling`),
        with the bytes taken (not read back), and claim for the sender up to ``claim`` of the mails each
        mail's unit queued (its reply first) in that unit: a handoff to the worker and back costs about as
        much CPU as storing a mail. Return what became of each mail and the mails claimed.

        On a shared database the fetcher only stores: each mail is for whichever daemon claims it first
        (handling it here would hold the next mail back from the others until this one is done)."""
        taken: list[Taken] = []
        claimed: list[OutgoingMail] = []
        for uid, raw in messages:
            if self._in_order and not self.db.shared:
                took, mails = self._store_handling(uid, raw, claim)
                taken.append(took)
                claimed.extend(mails)
                continue
            try:
                inbound_id = self.inbound.store(uid, raw)
            except Exception as error:  # not stored: the intake offers it again later
                taken.append(Taken(error=error))
                continue
            if inbound_id is not None:
                self.metrics.received.inc()
            taken.append(Taken(left=inbound_id))
        return taken, claimed

    def _store_handling(self, uid: int, raw: bytes, claim: int = 0) -> tuple[Taken, Sequence[OutgoingMail]]:
        """Store a mail and handle it at once, in one unit of work (one commit, see
        :meth:`MailHandler.store_and_handle`), and return what became of it and the mails claimed for the
        sender: unless the mail may have made a turn due (its resolution's reports go out with the reply), up
        to ``claim`` of the mails its unit queued (its reply first), claimed in that unit by their ids
        (:meth:`DatabaseOutbox.claim_queued`: a claim of its own, a transaction that looks for them, cost a
        tenth of the mail's CPU). When that fails, nothing was stored: the mail is stored alone, and its
        failure counts as a failed try of the stored mail would (see :meth:`_failed`)."""
        started = time.perf_counter()
        claims: list[Claim] = []

        def claim_queued(unit: Unit, handled: HandledMail) -> None:
            if claim and not handled.due:  # the sender's clock, as the outbox's
                claims.append(self.outbox.claim_queued(unit.session, utcnow(), claim))

        try:
            with self.watchdog.watching(None, armed=False) as budget:  # the handler arms it for the parse
                found = self.handler.store_and_handle(self.inbound, uid, raw, budget, before_commit=claim_queued)
        except NotStored as failure:  # rolled back: nothing was claimed
            return self._store_failed(uid, raw, failure.__cause__, failure.mail), ()
        except OverBudget:  # the budget ran out as the unit ended: committed or not (then it is stored now)
            for made in claims:
                self.outbox.let_go(made)
            return self._store_failed(uid, raw, None), ()
        if found is None:
            return Taken(), ()  # stored before
        self.metrics.received.inc()
        inbound_id, outcome = found
        return Taken(outcome=self._log_handled(inbound_id, outcome, started)), [
            mail for made in claims for mail in self.outbox.hold(made)]

    def _store_failed(self, uid: int, raw: bytes, error: BaseException | None, mail: Read | None = None) -> Taken:
        """Store alone a mail whose storing and handling in one unit failed with ``error`` (None: unknown
        whether its unit committed); a transient or unknown failure leaves it to the processing loop, any
        other counts as a failed try of the stored mail (see :meth:`_failed`). ``mail``: its one parse, when
        it was made (its identity is stored, and its end taken, from it)."""
        self._in_order = False
        identity = identity_read(mail) if mail is not None else None
        try:
            inbound_id = self.inbound.store(uid, raw, identity=identity if self.inbound.kept(raw) is raw else None)
        except Exception as store_error:  # not stored: the intake offers it again later
            return Taken(error=store_error)
        if inbound_id is None:
            return Taken()  # its unit committed after all
        self.metrics.received.inc()
        if error is None or is_transient_error(error):
            _log.warning("inbound %s: %s; to be handled again", inbound_id, error or "the time budget ran out")
            return Taken(left=inbound_id)
        failure = (MailOverran if isinstance(error, OverBudget) else MailFailed)(inbound_id, mail)
        failure.__cause__ = error
        self._failed(failure)
        return Taken(left=inbound_id)

    async def _handled(self, outcome: HandledMail) -> None:
        """What follows the handling of a mail: the clock for the games its orders may have made due
        (resolved before the reply goes out), then the sender."""
        self.handled += 1
        if outcome.due:
            await self._run_clock(games=outcome.due)
        self._wake_sender()

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
        """Serve until ``stop`` is set; raises :class:`DaemonFailed` when a loop kept failing, and OSError
        when the LMTP listener cannot listen where it was told."""
        if self.lmtp is not None:
            await self.lmtp.start()
        self.wake.start()
        self.watchdog.start()
        try:
            await self._supervise("start", self._start, stop, once=True)
            tasks = [
                *([asyncio.create_task(self._supervise("intake", self._intake, stop), name="intake")]
                  if self.intake is not None else []),
                asyncio.create_task(self._supervise("sender", self._send, stop), name="sender"),
                asyncio.create_task(self._supervise("process", self._process, stop), name="process"),
                asyncio.create_task(self._supervise("clock", self._tick, stop), name="clock"),
                asyncio.create_task(SystemdNotifier().run(self.watch, self.verdict, self.summary, stop), name="notify"),
                *([asyncio.create_task(self.leases.run(stop), name="leases")] if self.leases is not None else []),
            ]
            try:
                await stop.wait()
            finally:
                self._new_mail.set()
                _done, pending = await asyncio.wait(tasks, timeout=STOP_GRACE)
                for task in pending:
                    _log.info("stopping: %s did not end within %g s; cancelled", task.get_name(), STOP_GRACE)
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                await self._release_at_stop()
        finally:
            if self.lmtp is not None:
                await self.lmtp.stop()
            self.wake.stop()
            # The piece of work under way ends (one mail, or one game's clock work); queued ones are dropped.
            self._worker.shutdown(wait=True, cancel_futures=True)
            if self._worker_thread is not None:
                self.db.give_back_connection(self._worker_thread)
            self.watchdog.stop()
        if self.fatal is not None:
            raise DaemonFailed(self.fatal)

    async def _release_at_stop(self) -> None:
        """End the claims on mail the sender did not send before it stopped: the other daemons (or this one
        started again) send it at once, without waiting for the leases to run out."""
        try:
            await self._queue.release_claims()
        except Exception as error:  # noqa: BLE001  (the leases then run out by themselves)
            _log.warning("stopping: the outbox's claims could not be ended (%s); they run out by themselves", error)

    def verdict(self) -> Verdict:
        """The daemon's health now: intake, processing, sender and clock running, the intake and the sender
        reaching their servers, the clock beating (see :meth:`LoopWatch.verdict`)."""
        return self.watch.verdict(self._outages())

    def _outages(self) -> dict[str, Outage | None]:
        return {"intake": self.intake.outage if self.intake is not None else None, "sender": self.sender.outage}

    def summary(self, verdict: Verdict) -> str:
        """One line for an operator (systemd's STATUS=): mail handled and sent so far, and the health."""
        return f"{self.handled} mails handled, {self.sender.stats.sent} sent; {verdict.summary()}"

    def view(self) -> DaemonView:
        """What the metrics read of this daemon at each scrape."""
        return DaemonView(watch=self.watch, outages=self._outages, restarts=self.restarts,
                          sent=lambda: self.sender.stats.sent_by_purpose,
                          send_failed=lambda: self.sender.stats.failed, clock_lag=lambda: self.turn_clock.lag)

    async def _start(self, stop: asyncio.Event) -> None:
        loaded = await self._work(preload)  # from now on the daemon reads no file of the package
        _log.info("loaded the grammars, HELP texts and drawings of %d games, %d templates and the fonts",
                  loaded.games, loaded.templates)
        last_seen = await self._work(setting, self.db, LAST_SEEN_KEY)
        extended = await self._work(self.turn_clock.recover_outage,
                                    datetime.fromisoformat(last_seen) if last_seen else None, self.clock())
        if extended:
            _log.warning("deadlines extended after an outage: %s", ", ".join(extended))
        await self._work(self._heartbeat)
        if not self.db.shared:  # alone on the database: every lease was a dead predecessor's
            await self._work(functools.partial(self.outbox.release_claims, everyone=True))
        await self._purge_all()  # at each start too: a daemon restarted often still purges
        self._new_mail.set()  # handle whatever was stored but not handled before a restart
        self._wake_sender()

    def _worker_started(self) -> None:
        """In the worker thread as it starts: it keeps its database connection from one piece of work to the
        next (see :meth:`Database.keep_connection`)."""
        self._worker_thread = threading.get_ident()
        self.db.keep_connection()

    async def in_worker(self, function: Callable[..., T], *args: object) -> T:
        """Run ``function(*args)`` in the worker thread, between two pieces of the daemon's work, and
        return its result (benchmarks use it to profile that thread); the daemon must be running."""
        return await self._work(function, *args)

    async def _work(self, function: Callable[..., T], *args: object) -> T:
        """Run database work in the worker thread (the only one that uses the database) and return its
        result; the event loop goes on with its other work once the work took longer than
        ``options.worker_wait``.

        Until then the loop waits, blocked: most work (a mail handled, a mail stored, a reply marked
        sent) takes a few milliseconds, and while the loop runs too, the two threads hand the
        interpreter lock back and forth at every database call of the worker and every network event of
        the loop, which cost about a quarter more CPU per mail (bench/bench_mail.py). A slow mail or a
        long turn resolution still runs in the worker while the loop fetches and sends: the loop
        stands still for at most ``worker_wait`` per piece of work."""
        future = self._worker.submit(function, *args)
        self._pending.add(future)
        future.add_done_callback(self._pending.discard)
        if self.options.worker_wait > 0:
            with contextlib.suppress(concurrent.futures.TimeoutError):
                result = future.result(timeout=self.options.worker_wait)
                await asyncio.sleep(0)  # the loop's other work gets its turn between two pieces
                return result
        return await asyncio.wrap_future(future)

    async def _short_work(self, function: Callable[..., T], *args: object) -> T:
        """Run a short piece of database work, one small write (a reply marked sent, once a mail server took
        it), on the event loop's own thread while the worker has nothing to do, on the worker's connection
        (SQLite: :meth:`Database.lent`); else, or when the write lock is held elsewhere (the lent connection
        does not wait for it), in the worker as :meth:`_work` does. The database is still used by one thread
        at a time: only the loop gives the worker work, and it gives none while it does this. Handing a piece
        to the worker and back wakes two threads, some 50 to 90 us of CPU on a 2-core machine, once for every
        mail sent."""
        worker = self._worker_thread
        if worker is not None and not self.db.shared and not self._pending:
            try:
                with self.db.lent(worker):
                    return function(*args)
            except DBAPIError as error:  # locked by another process (or failing): the worker tries, waiting
                _log.debug("%s on the event loop: %s; handed to the worker", getattr(function, "__name__", function),
                           error)
        return await self._work(function, *args)

    async def _supervise(self, name: str, body: Callable[[asyncio.Event], Awaitable[None]], stop: asyncio.Event,
                         *, once: bool = False) -> None:
        """Run ``body`` until ``stop`` is set (or, with ``once``, until it first succeeds), restarting it
        after a failure: logged at once with its traceback, then a pause that doubles with each failure in
        a row. Transient database errors are retried for ever; after :data:`MAX_FAILURES` other failures in
        a row the daemon stops, with :attr:`fatal` saying why."""
        loop = asyncio.get_running_loop()
        failures = 0
        pause = self.options.restart_first
        while not stop.is_set():
            started = loop.time()
            try:
                self.watch.running(name)
                await body(stop)
                if once or stop.is_set():
                    return
                continue
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if loop.time() - started > HEALTHY_SECONDS:
                    failures, pause = 0, self.options.restart_first
                transient = is_transient_error(error)
                if not transient:
                    failures += 1
                self.restarts[name] = self.restarts.get(name, 0) + 1
                self.watch.failed(name, error)
                kind = "a transient database error" if transient else f"failure {failures} of {MAX_FAILURES}"
                _log.error("%s failed (%s); restarting in %.0f s", name, kind, pause, exc_info=error)
                if failures >= MAX_FAILURES:
                    self.fatal = f"{name} failed {failures} times in a row; last: {error!r}"
                    _log.critical("stopping: %s", self.fatal)
                    stop.set()
                    return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=pause)
            pause = min(pause * 2, self.options.restart_longest)

    async def _intake(self, stop: asyncio.Event) -> None:
        """Fetch mail: always on a database of its own; on a shared one while this daemon is the elected
        fetcher, trying to become it every ``options.election_retry`` seconds otherwise."""
        assert self.intake is not None
        intake, leadership = self.intake, self.leadership
        if leadership is None:
            await intake.run(stop)
            return
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            if await loop.run_in_executor(None, leadership.try_lead):
                _log.info("this daemon fetches the mail now")
                fetching = asyncio.Event()  # set when this daemon stops fetching: stopped, or the lock lost
                watcher = asyncio.create_task(self._watch_leadership(leadership, stop, fetching))
                try:
                    await intake.run(fetching)
                finally:
                    watcher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await watcher
                    await loop.run_in_executor(None, leadership.resign)
                if not stop.is_set():
                    _log.warning("this daemon no longer fetches the mail (the fetcher's lock was lost)")
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.options.election_retry)

    async def _watch_leadership(self, leadership: IntakeLeadership, stop: asyncio.Event,
                                fetching: asyncio.Event) -> None:
        """Set ``fetching`` once ``stop`` is set or the fetcher's lock is lost (checked every
        ``options.election_retry`` seconds)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=self.options.election_retry)
                if stop.is_set() or not await loop.run_in_executor(None, leadership.still_leading):
                    return
        finally:
            fetching.set()

    async def _send(self, stop: asyncio.Event) -> None:
        await self._queue.release_claims()  # a restarted sender offers again what the failed one had taken
        await self.sender.run(stop, self._send_now)

    def _heartbeat(self) -> None:
        store_setting(self.db, LAST_SEEN_KEY, self.clock().isoformat())

    def _purge(self) -> tuple[bool, bool]:
        """Drop the text of some mail handled or sent longer than ``options.retention`` ago, and compact some
        finished games (``options.compact_after``). Return whether there may be more of either (both go a
        bounded batch at a time, between other work) and whether anything was purged or compacted."""
        now = self.clock()
        purged = purge_old_mail(self.db, now - self.options.retention)
        compacted = compact_finished(self.db, now, after=self.options.compact_after)
        freed = bool(purged.inbound or purged.outbound or purged.forgotten or compacted)
        return purged.more or compacted == COMPACT_BATCH, freed

    async def _purge_all(self) -> None:
        """Purge and compact until nothing more is due, then make the space freed reusable at once (SQLite: give
        it back to the file system); SQLite's write-ahead log is cut to nothing at each pass, freed or not."""
        more, freed = True, False
        while more:
            more, freed_now = await self._work(self._purge)
            freed = freed or freed_now
        if freed:
            await self._work(reclaim_space, self.db)
        else:
            await self._work(self.db.checkpoint)

    async def _process(self, stop: asyncio.Event) -> None:
        quiet = self.options.shared_poll if self.db.shared else 1.0
        while not stop.is_set():
            self._new_mail.clear()
            # A transient database error leaves the mail stored and unhandled, and the supervisor restarts
            # this loop after a pause: it then takes the oldest unhandled mail again.
            while not stop.is_set() and (outcome := await self._work(self._handle_next)) is not None:
                if isinstance(outcome, HandledMail):  # else failed for good (marked so), or to be tried again
                    await self._handled(outcome)
                self._send_answers_to_failures()
            if not self._new_mail.is_set():
                self._idle.set()
            with contextlib.suppress(TimeoutError):  # quiet for a while: look in the database again, whoever stored
                await asyncio.wait_for(self._new_mail.wait(), timeout=self._quiet_time(quiet))

    def _quiet_time(self, longest: float) -> float:
        """How long the processing loop may wait for new mail: ``longest``, or less when a mail's next try
        comes sooner."""
        if self._next_retry is None:
            return longest
        wait = self._next_retry - time.monotonic()
        if wait < 0:  # tried again since (the loop looked after it was due)
            self._next_retry = None
            return longest
        return min(longest, wait + 0.01)

    def _send_answers_to_failures(self) -> None:
        """Wake the sender when the worker queued an answer to a mail that ended unhandled."""
        if self._answered_failure:
            self._answered_failure = False
            self._wake_sender()

    def _handle_next(self) -> HandledMail | bool | None:
        """Handle the oldest unhandled mail (in the worker thread); return what was done, False when it
        failed for good (and was marked so) or is to be tried again, None when there is no mail to handle.
        Raises transient database errors (the mail stays unhandled, to be tried again)."""
        started = time.perf_counter()
        found = self._guarded(None, self.handler.handle_next)
        if found is None:
            # Every stored mail is handled, unless one waits for its next try (see _failed, which clears this).
            if not self._in_order:
                self._in_order = not self.inbound.has_new()
            return None
        if found is False:
            return False
        inbound_id, outcome = found
        return self._log_handled(inbound_id, outcome, started)

    def _guarded(self, inbound_id: int | None, handle: Callable[..., T], *args: Any) -> T | Literal[False]:
        """``handle(*args)``, one of the handler's entry points, within the time budget of one mail (the
        mail ``inbound_id``, or the next one): False when the mail failed (see :meth:`_failed`); a transient
        error is raised, and the mails stored after the mail wait for it."""
        try:
            with self.watchdog.watching(inbound_id):
                return handle(*args)
        except MailFailed as failure:
            self._failed(failure)
            return False
        except OverBudget:  # the budget ran out as the handler ended: what it did was committed, or not at all
            _log.warning("inbound %s: the time budget ran out as its handling ended", inbound_id or "(next)")
            self._in_order = False
            return False
        except Exception:
            self._in_order = False  # transient: the mails stored after it wait for it (the loop looks)
            raise

    def _log_handled(self, inbound_id: int, outcome: HandledMail, started: float) -> HandledMail:
        """Log what handling a mail did, and how long it took since ``started`` (``time.perf_counter``)."""
        self._conflicts.pop(inbound_id, None)
        ms = (time.perf_counter() - started) * 1000
        self.metrics.mail_handled(ms / 1000)
        done = ", ".join(outcome.done) or outcome.reason or outcome.status
        where = f" {outcome.game}/{outcome.seat}" if outcome.seat else f" {outcome.game}" if outcome.game else ""
        _log.info("mail %s from %s%s: %s (%s) %.1f ms", inbound_id, outcome.sender or "?", where, done,
                  outcome.status, ms, extra={"inbound": inbound_id, "sender": outcome.sender, "game": outcome.game,
                                            "seat": outcome.seat, "done": done, "ms": round(ms, 1)})
        return outcome

    def _failed(self, failure: MailFailed) -> None:
        """A mail could not be handled (its transaction was rolled back). When it collided with another
        daemon's work (a unique key both wrote), it is handled again at once, up to :data:`CONFLICT_RETRIES`
        times. When it ran over the time budget, it is set aside. Otherwise it is tried again later (see
        :mod:`pbem.mail.running.retries`), up to :data:`~pbem.mail.running.retries.MAX_TRIES` tries, then failed. A mail set
        aside or failed gets its one short answer (:meth:`MailHandler.tell_unhandled`), and the log the
        traceback; each try before, a short line. The daemon goes on with the next mail."""
        inbound_id, error = failure.inbound_id, failure.__cause__
        self._in_order = False  # it is still to be handled, before the mails stored after it (or ended)
        if isinstance(error, IntegrityError) and self._conflicts.get(inbound_id, 0) < CONFLICT_RETRIES:
            self._conflicts[inbound_id] = self._conflicts.get(inbound_id, 0) + 1
            _log.info("inbound %s collided with another daemon's work; handling it again", inbound_id)
            return
        self._conflicts.pop(inbound_id, None)
        overran = isinstance(failure, MailOverran)
        what = (f"over the time budget of {self.options.mail_budget:g} s" if overran
                else f"{type(error).__name__}: {error}".partition("\n")[0])
        with self.db.session() as session:
            counted = InboundStore.count_try(session, inbound_id)
            if counted is None:
                return  # handled meanwhile (the budget ran out as another daemon's try ended)
            attempts, raw, size = counted
            retry_at = None if overran else next_try(utcnow(), attempts, self.options.retry_first)
            if retry_at is not None:
                InboundStore.schedule(session, inbound_id, "new", what, retry_at)
                self._next_retry = time.monotonic() + (retry_at - utcnow()).total_seconds()
                _log.warning("inbound %s could not be handled (try %d of %d: %s); trying again at %s UTC",
                             inbound_id, attempts, MAX_TRIES, what, f"{retry_at:%H:%M:%S}")
                return
            status = "set_aside" if overran else "failed"
            mail = failure.mail  # its one parse, when it was made: its bytes are not read again
            held = None if mail is None else may_hold_password(mail)
            if InboundStore.finish(session, inbound_id, status, what[:1000], raw, held_password=held, at=self.clock()):
                self.db.forgot_secret()
            if overran:
                self.metrics.record_set_aside()
            else:
                self.metrics.failed.inc()
            told = (self._tell_unhandled(session, inbound_id, (raw, size), overran, mail) if is_first_end(attempts)
                    else "not told again")
        self._answered_failure = self._answered_failure or told == "told"
        if overran:
            _log.error("inbound %s set aside: handling it ran over the time budget of %g s and was interrupted "
                       "where the traceback shows (%s); the daemon goes on (pbem mail retry %s tries it again)",
                       inbound_id, self.options.mail_budget, told, inbound_id, exc_info=error)
        else:
            _log.error("inbound %s could not be handled after %d tries; given up (%s)", inbound_id, attempts, told,
                       exc_info=error)

    def _tell_unhandled(self, session: Session, inbound_id: int, stored: tuple[bytes, int], overran: bool,
                        mail: Read | None) -> str:
        """The one short answer to a mail that ended unhandled (see :meth:`MailHandler.tell_unhandled`),
        within a time budget of its own; return what was done, for the log."""
        answer = ("Your mail could not be read: reading it took longer than the game master allows."
                  if overran else "Your mail could not be handled.")
        try:
            with self.watchdog.watching(inbound_id):
                return self.handler.tell_unhandled(session, inbound_id, stored, answer, mail)
        except OverBudget:
            return "not told: reading its header fields ran over the time budget too"

    def _stuck(self, what: object, seconds: float) -> None:
        """The watchdog's word that handling a mail is still running after it was interrupted (stuck in code
        that does not return to the interpreter): said in the log, once per mail."""
        _log.critical("inbound %s has held the worker thread for %.0f s and could not be interrupted (it is "
                      "stuck outside Python code): mail, clock and sending wait for it. If it does not end, "
                      "restart pbem serve; the mail is then handled from scratch", what or "(next)", seconds)

    async def _run_clock(self, games: Collection[str] | None = None) -> None:
        result = await self._work(functools.partial(self.turn_clock.tick, self.clock(), games=games))
        if result.did_something:
            self._wake_sender()

    async def _clock_pass(self, stop: asyncio.Event) -> None:
        """Work on every game that is due, one game per piece of work (mail is handled in between), a
        bounded batch of due games at a time. After a game that queued mail, the clock lets the sender
        send it first (for at most ``options.clock_yield`` seconds): in a deadline storm reports then go
        out as they are made, instead of every mark of a sent mail waiting behind the next game's work.
        First the leagues' due steps, one step per piece of work (see :mod:`pbem.service.league_steps`)."""
        while not stop.is_set() and await self._work(self.turn_clock.step_league, self.clock()):
            self.watch.beat("clock")
            self._wake_sender()
        while not stop.is_set():
            now = self.clock()
            batch = await self._work(self.turn_clock.due_games, now)
            for game_id in batch:
                self.watch.beat("clock")
                result = await self._work(self.turn_clock.work_on, game_id, now)
                if result.did_something:
                    self._wake_sender()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.sender.idle.wait(), self.options.clock_yield)
                if stop.is_set():
                    return
            if len(batch) < CLOCK_BATCH:
                return

    async def _tick(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        beat = purged = loop.time()
        purged_on = self.clock()
        while not stop.is_set():
            self.watch.beat("clock")
            await self._clock_pass(stop)
            if self.db.has_forgotten:  # passwords removed since the last pass: no copy stays on disk (batched)
                await self._work(self.db.scrub)
            if loop.time() - beat >= HEARTBEAT_SECONDS:
                await self._work(self._heartbeat)
                beat = loop.time()
            # An hour by the loop or by the daemon's clock, whichever passes first: the retention is counted on
            # the daemon's clock, so a clock that runs fast (a simulation, bench/bench_soak.py) purges as often.
            if loop.time() - purged >= PURGE_SECONDS or self.clock() - purged_on >= timedelta(seconds=PURGE_SECONDS):
                await self._purge_all()
                purged, purged_on = loop.time(), self.clock()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.options.clock_interval)


@dataclass(frozen=True)
class Taken:
    """What became of one mail the intake took: the exception that kept it from being stored, or the id of
    a stored mail left to the processing loop (which handles stored mail in the order it was stored), or
    what handling it did (None for all three: stored before, or failed for good)."""

    error: Exception | None = None
    left: int | None = None
    outcome: HandledMail | None = None


class WorkerOutbox:
    """The database outbox as the sender's :class:`~pbem.mail.outbound.outbox.OutboxQueue`: each call runs through
    ``work`` (the daemon's database thread), except a claim of mails the worker claimed already, at the
    end of its work on the mail they answer (:meth:`hand_over`), and a mail marked sent, through ``short_work``
    (on the event loop when it can: see :meth:`MailDaemon._short_work`)."""

    def __init__(self, outbox: DatabaseOutbox, work: Callable[..., Awaitable[object]],
                 short_work: Callable[..., Awaitable[object]]) -> None:
        self._outbox = outbox
        self._work = work
        self._short_work = short_work
        self._claimed: list[OutgoingMail] = []

    def hand_over(self, mails: Sequence[OutgoingMail]) -> None:
        """Keep ``mails``, claimed in the worker, for the sender's next :meth:`claim_due`."""
        self._claimed.extend(mails)

    async def release_claims(self) -> None:
        """Forget every claim (see :meth:`DatabaseOutbox.release_claims`), the mails handed over too."""
        self._claimed.clear()
        await self._work(self._outbox.release_claims)

    async def claim_due(self, now: datetime, limit: int) -> Sequence[OutgoingMail]:
        """The mails handed over, else see :meth:`DatabaseOutbox.claim_due`."""
        if self._claimed:
            mails, self._claimed = self._claimed[:limit], self._claimed[limit:]
            return mails
        return await self._work(self._outbox.claim_due, now, limit)  # type: ignore[return-value]

    def holds(self, mail_id: int) -> bool:
        """See :meth:`DatabaseOutbox.holds` (called on the event loop: it reads no database)."""
        return self._outbox.holds(mail_id)

    async def mark_sent(self, mail_id: int, when: datetime) -> None:
        """See :meth:`DatabaseOutbox.mark_sent`."""
        await self._short_work(self._outbox.mark_sent, mail_id, when)

    async def mark_retry(self, mail_id: int, error: str, next_attempt: datetime) -> None:
        """See :meth:`DatabaseOutbox.mark_retry`."""
        await self._work(self._outbox.mark_retry, mail_id, error, next_attempt)

    async def mark_failed(self, mail_id: int, error: str) -> None:
        """See :meth:`DatabaseOutbox.mark_failed`."""
        await self._work(self._outbox.mark_failed, mail_id, error)

    async def next_due(self) -> datetime | None:
        """See :meth:`DatabaseOutbox.next_due`."""
        return await self._work(self._outbox.next_due)  # type: ignore[return-value]
