"""One mail being answered: the unit of work it runs in, the mail, the reply being written and
what it did; and the parts of the game master every answer needs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.mail.answering.policy import RateLimiter
from pbem.mail.answering.reply import Reply
from pbem.mail.outbound.notices import MailNotifier
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.reading.parse import IncomingMail
from pbem.service.unit import Unit


@dataclass
class HandledMail:
    """What handling one mail did, for logs and tests."""

    status: str  # handled | ignored | failed
    reason: str = ""
    submitted: list[tuple[str, str]] = field(default_factory=list)  # (game, seat) whose orders were stored
    accepted: int = 0  # order lines accepted and stored
    by_reply_address: bool = False  # a seat signed on by its reply address, from the seat's own address
    due: set[str] = field(default_factory=set)  # games the orders may have made due: worth a clock tick now
    password_failed: bool = False  # a password of this mail was wrong: no further one is checked
    created: int = 0  # games this mail created
    held_password: bool | None = None  # the mail held a password: its stored copy is redacted (None: not read)
    acted: bool = False  # a seat signed on and something was done for it (orders accepted, a command)
    sender: str = ""  # for the log line of the mail
    game: str = ""
    seat: str = ""
    done: list[str] = field(default_factory=list)  # the commands carried out, as words (JOIN, orders, HELP)
    mailed_once: dict[tuple[str, str], str] = field(default_factory=dict)  # (PREVIEW|SECRETS|STATUS, key): answer
    changes: int = 0  # commands carried out so far that may have changed a game (a STATUS folds only across none)

    def answered(self, what: str, game: str) -> str | None:
        """The answer given earlier in this mail to ``what`` (a mail to the GM: PREVIEW, SECRETS; a STATUS
        view) of ``game``, or None the first time: a repeat within one mail folds into the first answer and
        mails nothing more, like a repeated HELP."""
        return self.mailed_once.get((what, game.lower()))

    def remember(self, what: str, game: str, answer: str) -> str:
        """Record ``answer`` as the one to ``what`` of ``game`` in this mail; return it."""
        self.mailed_once[(what, game.lower())] = answer
        return answer


HOLDER_NOTICE_WINDOW = timedelta(hours=1)
"""A seat's holder is told of at most one refused mail (of each kind) per hour that tried to act for the seat:
mail to a leaked reply address, however much of it and from whatever senders, brings the holder one notice."""


@dataclass(frozen=True)
class Desk:
    """The parts of the game master every answer needs: its address, the signer of reply
    addresses, the notifier that queues mail, and the clock."""

    address: str
    tokens: ReplyTokens
    notifier: MailNotifier
    clock: Callable[[], datetime]
    holder_notices: RateLimiter = field(default_factory=lambda: RateLimiter(max_mails=1, window=HOLDER_NOTICE_WINDOW))
    """Which seats' holders were told lately of a refused mail that tried to act for their seat."""


@dataclass
class Conversation:
    """One mail being answered, in one unit of work: ``token_address`` is the reply address it was
    sent to (if any), ``tag`` the game named in its subject (if any)."""

    desk: Desk
    unit: Unit
    mail: IncomingMail
    reply: Reply
    handled: HandledMail
    token_address: str | None = None
    tag: str | None = None
    from_forged: bool = False
    """The receiving server found the From forged (:mod:`pbem.mail.reading.authresults`): no command that rests on
    the From alone is carried out, and nothing is written to it."""

    def carried_out(self, command: object) -> None:
        """Note that ``command`` of the mail was carried out: unless it only asks (its parsed form says it
        ``asks_only``, :class:`pbem.mail.commands.spec.ParsedCommand`), what the mail asked before may have
        changed, and is worked out again when asked again."""
        if not getattr(command, "asks_only", False):
            self.handled.changes += 1

    @property
    def notifier(self) -> MailNotifier:
        """The notifier that queues mail in this conversation's unit."""
        return self.desk.notifier

    @property
    def source(self) -> str:
        """What submissions made by this mail record as their source."""
        return f"mail:{self.mail.message_id}"
