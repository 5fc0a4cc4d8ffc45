"""Handling one stored mail: who sent it, what it asks, and the reply.

:meth:`MailHandler.handle` runs in one unit of work: the changes the mail
makes (orders, joins, GM actions, resolutions), the reply and any other mail
it causes are committed together with the mark that the mail was handled,
so a crash anywhere either leaves the mail to be handled again from scratch
or has handled it completely, never half. What a mail's commands do is the
service's (:mod:`pbem.service`); this module reads the mail, applies the mail
policy (what is never answered, size and rate limits) and sends the reply.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from pbem import budget
from pbem.budget import OverBudget
from pbem.core import PbemError
from pbem.mail.answering import consent as consent_mail
from pbem.mail.answering.conversation import Conversation, Desk, HandledMail
from pbem.mail.commands.registry import command_for
from pbem.mail.commands.script import Script, parse_script
from pbem.mail.commands.seats.session import SeatSession
from pbem.mail.handling.bounces import BounceReport
from pbem.mail.handling.incoming import Read, identity_read, read_incoming
from pbem.mail.outbound.compose import compose_notice
from pbem.mail.outbound.notices import FROM_NAME, INVITATION, MAX_MAIL_TO_OTHERS, MailNotifier
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.reading.authresults import from_fails_dmarc
from pbem.mail.reading.mailstore import InboundStore
from pbem.mail.reading.parse import IncomingMail, MalformedMail, parse_mail, subject_tag
from pbem.mail.answering.policy import (
    DEFAULT_MAX_SIZE,
    RateLimiter,
    is_oversized,
    never_answer_reason,
)
from pbem.mail.answering.reply import Reply, reply_limit, send_reply
from pbem.mail.commands.seats.press import press_reply
from pbem.mail.outbound.tokens import ReplyTokens, is_token_address, press_author
from pbem.service import consent, submissions
from pbem.service.api import GameService
from pbem.service.unit import Unit
from pbem.store import is_transient_error
from pbem.zones import mark

_log = logging.getLogger(__name__)


class MailBudget(Protocol):
    """A mail's time budget as the daemon's watchdog keeps it (:class:`~pbem.mail.running.watchdog.Arming`)."""

    def __call__(self, named: object, /) -> None:
        """Count the budget (what is left of it) from now; ``named`` names the mail."""

    def hold(self) -> None:
        """Stop counting it until the next call."""


class MailFailed(RuntimeError):
    """Handling a stored mail failed for a reason other than the database being away; ``inbound_id`` says
    which mail (its transaction was rolled back: it is still unhandled), ``mail`` its one parse when it was
    made (what finishing the mail unhandled takes, instead of reading its bytes again). The cause is the error."""

    def __init__(self, inbound_id: int, mail: Read | None = None) -> None:
        super().__init__(f"inbound {inbound_id} could not be handled")
        self.inbound_id = inbound_id
        self.mail = mail


class MailOverran(MailFailed):
    """Handling a stored mail ran over its time budget and was interrupted (see :mod:`pbem.mail.running.watchdog`);
    its transaction was rolled back. The cause is the :class:`~pbem.budget.OverBudget`."""


class NotStored(RuntimeError):
    """Storing and handling a mail in one unit of work (:meth:`MailHandler.store_and_handle`) failed: the
    unit was rolled back, so the mail is not stored either. The cause is the error (a
    :class:`~pbem.budget.OverBudget` when the watchdog interrupted it); ``mail`` is its one parse, when it
    was made (storing it alone and finishing it take it)."""

    def __init__(self, message: str, mail: Read | None = None) -> None:
        super().__init__(message)
        self.mail = mail


class _StoredBefore(Exception):  # noqa: N818 - rolls back the unit of a mail whose Message-ID was stored before
    pass


UNHANDLED_WINDOW = timedelta(hours=1)
"""A sender is told of at most one mail per hour that could not be handled; the others in the hour are
folded into that answer (logged, not answered)."""


class MailHandler:
    """Turns stored inbound mail into calls to the game service, and replies."""

    def __init__(
        self,
        service: GameService,
        *,
        address: str,
        tokens: ReplyTokens,
        clock: Callable[[], datetime],
        max_size: int = DEFAULT_MAX_SIZE,
        rate_limiter: RateLimiter | None = None,
        query_limiter: RateLimiter | None = None,
        web_url: str | None = None,
        trusted_authserv: tuple[str, ...] = (),
        on_bounce: Callable[[], None] | None = None,
    ) -> None:
        self.service = service
        self.tokens = tokens
        self.on_bounce = on_bounce
        """Called for each bounce read (a counter of the operator's metrics)."""
        self.trusted_authserv = trusted_authserv
        """The receiving servers whose DMARC verdict on the From pbem believes (:mod:`pbem.mail.reading.authresults`)."""
        self.address = address.lower()
        self.clock = clock
        self.max_size = max_size
        self.rate_limiter = rate_limiter or RateLimiter()
        self.query_limiter = query_limiter or RateLimiter()
        """STATUS, CHECK and HELP mails count here, apart from the rest."""
        self.notifier = MailNotifier(address=self.address, tokens=tokens, clock=clock, web_url=web_url)
        self.desk = Desk(self.address, tokens, self.notifier, clock)
        self.unhandled_limiter = RateLimiter(max_mails=1, window=UNHANDLED_WINDOW)
        """Who was told lately that a mail of theirs could not be handled."""
        self._parsed: tuple[int, Read] | None = None  # the mail the last handling read, and its one parse
        service.on_resolved.append(self.notifier.on_resolved)
        service.on_news.append(self.notifier.on_news)

    # --- the one entry point ----------------------------------------------------

    def handle(self, inbound_id: int, stored: tuple[bytes, int] | None = None) -> HandledMail:
        """Handle one stored inbound mail completely, in one unit of work that holds the mail's lock;
        return what was done (``ignored``, "handled before", when it was handled already).

        ``stored``: the bytes stored and the size received of a mail the caller stored itself just
        before, in the same thread and not handled since, on a database no other daemon handles mail
        of (saves reading them back); None reads them, and the mail's status, from the database.
        Raises transient database errors as they are, :class:`MailOverran` when the watchdog interrupted it,
        and :class:`MailFailed` for any other failure (the unit is rolled back in every case)."""
        self._parsed = None
        try:
            with self.service.unit() as unit:
                return self._handle_stored(unit, inbound_id, stored)
        except OverBudget as overrun:
            raise MailOverran(inbound_id, self._parse_of(inbound_id)) from overrun
        except Exception as error:
            if budget.is_spent():  # a statement the database ended for the budget, or an error on the way out
                raise MailOverran(inbound_id, self._parse_of(inbound_id)) from error
            if is_transient_error(error):
                raise
            raise MailFailed(inbound_id, self._parse_of(inbound_id)) from error

    def store_and_handle(self, inbound: InboundStore, uid: int | None, raw: bytes, mail_budget: MailBudget, *,
                         before_commit: Callable[[Unit, HandledMail], None] | None = None,
                         ) -> tuple[int, HandledMail] | None:
        """Store a mail just taken from the mailbox (``uid``) and handle it completely, in one unit of work:
        the mail, what it changed and its reply commit together, with one commit. Only for a database no
        other daemon handles mail of, while every mail stored before is handled. The mail's time budget
        (``mail_budget``) counts from its parse, is held while the unit waits to write, and counts again once the
        mail's row is written (named by its id) to the end. ``before_commit`` is called in the unit with what
        was done, once the mail is handled (the daemon claims its reply for the sender there, in the same
        commit). Return the mail's id and what was done, or None when its Message-ID was stored before
        (nothing is done). Raises :class:`NotStored` for any failure: the unit is rolled back, the mail is
        not stored."""
        kept = inbound.kept(raw)
        try:
            mail_budget(f"(uid {uid})")  # a hostile mail's parse is the mail's work
            read = self._read(kept, len(raw))  # the one parse: the store takes the mail's identity from it
        except OverBudget as overrun:
            raise NotStored(f"mail {uid} overran as it was read") from overrun
        mail_budget.hold()  # waiting for the database's write lock is not
        identity = identity_read(read)
        try:
            with self.service.unit() as unit:
                try:  # an oversized mail's identity hashes all its bytes, not the beginning kept
                    inbound_id = inbound.insert(unit.session.connection(), uid, raw, handled_in_unit=True,
                                                identity=identity if kept is raw else None)
                except IntegrityError as error:
                    raise _StoredBefore from error
                mail_budget(inbound_id)
                handled = self._handle_stored(unit, inbound_id, (kept, len(raw)), read)
                if before_commit is not None:
                    before_commit(unit, handled)
                return inbound_id, handled
        except _StoredBefore:
            return None
        except OverBudget as overrun:
            raise NotStored(f"mail {uid} overran", read) from overrun
        except Exception as error:
            if budget.is_spent():  # a statement the database ended for the budget
                overrun = OverBudget(f"over the time budget: {error}")
                overrun.__cause__ = error
                raise NotStored(f"mail {uid} overran", read) from overrun
            raise NotStored(f"mail {uid} could not be handled", read) from error

    def handle_next(self) -> tuple[int, HandledMail] | None:
        """Handle the oldest stored mail not yet handled that no other daemon is handling, completely, in
        one unit of work that holds its lock; return its id and what was done, or None when there is none.
        Raises transient database errors as they are, :class:`MailOverran` when the watchdog interrupted it,
        and :class:`MailFailed` for any other failure (the unit is rolled back in every case);
        :class:`~pbem.budget.OverBudget` as it is when it came before a mail was claimed."""
        claimed: int | None = None
        self._parsed = None
        try:
            with self.service.unit() as unit:
                claimed = InboundStore.claim_next(unit.session)
                if claimed is None:
                    return None
                return claimed, self._handle_stored(unit, claimed)
        except OverBudget as overrun:
            if claimed is None:
                raise
            raise MailOverran(claimed, self._parse_of(claimed)) from overrun
        except Exception as error:
            if claimed is not None and budget.is_spent():
                raise MailOverran(claimed, self._parse_of(claimed)) from error
            if claimed is None or is_transient_error(error):
                raise
            raise MailFailed(claimed, self._parse_of(claimed)) from error

    def _read(self, raw: bytes, size: int) -> IncomingMail | MalformedMail:
        """The one parse of a stored mail (:func:`~pbem.mail.handling.incoming.read_incoming`), or why it cannot be read."""
        try:
            return read_incoming(raw, size=size, oversized=is_oversized(size, self.max_size),
                                 bounced_mail=self.tokens.bounced_mail)
        except MalformedMail as error:
            return error

    def _parse_of(self, inbound_id: int) -> Read | None:
        """The one parse of mail ``inbound_id`` made by the last handling, when it got that far."""
        return self._parsed[1] if self._parsed is not None and self._parsed[0] == inbound_id else None

    def _handle_stored(self, unit: Unit, inbound_id: int, stored: tuple[bytes, int] | None = None,
                       read: Read | None = None) -> HandledMail:
        """Handle a stored mail (``stored``: its bytes and size, None to read them from the database;
        ``read``: its one parse, when the caller made it) and record how its handling ended. The parse
        made here is kept (:meth:`_parse_of`): should the handling fail, finishing the mail takes it."""
        if stored is not None:
            raw, size = stored
        else:
            status, raw, size = InboundStore.stored(unit.session, inbound_id)
            if status != "new":
                return HandledMail("ignored", "handled before")
        mail = self._read(raw, size) if read is None else read
        self._parsed = (inbound_id, mail)
        if isinstance(mail, IncomingMail):
            handled = self._handle(unit, mail, inbound_id)
        else:
            _log.warning("inbound %s: malformed mail: %s", inbound_id, mail)
            handled = HandledMail("failed", f"malformed: {mail}")
            handled.held_password = True  # it cannot be read: it may hold one for all anyone knows
            sender = mail.sender
            if sender and sender != self.address and self.rate_limiter.allow(sender, self.clock()):
                self._refuse_unreadable(unit, sender, str(mail), inbound_id)
        handled.held_password = InboundStore.finish(
            unit.session, inbound_id, "handled" if handled.status != "failed" else "failed", handled.reason, raw,
            held_password=handled.held_password, at=self.clock())
        if handled.held_password:
            self.service.db.forgot_secret()
        return handled

    def _handle(self, unit: Unit, mail: IncomingMail, inbound_id: int) -> HandledMail:
        if mail.bounce is not None:  # to the bounce address of a mail pbem sent: never answered
            handled = self._take_bounce(unit, *mail.bounce, inbound_id)  # type: ignore[arg-type]
        else:
            handled = self._answer(unit, mail, inbound_id,
                                   forged=from_fails_dmarc(mail.auth_results, self.trusted_authserv))
        # Whatever became of the mail (answered, ignored, rate-limited, not read), as its one parse found it.
        handled.held_password = mail.holds_password
        return handled

    def _answer(self, unit: Unit, mail: IncomingMail, inbound_id: int, *, forged: bool = False) -> HandledMail:
        """Apply the mail policy to a read mail and carry out and answer what it asks; return what was done.
        A ``forged`` From (the receiving server's DMARC check failed) gets no answer, does not count as
        asking for mail, and commands resting on it alone are refused (see :data:`_FROM_ALONE`)."""
        reason = never_answer_reason(mail, [self.address])
        if reason is not None:
            _log.info("inbound %s from %s ignored: %s", inbound_id, mail.sender, reason)
            return HandledMail("ignored", reason)
        if forged:
            _log.warning("inbound %s: the receiving server's DMARC check failed for the From %s: it is not "
                         "answered, and JOIN, STOP and CREATE in it are not carried out", inbound_id, mail.sender)
        now = self.clock()
        unit.mail_from = mail.sender
        # it wrote to pbem: pbem may write to it (not when the From is forged)
        newly_asked = not forged and consent.record_asked(unit, mail.sender)
        reply = Reply(limit=reply_limit(mail.size))
        if is_oversized(mail.size, self.max_size):
            if self.rate_limiter.is_limited(mail.sender, now):
                return HandledMail("ignored", "rate limited")
            reply.add(f"Your mail is {mail.size:,} bytes, over the limit of {self.max_size:,} bytes, so it was not "
                      "read. Send your orders as a short plain-text mail.")
            _send_unless_forged(unit, self.notifier, mail, reply, inbound_id, forged)
            self.rate_limiter.count(mail.sender, now)
            return HandledMail("handled", "oversized")
        token_address = next((a for a in mail.recipients if is_token_address(a)), None)
        author = press_author(token_address) if token_address is not None else None
        conv = Conversation(self.desk, unit, mail, reply, HandledMail("handled"), token_address,
                            from_forged=forged)
        # Each branch below checks the signature of the address written to before anything is answered, and
        # asks the rate limit before it answers: only a mail that acted for its sender's own seat, through
        # a genuine reply address, is answered past the limit (as orders are).
        if author == INVITATION:  # a reply to an invitation: it accepts, or says STOP
            try:
                consent_mail.check_invitation(conv)
            except consent_mail.NotAnInvitation as error:  # a stranger's mail, refused within the limit
                reply.refuse(0, error)
                if newly_asked:  # a first mail accepts the sender's own invitations, as any first mail does
                    consent_mail.accept_invitations(conv)
                return self._answer_within_limit(conv, now, inbound_id, ["invitation reply"], exempt=False)
            consent_mail.answer_invitation(conv, accepted_now=newly_asked)
            return self._answer_within_limit(conv, now, inbound_id, ["invitation reply"], exempt=conv.handled.acted)
        if author is not None:  # a reply to a press mail: press back to its author, never orders
            try:
                press_reply(conv, author)
            except (PbemError, ValueError) as error:
                reply.add(f"REFUSED: {error}")
                return self._answer_within_limit(conv, now, inbound_id, ["press reply"], exempt=False)
            return self._answer_within_limit(conv, now, inbound_id, ["press reply"], exempt=True)
        stop_token = consent_mail.stop_token_of(mail.subject)
        if stop_token is not None:  # a List-Unsubscribe mail: a genuine token always stops, answered within the limit
            try:
                consent_mail.stop_by_token(conv, stop_token)
            except PbemError as error:
                reply.refuse(0, error)
            return self._answer_within_limit(conv, now, inbound_id, ["STOP"], exempt=False)
        conv.tag = subject_tag(mail.subject)
        script = parse_script(mail.body, token_seat=token_address is not None, game=conv.tag,
                              is_order=submissions.order_test(unit, conv.tag))
        reply.secret = mail.body_holds_password  # it may quote a line that held one: keep no copy once sent
        limiter = self.query_limiter if _only_queries(script) else self.rate_limiter
        limited = limiter.is_limited(mail.sender, now)
        if limited and not _claims_seat(script):
            # Strangers and loops: no answer, but one notice when the pause starts. Mail that signs on a
            # seat is still handled below: a player's orders are never dropped by the rate limit.
            if not forged:
                self._tell_limited(unit, mail, limiter, now, inbound_id)
            _log.warning("inbound %s from %s ignored: rate limit", inbound_id, mail.sender)
            return HandledMail("ignored", "rate limited")
        if newly_asked:
            consent_mail.accept_invitations(conv)
        _run_script(conv, script)
        if unit.held_back:
            reply.line = 10**9
            reply.add(f"{unit.held_back:,} notice(s) were not sent: one mail may cause at most {MAX_MAIL_TO_OTHERS} "
                      "mails besides this answer and turn reports. Send fewer commands per mail.")
        handled = conv.handled
        for name in {game for game, _ in handled.submitted}:
            if unit.game(name).orders_at is not None:  # orders that may make its turn due: see submissions
                handled.due.add(name)
        if not handled.acted:
            # A player whose mail did something for their seat (orders accepted, a command carried out) is
            # not a flood; a mail program answering every mail from the game (nothing accepted) is one, and
            # a loop: it is counted, and past the limit it is no longer answered.
            if limited:
                if not forged:
                    self._tell_limited(unit, mail, limiter, now, inbound_id)
                return HandledMail("ignored", "rate limited")
            limiter.count(mail.sender, now)
        _send_unless_forged(unit, self.notifier, mail, reply, inbound_id, forged)
        return _described(conv, [command.log_word() for command in script.commands])

    def _answer_within_limit(self, conv: Conversation, now: datetime, inbound_id: int, done: list[str], *,
                             exempt: bool) -> HandledMail:
        """Send the reply of a mail to a reply address (an invitation's, a press mail's, an unsubscribe
        mail), and return what was done: ``exempt`` (it acted for the sender's own seat, through a genuine
        reply address) answers it whatever the rate limit says; any other counts toward its sender's limit,
        and past the limit gets no answer (only the one notice when the pause starts)."""
        mail = conv.mail
        if not exempt:
            if self.rate_limiter.is_limited(mail.sender, now):
                if not conv.from_forged:
                    self._tell_limited(conv.unit, mail, self.rate_limiter, now, inbound_id)
                _log.warning("inbound %s from %s not answered: rate limit", inbound_id, mail.sender)
                return HandledMail("ignored", "rate limited")
            self.rate_limiter.count(mail.sender, now)
        _send_unless_forged(conv.unit, self.notifier, mail, conv.reply, inbound_id, conv.from_forged)
        return _described(conv, done)

    def _take_bounce(self, unit: Unit, mail_id: int, report: BounceReport, inbound_id: int) -> HandledMail:
        """A mail to the bounce address of outgoing mail ``mail_id``: when it reports a failure for good (or a
        failure for now of a mail that cannot go again), its recipients are undeliverable
        (:func:`consent.mark_undeliverable`: no more mail, the GMs told, the seats silent); a failure for now
        sends the mail again later, at most :data:`SOFT_BOUNCES` times. Never answered."""
        recipients = DatabaseOutbox.recipients_of(unit.session, mail_id)
        if not recipients or not report.is_bounce:
            _log.info("inbound %s to the bounce address of mail %s: %s", inbound_id, mail_id,
                      "no bounce pbem can read" if recipients else "that mail is gone")
            return HandledMail("ignored", "not a bounce pbem can read")
        if self.on_bounce is not None:
            self.on_bounce()
        said = report.diagnostic or "no reason given"
        if not report.permanent:
            again = self.clock() + SOFT_BOUNCE_PAUSE
            if DatabaseOutbox.requeue_bounced(unit.session, mail_id, f"soft bounce: {said}", again,
                                              most=SOFT_BOUNCES):
                _log.warning("inbound %s: mail %s to %s bounced for now (%s); sent again at %s", inbound_id, mail_id,
                             ", ".join(recipients), said, f"{again:%Y-%m-%d %H:%M} UTC")
                return HandledMail("ignored", f"soft bounce of mail {mail_id}")
        for address in recipients:
            consent.mark_undeliverable(unit, address, f"a bounce said: {said}")
        _log.warning("inbound %s: mail %s to %s bounced (%s): no more mail goes there until it writes again",
                     inbound_id, mail_id, ", ".join(recipients), said)
        return HandledMail("ignored", f"bounce of mail {mail_id}")

    def _tell_limited(self, unit: Unit, mail: IncomingMail, limiter: RateLimiter, now: datetime,
                      inbound_id: int) -> None:
        """Queue the one notice a sender gets when the rate limit starts to hold their mail back."""
        resume = limiter.first_refusal(mail.sender, now)
        if resume is None:
            return
        kind = "STATUS, CHECK and HELP mails" if limiter is self.query_limiter else "mails"
        reply = Reply()
        reply.add(f"You sent more than {limiter.max_mails} {kind} within {_hours(limiter.window)}, so such mail "
                  f"from {mail.sender} is not answered until {mark(resume)}. Orders for your seat (a reply "
                  "to a game mail, or SIGNON with your password) are still handled and answered.")
        send_reply(unit, self.notifier, mail, reply, inbound_id)

    def tell_unhandled(self, session: Session, inbound_id: int, stored: tuple[bytes, int], answer: str,
                       read: Read | None = None) -> str:
        """Queue, in ``session``, the one short answer to a mail that ended unhandled (given up, or set aside):
        ``answer`` and that nothing was stored. Only where an answer is allowed: not to mail that is never
        answered (loops, bounces, our own address: :func:`~pbem.mail.answering.policy.never_answer_reason`), nor to
        an unreadable or forged From, and at most once per sender per :data:`UNHANDLED_WINDOW`. ``read``: the
        mail's one parse, when this daemon made it; else (``stored``: its bytes and size) only its header
        fields are read. Return what was done, for the log: "told", or why not."""
        if read is None:
            raw, size = stored
            try:
                read = parse_mail(raw, headers_only=True, size=size)
            except MalformedMail as error:
                read = error
        if isinstance(read, MalformedMail):
            return f"not told: {read}"
        mail = read
        reason = never_answer_reason(mail, [self.address])
        if reason is not None:
            return f"not told: {reason}"
        if from_fails_dmarc(mail.auth_results, self.trusted_authserv):
            return f"not told: the receiving server found the From {mail.sender} forged (DMARC)"
        if not self.unhandled_limiter.allow(mail.sender, self.clock()):
            return f"not told: {mail.sender} was told of another such mail within the hour"
        message = compose_notice(
            to=mail.sender, from_address=self.address, from_name=FROM_NAME, now=self.clock(),
            subject=f"Your mail could not be handled: {mail.subject}"[:200],
            body=f"{answer} The game master has been told. Nothing was stored: send your mail again later if it "
                 "still matters.\n",
        )
        DatabaseOutbox.enqueue(session, message, purpose="reply", inbound_id=inbound_id, at=self.clock())
        return "told"

    def _refuse_unreadable(self, unit: Unit, sender: str, problem: str, inbound_id: int) -> None:
        message = compose_notice(
            to=sender, from_address=self.address, from_name=FROM_NAME, now=self.clock(),
            subject="Your mail could not be read",
            body=f"Your mail could not be read ({problem}). Please send your orders again as plain text.\n",
            unsubscribe=self.notifier.unsubscribe(sender),
        )
        DatabaseOutbox.enqueue(unit.session, message, purpose="reply", inbound_id=inbound_id, at=unit.now())


def _run_script(conv: Conversation, script: Script) -> None:
    """Answer the script's problems, then carry out its commands in mail order; a refused command
    does not stop the others."""
    reply = conv.reply
    for problem in script.problems:
        reply.line = problem.line
        reply.add(f"line {problem.line}: {problem.text}\n" + " " * (problem.column + len(f"line {problem.line}: ") - 1)
                  + f"^\nREFUSED: {problem.message}")
    if script.stopped:
        reply.line = 10**9
        reply.add(f"Not read further: {script.stopped}.")
    if script.is_empty:
        if not conv.handled.acted:  # a plain reply that accepted an invitation needs nothing more
            reply.add("No commands or orders found in your mail. Send HELP for the list of commands.")
        return
    for command in script.commands:
        budget.check()
        reply.line = command.line
        conv.unit.actor = conv.mail.sender
        try:
            if conv.from_forged and command.rests_on_from:
                raise ForgedFrom(f"{command.log_word()}: it rests on your From address alone, which your mail "
                                 "server found forged (DMARC)")
            handle = command_for(command).handle
            assert handle is not None  # the script holds at its top only commands that may stand there
            handle(conv, command)
        except (PbemError, ValueError) as error:
            reply.refuse(command.line, error)
        conv.carried_out(command)


SOFT_BOUNCES = 3
"""How often a mail that bounced for now is sent again (a fourth bounce counts as one for good)."""
SOFT_BOUNCE_PAUSE = timedelta(hours=1)
"""How long after a bounce for now the mail goes again."""


class ForgedFrom(PbemError):
    """A command that rests on the From alone, in a mail whose From the receiving server found forged."""


def _send_unless_forged(unit: Unit, notifier: MailNotifier, mail: IncomingMail, reply: Reply, inbound_id: int,
                        forged: bool) -> None:
    """Queue the reply, unless the From is forged: then it would go to someone who did not write."""
    if not forged:
        send_reply(unit, notifier, mail, reply, inbound_id)


def _only_queries(script: Script) -> bool:
    """True when every command of the mail only asks (STATUS, HELP, CHECK, REPORT): those are limited apart."""
    return bool(script.commands) and all(command.counts_as_query() for command in script.commands)


def _claims_seat(script: Script) -> bool:
    """True when the mail speaks for a seat (a reply to a game mail, or SIGNON) to act, not only to check."""
    return any(isinstance(c, SeatSession) and not c.check for c in script.commands)


def _hours(window: timedelta) -> str:
    hours = window.total_seconds() / 3600
    return "an hour" if hours == 1 else f"{hours:g} hours"


def _described(conv: Conversation, done: list[str]) -> HandledMail:
    """What the mail did, with who sent it, the game and seat it spoke for, and its commands as words (for the log)."""
    handled = conv.handled
    handled.sender, handled.done = conv.mail.sender, done
    if conv.reply.row is not None:
        handled.game = conv.reply.row.name
        handled.seat = conv.reply.seat.name if conv.reply.seat is not None else ""
    return handled
