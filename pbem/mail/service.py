"""Handling one stored mail: who sent it, what it asks, what changes, and the reply.

:meth:`MailService.handle` runs in one database transaction: the changes the
mail makes (orders, joins, GM actions, resolutions), the reply and any other
mail it causes are committed together with the mark that the mail was
handled, so a crash anywhere either leaves the mail to be handled again from
scratch or has handled it completely, never half.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import Session, select

from pbem.campaign import Campaign, LockedOut, NotAuthorised
from pbem.checking import CheckResult, check_syntax
from pbem.clock import format_utc
from pbem.commands import (
    AssignSeat,
    CheckOrders,
    CreateGame,
    EndGame,
    Extend,
    GmCommand,
    GmSession,
    Help,
    Join,
    NoOrders,
    Pause,
    Press,
    ProcessTurn,
    Ready,
    Replace,
    Resign,
    Resume,
    SeatSession,
    SessionCommand,
    SetDeadline,
    Script,
    SetOptions,
    ShowOrders,
    StartGame,
    Reveal,
    Salt,
    Status,
    ViewJson,
    Verify,
    help_text,
    parse_script,
)
from pbem.core import InvalidInput, PbemError, StaleTurn
from pbem.core.rng import commitment
from pbem.games import find_game
from pbem.mail.compose import compose_notice, compose_reply, reply_subject
from pbem.mail.mailstore import DatabaseOutbox, InboundStore
from pbem.mail.notices import FROM_NAME, MailNotifier, set_view_json
from pbem.mail.parse import IncomingMail, MalformedMail, parse_mail, subject_tag
from pbem.mail.policy import DEFAULT_MAX_SIZE, RateLimiter, is_oversized, never_answer_reason
from pbem.mail.tokens import ReplyTokens, TokenError, is_token_address, press_author
from pbem.passwords import hash_password, new_password
from pbem.reports import MailSection, OrdersWanted, render_mail_html
from pbem.store.tables import GameRow, SeatRow
from pbem.turns import TurnRunner

_log = logging.getLogger(__name__)
# The turn a game mail's subject names: "[tc-1] Turn 3", "[tc-1] Reminder: turn 3 orders due".
_SUBJECT_TURN = re.compile(r"\][^\[\]]*?\bturn\s+(\d+)\b", re.I)


class SenderRefused(PbemError):
    """Mail that does not come from the address holding the seat it speaks for."""


@dataclass
class Outcome:
    """What handling one mail did, for logs and tests."""

    status: str  # handled | ignored | failed
    reason: str = ""
    submitted: list[tuple[str, str]] = field(default_factory=list)  # (game, seat) whose orders were stored
    accepted: int = 0  # order lines accepted and stored
    by_reply_address: bool = False  # a seat signed on by its reply address, from the seat's own address
    due: set[str] = field(default_factory=set)  # games the orders may have made due: worth a clock tick now
    password_failed: bool = False  # a password of this mail was wrong: no further one is checked
    created: int = 0  # games this mail created
    held_password: bool = False  # the mail held a password (SIGNON, GM): its stored copy is redacted
    acted: bool = False  # a seat signed on and something was done for it (orders accepted, a command)
    sender: str = ""  # for the log line of the mail
    game: str = ""
    seat: str = ""
    done: list[str] = field(default_factory=list)  # the commands carried out, as words (JOIN, orders, HELP)


MAX_REPLY = 64_000
"""Most characters of text in one reply."""
REPLY_FLOOR = 16_000
REPLY_MULTIPLE = 20
"""A reply is at most this many times the size of the mail it answers (but may always be ``REPLY_FLOOR``
long): a forged sender must not turn a small mail into a big one sent to somebody else."""
MAX_CREATIONS_PER_MAIL = 3
MAX_CREATIONS_PER_DAY = 10
"""Games one address may create in one mail, and in 24 hours."""


@dataclass
class _Reply:
    """The reply being written: its sections, and the seat it speaks to (for Reply-To).

    At most ``limit`` characters are kept; an answer repeating one given
    before is counted, not repeated; :meth:`text` says what was left out.
    """

    limit: int = MAX_REPLY
    line: int = 0  # the mail line whose command is being answered: sections are listed in line order
    sections: list[tuple[int, int, MailSection]] = field(default_factory=list)
    game: GameRow | None = None
    seat: SeatRow | None = None
    secret: bool = False  # holds a password: the sent copy is not kept
    tag_game: str | None = None  # a game this reply starts the player on (JOIN, CREATE): its tag goes in the subject
    size: int = 0
    repeats: dict[str, int] = field(default_factory=dict)
    left_out: int = 0

    def add(self, text: str, *, check: CheckResult | None = None, intro: str = "") -> None:
        """Add a section (with ``check``: an order check, shown as a table in HTML), unless it repeats one
        (then it is counted) or the reply is full (then it is dropped)."""
        text = text.rstrip() + "\n"
        if text in self.repeats:
            self.repeats[text] += 1
        elif self.size + len(text) > self.limit:
            self.left_out += 1
        else:
            self.repeats[text] = 0
            self.sections.append((self.line, len(self.sections), MailSection(text, check, intro)))
            self.size += len(text)

    def ordered(self) -> list[MailSection]:
        """The reply's sections in mail line order, then a note for each folded repeat and for what did
        not fit."""
        notes = [f"{first_line(text)}: answered once above; {count:,} more identical answer(s) left out."
                 for text, count in self.repeats.items() if count]
        if self.left_out:
            notes.append(f"This reply is limited to {self.limit:,} characters: {self.left_out:,} more answer(s) "
                         "were left out. Send fewer commands per mail.")
        ordered = [section for _, _, section in sorted(self.sections, key=lambda entry: entry[:2])]
        return ordered + [MailSection(note + "\n") for note in notes]

    def text(self) -> str:
        """The reply as plain text: :meth:`ordered` joined."""
        return "\n".join(section.text for section in self.ordered())

    @property
    def asks_for(self) -> OrdersWanted | None:
        """What to ask for when a check in the reply wants (corrected) orders."""
        for _, _, section in self.sections:
            if section.check is not None and section.check.asks_for_orders:
                return OrdersWanted(section.check.kind, section.check.deadline)
        return None


def first_line(text: str) -> str:
    """The first line of ``text``, cut to 60 characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= 60 else line[:57] + "..."


@dataclass
class _MailLimits:
    """What one mail has used of its per-mail allowances."""

    password_failed: bool = False  # after one wrong password, no password of the mail is checked
    created: int = 0


class MailService:
    """Turns stored inbound mail into game actions and replies."""

    def __init__(
        self,
        runner: TurnRunner,
        *,
        address: str,
        tokens: ReplyTokens,
        clock: Callable[[], datetime],
        max_size: int = DEFAULT_MAX_SIZE,
        rate_limiter: RateLimiter | None = None,
        query_limiter: RateLimiter | None = None,
        web_url: str | None = None,
    ) -> None:
        self.runner = runner
        self.campaign = Campaign(runner)
        self.address = address.lower()
        self.tokens = tokens
        self.clock = clock
        self.max_size = max_size
        self.rate_limiter = rate_limiter or RateLimiter()
        self.query_limiter = query_limiter or RateLimiter()
        """STATUS, CHECK and HELP mails count here, apart from the rest."""
        self.notifier = MailNotifier(address=self.address, tokens=tokens, clock=clock, web_url=web_url)
        runner.on_resolved.append(self.notifier.on_resolved)

    # --- the one entry point ----------------------------------------------------

    def handle(self, inbound_id: int) -> Outcome:
        """Handle one stored inbound mail completely, in one transaction; return what was done."""
        with self.runner.db.session() as session:
            status, raw, size = InboundStore.stored(session, inbound_id)
            if status != "new":
                return Outcome("ignored", "handled before")
            try:
                outcome = self._handle(session, raw, size, inbound_id)
            except MalformedMail as error:
                _log.warning("inbound %s: malformed mail: %s", inbound_id, error)
                outcome = Outcome("failed", f"malformed: {error}")
                sender = error.sender
                if sender and sender != self.address and self.rate_limiter.allow(sender, self.clock()):
                    self._refuse_unreadable(session, sender, str(error), inbound_id)
            InboundStore.set_status(session, inbound_id, "handled" if outcome.status != "failed" else "failed",
                                    outcome.reason)
            if outcome.held_password:
                InboundStore.redact(session, inbound_id, raw)
            return outcome

    def _handle(self, session: Session, raw: bytes, size: int, inbound_id: int) -> Outcome:
        # An oversized body is never decoded: 10 MB of HTML would hold the event loop for many seconds.
        mail = parse_mail(raw, headers_only=is_oversized(size, self.max_size), size=size)
        reason = never_answer_reason(mail, [self.address])
        if reason is not None:
            _log.info("inbound %s from %s ignored: %s", inbound_id, mail.sender, reason)
            return Outcome("ignored", reason)
        now = self.clock()
        reply = _Reply(limit=min(MAX_REPLY, max(REPLY_FLOOR, REPLY_MULTIPLE * mail.size)))
        if is_oversized(mail.size, self.max_size):
            if self.rate_limiter.is_limited(mail.sender, now):
                return Outcome("ignored", "rate limited")
            reply.add(f"Your mail is {mail.size:,} bytes, over the limit of {self.max_size:,} bytes, so it was not "
                      "read. Send your orders as a short plain-text mail.")
            self._send_reply(session, mail, reply, inbound_id)
            self.rate_limiter.count(mail.sender, now)
            return Outcome("handled", "oversized")
        token_address = next((a for a in mail.recipients if is_token_address(a)), None)
        author = press_author(token_address) if token_address is not None else None
        if author is not None:  # a reply to a press mail: press back to its author, never orders
            outcome = Outcome("handled")
            try:
                self._press_reply(session, mail, token_address, author, reply, outcome)
            except (PbemError, ValueError) as error:
                if self.rate_limiter.is_limited(mail.sender, now):
                    return Outcome("ignored", "rate limited")
                self.rate_limiter.count(mail.sender, now)
                reply.add(f"REFUSED: {error}")
            self._send_reply(session, mail, reply, inbound_id)
            return _described(outcome, mail, reply, ["press reply"])
        tag = subject_tag(mail.subject)
        script = parse_script(mail.body, token_seat=token_address is not None, game=tag)
        limiter = self.query_limiter if _only_queries(script) else self.rate_limiter
        limited = limiter.is_limited(mail.sender, now)
        if limited and not _claims_seat(script):
            # Strangers and loops: no answer, but one notice when the pause starts. Mail that signs on a
            # seat is still handled below: a player's orders are never dropped by the rate limit.
            self._tell_limited(session, mail, limiter, now, inbound_id)
            _log.warning("inbound %s from %s ignored: rate limit", inbound_id, mail.sender)
            return Outcome("ignored", "rate limited")
        outcome = Outcome("handled")
        self._run_script(session, mail, script, token_address, tag, reply, outcome)
        for name in {game for game, _ in outcome.submitted}:
            if self.runner.may_resolve_now(session, self.runner.load_game(session, name), now):
                outcome.due.add(name)
        if not outcome.acted:
            # A player whose mail did something for their seat (orders accepted, a command carried out) is
            # not a flood; a mail program answering every mail from the game (nothing accepted) is one, and
            # a loop: it is counted, and past the limit it is no longer answered.
            if limited:
                self._tell_limited(session, mail, limiter, now, inbound_id)
                return Outcome("ignored", "rate limited")
            limiter.count(mail.sender, now)
        self._send_reply(session, mail, reply, inbound_id)
        return _described(outcome, mail, reply, [_command_word(c) for c in script.commands])

    def _tell_limited(self, session: Session, mail: IncomingMail, limiter: RateLimiter, now: datetime,
                      inbound_id: int) -> None:
        """Queue the one notice a sender gets when the rate limit starts to hold their mail back."""
        resume = limiter.first_refusal(mail.sender, now)
        if resume is None:
            return
        kind = "STATUS, CHECK and HELP mails" if limiter is self.query_limiter else "mails"
        reply = _Reply()
        reply.add(f"You sent more than {limiter.max_mails} {kind} within {_hours(limiter.window)}, so such mail "
                  f"from {mail.sender} is not answered until {format_utc(resume)}. Orders for your seat (a reply "
                  "to a game mail, or SIGNON with your password) are still handled and answered.")
        self._send_reply(session, mail, reply, inbound_id)

    # --- reading the script ------------------------------------------------------

    def _run_script(self, session: Session, mail: IncomingMail, script: Script, token_address: str | None,
                    tag: str | None, reply: _Reply, outcome: Outcome) -> None:
        outcome.held_password = any(isinstance(c, GmSession) or (isinstance(c, SeatSession) and c.password)
                                    for c in script.commands)
        for problem in script.problems:
            reply.line = problem.line
            reply.add(f"line {problem.line}: {problem.text}\n" + " " * (problem.column + len(f"line {problem.line}: ") - 1)
                      + f"^\nREFUSED: {problem.message}")
        if script.stopped:
            reply.line = 10**9
            reply.add(f"Not read further: {script.stopped}.")
        if script.is_empty:
            reply.add("No commands or orders found in your mail. Send HELP for the list of commands.")
            return
        for command in script.commands:
            reply.line = command.line
            try:
                self._run_command(session, mail, command, token_address, tag, reply, outcome)
            except (PbemError, ValueError) as error:
                reply.line = command.line
                where = f"line {command.line}: " if command.line else ""
                reply.add(f"{where}REFUSED: {error}")

    def _run_command(self, session: Session, mail: IncomingMail, command: object, token_address: str | None,
                     tag: str | None, reply: _Reply, outcome: Outcome) -> None:
        if isinstance(command, Join):
            self._join(session, mail, command, reply)
        elif isinstance(command, ViewJson):
            set_view_json(session, mail.sender, on=command.on, now=self.clock())
            reply.add(f"VIEWJSON {'ON' if command.on else 'OFF'}: turn reports to {mail.sender} "
                      + ("will carry your seat's view as a JSON attachment, view.json." if command.on
                         else "will no longer carry your seat's view as JSON."))
        elif isinstance(command, Status):
            self._status(session, command.game or tag, reply)
        elif isinstance(command, Help):
            self._help(command, reply)
        elif isinstance(command, Salt):
            self._salt(session, mail, command, tag, reply)
        elif isinstance(command, Verify):
            self._verify(command.game, reply)
        elif isinstance(command, CheckOrders):
            result = check_syntax(command.kind, command.orders.numbered_text)
            intro = f"Syntax check against {result.kind} (nothing stored):"
            reply.add(f"{intro}\n" + result.render(), check=result, intro=intro)
        elif isinstance(command, SeatSession):
            self._seat_session(session, mail, command, token_address, tag, reply, outcome)
        elif isinstance(command, GmSession):
            self._check_gm(session, command, outcome)
            game = self.runner.load_game(session, command.game)
            self._gm_commands(session, mail, game, command.commands, reply)
        elif isinstance(command, CreateGame):
            self._create(session, mail, command, reply, outcome)

    # --- players -----------------------------------------------------------------

    def _join(self, session: Session, mail: IncomingMail, command: Join, reply: _Reply) -> None:
        joined = self.campaign.join(command.game, mail.sender, command.seat, session=session)
        game = self.runner.load_game(session, joined.game)
        seat = self.runner.load_seat(session, game, joined.seat)
        reply.game, reply.seat, reply.secret, reply.tag_game = game, seat, True, game.name
        reply.add(
            f"You joined game {joined.game} ({find_game(game.kind).title}) as seat {joined.seat}.\n"
            f"Your password is {joined.password} (for SIGNON {joined.game} {joined.seat} {joined.password}); "
            "you rarely need it: a plain reply to any mail from this game signs you on.\n"
            "The game starts when the GM sends START." + _commitment_line(game)
        )
        open_seats = [s.name for s in self.runner.load_seats(session, game) if not s.address]
        info = self.runner.snapshot(session, game)
        if open_seats:
            self.notifier.tell_gm(session, info, f"{mail.sender} joined {game.name} as seat {joined.seat}; "
                                                 f"open seats: {', '.join(open_seats)}.")
        else:
            self.notifier.tell_gm(session, info, f"{mail.sender} joined {game.name} as seat {joined.seat}; "
                                                 "every seat is taken. Send START to begin.")

    def _seat_session(self, session: Session, mail: IncomingMail, command: SeatSession, token_address: str | None,
                      tag: str | None, reply: _Reply, outcome: Outcome) -> None:
        game, seat = self._signed_on_seat(session, mail, command, token_address, tag, outcome)
        outcome.by_reply_address = outcome.by_reply_address or command.is_token_reply
        reply.game, reply.seat = game, seat
        if not command.orders.is_empty:
            self._orders(session, mail, game, seat, command, reply, outcome)
        outcome.acted = outcome.acted or bool(outcome.accepted) or bool(command.commands) or command.check
        for sub in command.commands:
            reply.line = sub.line
            try:
                self._session_command(session, mail, game, seat, sub, reply, outcome)
            except (PbemError, ValueError) as error:
                reply.line = sub.line
                reply.add(f"line {sub.line}: REFUSED: {error}")

    def _signed_on_seat(self, session: Session, mail: IncomingMail, command: SeatSession,
                        token_address: str | None, tag: str | None, outcome: Outcome) -> tuple[GameRow, SeatRow]:
        if command.is_token_reply:
            if token_address is None:
                raise SenderRefused("orders need SIGNON <game> <seat> <password>, or a reply to a mail from a game")
            return self._seat_by_token(session, mail, token_address)
        name = command.game or tag
        if name is None or command.seat is None or command.password is None:
            raise SenderRefused("SIGNON needs a game, a seat and a password: SIGNON <game> <seat> <password>")
        return self._seat_by_password(session, mail, name, command.seat, command.password, outcome)

    def _seat_by_token(self, session: Session, mail: IncomingMail, token_address: str) -> tuple[GameRow, SeatRow]:
        """The game and seat a reply address signs on, when it is genuine and the sender holds the seat
        (else SenderRefused; the seat's holder is told of a mail from another address)."""
        try:
            game_name, seat_name = self.tokens.verify(
                token_address, lambda g, s: self._key_version(session, g, s), self.clock().date()
            )
        except TokenError as error:
            raise SenderRefused(f"{error}. Nothing was changed.") from error
        game = self.runner.load_game(session, game_name)
        seat = self.runner.load_seat(session, game, seat_name)
        self._check_holder(session, mail, game, seat)
        return game, seat

    def _check_holder(self, session: Session, mail: IncomingMail, game: GameRow, seat: SeatRow) -> None:
        """Refuse mail that acts for a seat from another address than the seat's (its holder is told)."""
        if (seat.address or "").lower() != mail.sender:
            if seat.address:
                self.notifier.tell_address(
                    session, game, seat.address, "Mail refused",
                    f"A mail from {mail.sender} tried to act for your seat {seat.name} of game {game.name}. "
                    "It was refused and nothing was changed. Only mail from your address is accepted.",
                    seat=seat,
                )
            raise SenderRefused(
                f"seat {seat.name} of {game.name} is held by another address; mail from {mail.sender} cannot act "
                "for it. Nothing was changed, and the seat's holder was told."
            )

    def _seat_by_password(self, session: Session, mail: IncomingMail, name: str, seat_name: str, password: str,
                          outcome: Outcome) -> tuple[GameRow, SeatRow]:
        """The game and seat a SIGNON names, when its password is right and the sender holds the seat.

        A stranger gets one answer whether the password was right or wrong;
        after one wrong password no further password of the mail is checked;
        repeated wrong passwords lock the seat's checks (its holder is told once).
        """
        label = seat_name.upper()
        refused = (f"SIGNON {name} {label} refused: the password is wrong, or mail from {mail.sender} cannot "
                   "act for this seat. Nothing was changed.")
        if outcome.password_failed:
            raise SenderRefused(f"SIGNON {name} {label} not checked: a password earlier in this mail was wrong. "
                                "Nothing was changed.")
        try:
            seat = self.campaign.seat_for_signon(name, seat_name, password, sender=mail.sender, session=session)
        except LockedOut as error:
            raise SenderRefused(f"{error}. Nothing was changed.") from error
        except NotAuthorised as error:
            outcome.password_failed = True  # a right password from a stranger too: nothing may tell them apart
            if error.right_password:
                self._tell_holder(session, name, seat_name, "Mail refused", lambda seat, game: (
                    f"A mail from {mail.sender} tried to act for your seat {seat} of game {game} with its password. "
                    "It was refused and nothing was changed. Only mail from your address is accepted; ask the GM "
                    "for a new password if it is known to others."))
            if error.lockout_started:
                self._tell_holder(session, name, seat_name, "Password guessing", lambda seat, game: (
                    f"Several wrong passwords were sent for your seat {seat} of game {game}; password checks for "
                    "it pause, for longer after each further wrong one. Your reply address still works as always."))
            raise SenderRefused(refused) from error
        return self.runner.load_game(session, name), seat

    def _tell_holder(self, session: Session, name: str, seat_name: str, subject: str,
                     text: Callable[[str, str], str]) -> None:
        """Send the holder of a seat (if it has one) a notice whose text is ``text(seat name, game name)``."""
        game = self.runner.load_game(session, name)
        seat = self.runner.load_seat(session, game, seat_name)
        if seat.address:
            self.notifier.tell_address(session, game, seat.address, subject, text(seat.name, game.name), seat=seat)

    def _check_gm(self, session: Session, command: GmSession, outcome: Outcome) -> None:
        """Return when the GM password is right; refuse after an earlier wrong password of the mail,
        during a lockout, or for a wrong one (the GM is told once when a lockout starts)."""
        if outcome.password_failed:
            raise NotAuthorised(f"GM {command.game} not checked: a password earlier in this mail was wrong")
        try:
            self.campaign.check_gm(command.game, command.password, session=session)
        except LockedOut:
            raise
        except NotAuthorised as error:
            outcome.password_failed = True
            if error.lockout_started:
                game = self.runner.load_game(session, command.game)
                self.notifier.tell_gm(session, self.runner.snapshot(session, game),
                                      f"Several wrong GM passwords were sent for game {game.name}; GM password "
                                      "checks pause, for longer after each further wrong one.")
            raise

    def _key_version(self, session: Session, game: str, seat: str) -> int | None:
        try:
            row = self.runner.load_game(session, game)
            return self.runner.load_seat(session, row, seat).key_version
        except PbemError:
            return None

    def _orders(self, session: Session, mail: IncomingMail, game: GameRow, seat: SeatRow, command: SeatSession,
                reply: _Reply, outcome: Outcome) -> None:
        wanted = _SUBJECT_TURN.search(mail.subject)
        if wanted is not None and int(wanted.group(1)) != game.turn and game.status == "active":
            raise StaleTurn(game.name, int(wanted.group(1)), game.turn, message=(
                f"these orders answer turn {wanted.group(1)} of {game.name}, but the game is at turn {game.turn}; "
                "they were refused as stale. Read the newest report and send orders for the current turn."))
        result = self.runner.submit(
            game.name, seat.name, command.orders.numbered_text, store=not command.check,
            source=f"mail:{mail.message_id}", session=session,
        )
        intro = "CHECK only, nothing stored:" if command.check else ""
        reply.add((f"{intro}\n" if intro else "") + result.render(), check=result, intro=intro)
        if result.version is not None:
            outcome.submitted.append((game.name, seat.name))
            outcome.accepted += len(result.accepted)

    def _session_command(self, session: Session, mail: IncomingMail, game: GameRow, seat: SeatRow,
                         command: SessionCommand, reply: _Reply, outcome: Outcome) -> None:
        if isinstance(command, (Ready, NoOrders)):
            ready = isinstance(command, Ready)
            version = self.runner.withdraw(game.name, seat.name, ready=ready, source=f"mail:{mail.message_id}",
                                           session=session)
            outcome.submitted.append((game.name, seat.name))
            if ready:
                current = self.runner.current_orders(game.name, seat.name, session=session)
                held = "" if current is not None and current.orders else " You have no orders: you hold this turn."
                reply.add(f"READY: your orders v{version} for turn {game.turn} of {game.name} are final; the turn "
                          f"does not wait for you.{held}")
            else:
                reply.add(f"NOORDERS: your orders for turn {game.turn} of {game.name} are withdrawn (v{version} is "
                          "an empty set: you hold). Send orders again to replace it.")
        elif isinstance(command, ShowOrders):
            current = self.runner.current_orders(game.name, seat.name, session=session)
            if current is None:
                reply.add(f"You have no orders for turn {game.turn} of {game.name} yet.")
            else:
                lines = "\n".join(current.orders) or "(an empty set of orders: you hold)"
                reply.add(f"Your orders v{current.version} for turn {game.turn} of {game.name}:\n{lines}")
        elif isinstance(command, Resign):
            self.campaign.resign(game.name, seat.name, session=session)
            self.notifier.tell_gm(session, self.runner.snapshot(session, game),
                                  f"Seat {seat.name} ({mail.sender}) resigned from {game.name}. "
                                  "It gets NMR defaults until you REPLACE it.")
            reply.add(f"You resigned seat {seat.name} of {game.name}. The GM was told.")
        elif isinstance(command, Press):
            self._press(session, game, seat.name, command, reply)
        elif isinstance(command, Help):
            self._help(command, reply)
        elif isinstance(command, Status):
            self._status(session, command.game or game.name, reply)

    def _press(self, session: Session, game: GameRow, sender_label: str, command: Press, reply: _Reply) -> None:
        seats = self.runner.load_seats(session, game)
        targets = seats if command.is_broadcast else [self.runner.load_seat(session, game, s) for s in command.to]
        text = command.text.text.strip()
        if not text:
            reply.add("PRESS with no text: nothing was sent.")
            return
        sent = self._relay_press(session, game, sender_label, [seat for seat in targets if seat.name != sender_label],
                                 text)
        reply.add(f"Press relayed to {', '.join(sent) or 'nobody'}.")

    def _relay_press(self, session: Session, game: GameRow, author: str, targets: list[SeatRow], text: str,
                     *, gm: bool = False) -> list[str]:
        """Send press from ``author`` (a seat, or ``GM``) to ``targets`` (and to the GM with ``gm``), and
        the GM a copy of press between players; each mail says at its top that a plain reply goes back to
        the author as press. Returns the seats (and "GM") it went to."""
        note = (f"Press from {author} in game {game.name}. A plain reply to this mail goes back to {author} as "
                "press; send orders by replying to a turn report.")
        sent = []
        for seat in targets:
            if seat.address:
                self.notifier.tell_address(session, game, seat.address, f"Press from {author}",
                                           f"{note}\n\n{text}", seat=seat, press_from=author)
                sent.append(seat.name)
        if gm and game.gm_address:
            self.notifier.tell_address(session, game, game.gm_address, f"Press from {author}",
                                       f"Press from {author} in game {game.name}:\n\n{text}")
            sent.append("GM")
        elif game.gm_address and author != "GM":
            self.notifier.tell_address(session, game, game.gm_address, f"Press from {author} (copy)",
                                       f"Press from {author} to {', '.join(sent) or 'nobody'}:\n\n{text}")
        return sent

    def _press_reply(self, session: Session, mail: IncomingMail, token_address: str, author: str,
                     reply: _Reply, outcome: Outcome) -> None:
        """A plain reply to a press mail: the text goes back to the press's author as press."""
        game, seat = self._seat_by_token(session, mail, token_address)
        reply.game, reply.seat = game, seat
        outcome.acted = True
        text = mail.body.strip()
        if not text:
            reply.add("Your reply to the press had no text: nothing was sent.")
            return
        if author == "gm":
            sent = self._relay_press(session, game, seat.name, [], text, gm=True)
        else:
            sent = self._relay_press(session, game, seat.name, [self.runner.load_seat(session, game, author)], text)
        reply.add(f"Your reply went as press to {', '.join(sent) or 'nobody'} (it was not read as orders). To "
                  "send orders, reply to a turn report.")

    def _status(self, session: Session, name: str | None, reply: _Reply) -> None:
        if name is None:
            raise PbemError("STATUS needs a game name")
        game = self.runner.load_game(session, name)
        info = self.runner.snapshot(session, game)
        lines = [f"Game {game.name} ({info.game.title}), {game.status}, turn {game.turn}."]
        if game.secret is not None:
            lines.append(f"Seed commitment (SHA-256 of the game name, a newline and the secret): "
                         f"{commitment(game.name, game.secret)}.")
            if self.runner.is_revealed(game):
                lines.append(f"Seed revealed: {game.secret} (VERIFY {game.name} checks every draw).")
        if game.status == "forming":
            open_seats = [s.name for s in info.seats if not s.address]
            lines.append(f"Open seats: {', '.join(open_seats) or 'none'}.")
        else:
            scores = self.runner.state_json(game.name, session=session)["scores"]
            lines.append("Scores: " + ", ".join(f"{s} {v}" for s, v in scores.items()) + ".")
        if info.outcome is not None:
            lines.append(f"Finished. {info.outcome.headline}.")
        elif info.phase is not None:
            missing = [s for s in info.phase.seats if self.runner.current_submission(session, game, s) is None]
            lines.append(f"Waiting for orders from: {', '.join(missing) or 'nobody (all in)'}.")
            if game.deadline:
                lines.append(f"Deadline: {format_utc(game.deadline)}.")
        reply.add("\n".join(lines))

    def _salt(self, session: Session, mail: IncomingMail, command: Salt, tag: str | None, reply: _Reply) -> None:
        forming = [g for g in session.exec(select(GameRow).where(GameRow.status == "forming"))
                   if tag is None or g.name.lower() == tag.lower()]
        held = [(g, s) for g in forming for s in self.runner.load_seats(session, g) if s.address == mail.sender]
        if len(held) != 1:
            where = f"game {tag}" if tag else "a forming game"
            raise PbemError(f"SALT is taken from a seat of {where} before its start; send it from the address "
                            "you joined with (with the game in the subject as [game] if you joined several)")
        game, seat = held[0]
        salts = self.runner.add_salt(game.name, seat.name, command.text, session=session)
        reply.add(f"Your salt for {game.name} is noted ({len(salts)} so far); it is mixed into the seed at "
                  "START and named in the first report.")

    def _verify(self, name: str, reply: _Reply) -> None:
        result = self.runner.verify(name)
        lines = [*result.versions, *result.mismatches]
        verdict = ("every state and draw matches" if result.is_identical
                   else f"{len(result.mismatches)} mismatch(es)")
        lines.append(f"Verified {result.turns} turns, {result.draws_checked} draws of {name}: {verdict}.")
        reply.add("\n".join(lines))

    def _help(self, command: Help, reply: _Reply) -> None:
        if command.kind:
            game = find_game(command.kind)
            text = game.help().strip("\n")
            titled = text.lower().startswith(game.title.lower())
            reply.add(text if titled else f"{game.title} ({game.name}) orders:\n\n{text}")
        else:
            reply.add(help_text())

    # --- GMs ---------------------------------------------------------------------

    def _create(self, session: Session, mail: IncomingMail, command: CreateGame, reply: _Reply,
                outcome: Outcome) -> None:
        if outcome.created >= MAX_CREATIONS_PER_MAIL:
            raise PbemError(f"CREATE {command.game}: at most {MAX_CREATIONS_PER_MAIL} games are created per mail")
        if self.runner.games_created_since(mail.sender, self.clock() - timedelta(days=1),
                                           session=session) >= MAX_CREATIONS_PER_DAY:
            raise PbemError(f"CREATE {command.game}: at most {MAX_CREATIONS_PER_DAY} games are created per address "
                            "in 24 hours")
        options = dict(command.options)
        game_kind = find_game(command.kind)
        players = _whole_number("players", options.pop("players", str(game_kind.max_players)), 2**31)
        seed_text = options.pop("seed", None)
        seed = _whole_number("seed", seed_text, 2**63) if seed_text is not None else None
        password = new_password()
        self.runner.create_game(
            command.kind, command.game, players=players, options=options,
            seed=seed,
            gm_address=mail.sender, gm_password_hash=hash_password(password), session=session,
        )
        outcome.created += 1
        reply.secret, reply.tag_game = True, command.game
        game = self.runner.load_game(session, command.game)
        reply.add(
            f"Created {game_kind.title} game {game.name} for {players} players; you are its GM.\n"
            f"Your GM password is {password}: start GM mails with GM {game.name} {password}.\n"
            f"Players join with: JOIN {game.name}" + _commitment_line(game)
        )
        self._gm_commands(session, mail, game, command.commands, reply)

    def _gm_commands(self, session: Session, mail: IncomingMail, game: GameRow,
                     commands: tuple[GmCommand, ...], reply: _Reply) -> None:
        for command in commands:
            reply.line = command.line
            try:
                self._gm_command(session, mail, game, command, reply)
            except (PbemError, ValueError) as error:
                reply.line = command.line
                reply.add(f"line {command.line}: REFUSED: {error}")

    def _gm_command(self, session: Session, mail: IncomingMail, game: GameRow, command: GmCommand,
                    reply: _Reply) -> None:
        name = game.name
        if isinstance(command, StartGame):
            issued = self.campaign.issue_passwords(name, session=session)
            info = self.runner.start(name, session=session)
            for seat in info.seats:
                if seat.name in issued and seat.address:
                    self.notifier.tell_address(
                        session, game, seat.address, "Your seat",
                        f"You play seat {seat.name} of game {name}. Your password is {issued[seat.name]}; "
                        "a plain reply to your turn report signs you on.", seat=seat, secret=True)
            self.notifier.send_report(session, info, self.runner.last_report(name, session=session))
            reply.add(f"Game {name} started; the opening report went to every seat.")
        elif isinstance(command, SetDeadline):
            when = self.campaign.set_deadline(name, command.when, session=session)
            self._announce(session, game, f"The GM set the deadline of turn {game.turn} to {format_utc(when)}.")
            reply.add(f"Deadline set to {format_utc(when)}.")
        elif isinstance(command, Extend):
            when = self.campaign.extend(name, command.by, session=session)
            self._announce(session, game, f"The GM extended the deadline of turn {game.turn} to {format_utc(when)}.")
            reply.add(f"Deadline extended to {format_utc(when)}.")
        elif isinstance(command, Pause):
            self.campaign.pause(name, session=session)
            self._announce(session, game, f"The GM paused game {name}; no deadline runs until it resumes.")
            reply.add(f"Game {name} paused.")
        elif isinstance(command, Resume):
            when = self.campaign.resume(name, session=session)
            deadline = f" The deadline is {format_utc(when)}." if when else ""
            self._announce(session, game, f"The GM resumed game {name}.{deadline}")
            reply.add(f"Game {name} resumed.{deadline}")
        elif isinstance(command, Replace):
            old = self.runner.load_seat(session, game, command.seat).address
            joined = self.campaign.replace(name, command.seat, command.address.lower(), session=session)
            seat = self.runner.load_seat(session, game, joined.seat)
            self.notifier.tell_address(
                session, game, seat.address or command.address, "You take over a seat",
                f"The GM gave you seat {seat.name} of game {name}. Your password is {joined.password}; "
                "a plain reply to this mail or a turn report signs you on. Send STATUS " + name + " to see where "
                "the game stands.", seat=seat, secret=True, asks_orders=game.status == "active")
            if old and old != seat.address:
                self.notifier.tell_address(session, game, old, "Seat replaced",
                                           f"The GM gave your seat {seat.name} of game {name} to another player.")
            reply.add(f"Seat {seat.name} of {name} now belongs to {seat.address}; they were told.")
        elif isinstance(command, AssignSeat):
            seat = self.runner.load_seat(session, game, command.seat)
            if game.status != "forming":
                raise PbemError(f"SEAT works only before START; use REPLACE {command.seat} {command.address}")
            if seat.address:
                raise PbemError(f"seat {seat.name} of {name} is taken by {seat.address}")
            seat.address = command.address.lower()
            session.add(seat)
            reply.add(f"Seat {seat.name} of {name} is assigned to {seat.address}; they get their password at START.")
        elif isinstance(command, SetOptions):
            self._set_options(session, game, dict(command.options), reply)
        elif isinstance(command, ProcessTurn):
            resolution = self.runner.resolve(name, reason="gm", session=session)
            turns = ", ".join(str(t.record.turn) for t in resolution.turns)
            reply.add(f"Resolved turn(s) {turns} of {name}; the reports went out.")
        elif isinstance(command, Reveal):
            row = self.runner.reveal(name, session=session)
            info = self.runner.snapshot(session, game)
            self.notifier.send_report(session, info, self.runner.last_report(name, session=session))
            reply.add(f"Game {name} ended and its seed revealed: secret {row.secret}. "
                      "The final report went to every seat; players can now VERIFY it.")
        elif isinstance(command, EndGame):
            self.campaign.end(name, session=session)
            info = self.runner.snapshot(session, game)
            self.notifier.send_report(session, info, self.runner.last_report(name, session=session))
            reply.add(f"Game {name} ended; the final report went to every seat.")
        elif isinstance(command, Press):
            self._press(session, game, "GM", command, reply)
        elif isinstance(command, Help):
            self._help(command, reply)
        elif isinstance(command, Status):
            self._status(session, command.game or name, reply)

    def _set_options(self, session: Session, game: GameRow, options: dict[str, str], reply: _Reply) -> None:
        self.campaign.set_options(game.name, options, session=session)
        reply.add("Options set: " + ", ".join(f"{k}={v}" for k, v in options.items()) + ".")

    def _announce(self, session: Session, game: GameRow, text: str) -> None:
        self.notifier.tell_players(session, self.runner.snapshot(session, game), text)

    # --- replies -----------------------------------------------------------------

    def _send_reply(self, session: Session, mail: IncomingMail, reply: _Reply, inbound_id: int) -> None:
        reply_to, link = None, None
        if reply.game is not None and reply.seat is not None and reply.seat.address == mail.sender:
            reply_to = self.notifier.reply_address(reply.game, reply.seat)
            link = self.notifier.seat_link(reply.game, reply.seat)
        footer = "pbem game master. Send HELP for the commands."
        sections = reply.ordered()
        if link:
            sections.append(MailSection(f"Your seat's own page, with its history: {link}"))
        body = "\n".join(section.text for section in sections) + f"\n-- \n{footer}\n"
        # An order check gets an HTML part (a table that keeps its carets); short answers stay plain text.
        html = (render_mail_html(reply_subject(mail.subject), sections, ask=reply.asks_for, footer=footer)
                if any(section.check is not None for section in sections) else None)
        subject = None
        if reply.tag_game is not None and subject_tag(mail.subject) != reply.tag_game.lower():
            subject = f"[{reply.tag_game}] {reply_subject(mail.subject)}"  # mail clients file by the game tag
        message = compose_reply(mail, from_address=self.address, from_name=FROM_NAME, body=body, html=html,
                                now=self.clock(), reply_to=reply_to, subject=subject)
        DatabaseOutbox.enqueue(session, message, purpose="reply", inbound_id=inbound_id, secret=reply.secret)

    def _refuse_unreadable(self, session: Session, sender: str, problem: str, inbound_id: int) -> None:
        message = compose_notice(
            to=sender, from_address=self.address, from_name=FROM_NAME, now=self.clock(),
            subject="Your mail could not be read",
            body=f"Your mail could not be read ({problem}). Please send your orders again as plain text.\n",
        )
        DatabaseOutbox.enqueue(session, message, purpose="reply", inbound_id=inbound_id)


def _whole_number(name: str, text: str, below: int) -> int:
    """``text`` as a whole number from 0 to ``below`` - 1; raises InvalidInput quoting it otherwise."""
    value = text.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 20 or int(value) >= below:
        raise InvalidInput(f"option {name}={text!r}: give a whole number from 0 to {below - 1}")
    return int(value)


def _only_queries(script: Script) -> bool:
    """True when every command of the mail only asks (STATUS, HELP, CHECK): those are limited apart."""
    return bool(script.commands) and all(
        isinstance(c, (Status, Help, CheckOrders)) or (isinstance(c, SeatSession) and c.check and not c.commands)
        for c in script.commands)


def _claims_seat(script: Script) -> bool:
    """True when the mail speaks for a seat (a reply to a game mail, or SIGNON) to act, not only to check."""
    return any(isinstance(c, SeatSession) and not c.check for c in script.commands)


def _hours(window: timedelta) -> str:
    hours = window.total_seconds() / 3600
    return "an hour" if hours == 1 else f"{hours:g} hours"


def _described(outcome: Outcome, mail: IncomingMail, reply: _Reply, done: list[str]) -> Outcome:
    """``outcome`` with who sent the mail, the game and seat it spoke for, and what it did (for the log)."""
    outcome.sender, outcome.done = mail.sender, done
    if reply.game is not None:
        outcome.game = reply.game.name
        outcome.seat = reply.seat.name if reply.seat is not None else ""
    return outcome


def _command_word(command: object) -> str:
    """A word for a command in the log: ``orders`` for a seat session, else the command's keyword."""
    if isinstance(command, SeatSession):
        return "check" if command.check else "orders"
    return {"GmSession": "GM", "CreateGame": "CREATE", "CheckOrders": "CHECK"}.get(
        type(command).__name__, type(command).__name__.upper())


def _commitment_line(game: GameRow) -> str:
    """The line that commits the game to its dice before any is rolled (empty for a game without one)."""
    if game.secret is None:
        return ""
    return (f"\nSeed commitment (SHA-256 of the game name, a newline and the secret): "
            f"{commitment(game.name, game.secret)}. The secret is revealed with the final report.")
