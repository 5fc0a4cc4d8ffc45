"""The reply to one mail while it is written: its sections in the order of the mail's lines,
bounded in size, with repeated answers folded; and how it goes out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from zoneinfo import ZoneInfo

from pbem.mail.outbound.compose import compose_reply, reply_subject
from pbem.mail.outbound.notices import FROM_NAME, MailNotifier, asked_for_orders
from pbem.mail.outbound.preferences import zone_and_text_only
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.reading.parse import IncomingMail, subject_tag
from pbem.reports import MailSection, OrderChoice, OrdersWanted, ReplyTo, order_choices, render_mail_html
from pbem.service.checking import CheckResult
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, SeatRow
from pbem.zones import localize, mark

MAX_REPLY = 64_000
"""Most characters of text in one reply."""
REPLY_FLOOR = 16_000
REPLY_MULTIPLE = 20
"""A reply is at most this many times the size of the mail it answers (but may always be ``REPLY_FLOOR``
long): a forged sender must not turn a small mail into a big one sent to somebody else."""
FOOTER = "pbem game master. Send HELP for the commands."


def reply_limit(mail_size: int) -> int:
    """The most characters a reply to a mail of ``mail_size`` bytes may hold."""
    return min(MAX_REPLY, max(REPLY_FLOOR, REPLY_MULTIPLE * mail_size))


@dataclass
class Reply:
    """The reply being written: its sections, and the seat it speaks to (for Reply-To).

    At most ``limit`` characters are kept; an answer repeating one given
    before is counted, not repeated; :meth:`text` says what was left out.
    """

    limit: int = MAX_REPLY
    line: int = 0  # the mail line whose command is being answered: sections are listed in line order
    sections: list[tuple[int, int, MailSection]] = field(default_factory=list)
    row: GameRow | None = None  # the game of the seat the mail spoke for
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

    def refuse(self, line: int, error: Exception) -> None:
        """Add the refusal of the command on mail line ``line`` (0: not tied to a line)."""
        self.line = line
        where = f"line {line}: " if line else ""
        self.add(f"{where}REFUSED: {error}")

    def ordered(self, *, closing: Sequence[MailSection] = (), reserve: int = 0,
                zone: ZoneInfo | None = None) -> list[MailSection]:
        """The reply's sections in mail line order, then a note for each folded repeat and for what did
        not fit, then ``closing``: joined by newlines, with their deadlines written for ``zone``
        (:func:`~pbem.zones.localize`) and ``reserve`` more characters (a footer), at most :attr:`limit`
        characters. Sections that would overshoot it are left out from the last on, and counted in the note."""
        kept = [section for _, _, section in sorted(self.sections, key=lambda entry: entry[:2])]
        sizes = [len(localize(section.text, zone)) + 1 for section in kept]  # + the newline joining it
        repeats, left_out = dict(self.repeats), self.left_out
        fixed = reserve + sum(len(localize(section.text, zone)) + 1 for section in closing) - 1
        total = sum(sizes)
        while True:
            notes = self._notes(repeats, left_out)
            if not kept or total + sum(len(note.text) + 1 for note in notes) + fixed <= self.limit:
                return kept + notes + list(closing)
            dropped = kept.pop()
            total -= sizes.pop()
            left_out += 1 + repeats.pop(dropped.text, 0)

    def _notes(self, repeats: dict[str, int], left_out: int) -> list[MailSection]:
        """A note for each answer folded ``repeats`` times, and one for ``left_out`` answers that did not fit."""
        notes = [f"{first_line(text)}: answered once above; {count:,} more identical answer(s) left out."
                 for text, count in repeats.items() if count]
        if left_out:
            notes.append(f"This reply is limited to {self.limit:,} characters: {left_out:,} more answer(s) "
                         "were left out. Send fewer commands per mail.")
        return [MailSection(note + "\n") for note in notes]

    def text(self) -> str:
        """The reply as plain text: :meth:`ordered` joined."""
        return "\n".join(section.text for section in self.ordered())

    @property
    def wanting_check(self) -> CheckResult | None:
        """The first order check in the reply that wants (corrected) orders, or None."""
        return next((section.check for _, _, section in self.sections
                     if section.check is not None and section.check.asks_for_orders), None)

    @property
    def asks_for(self) -> OrdersWanted | None:
        """What to ask for when a check in the reply wants (corrected) orders."""
        check = self.wanting_check
        if check is None:
            return None
        return OrdersWanted(check.kind, mark(check.deadline) if check.deadline else None)


def first_line(text: str) -> str:
    """The first line of ``text``, cut to 60 characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= 60 else line[:57] + "..."


def send_reply(unit: Unit, notifier: MailNotifier, mail: IncomingMail, reply: Reply, inbound_id: int) -> None:
    """Queue ``reply`` to ``mail`` in the unit's outbox: from the game master, with the seat's reply
    address and private link when it speaks to the seat's holder, an HTML part when it holds an order
    check that wants (corrected) orders, and the game's tag in the subject when it starts the player on a game."""
    reply_to, link, calendar = None, None, ()
    asks = reply.asks_for
    if reply.row is not None and reply.seat is not None and reply.seat.address == mail.sender:
        reply_to = notifier.reply_address(reply.row, reply.seat)
        link = notifier.seat_link(reply.row, reply.seat)
        if asks is not None:  # a check that wants (corrected) orders: the deadline in a calendar
            calendar = notifier.calendar(unit, reply.row, reply.seat)
    zone, text_only = zone_and_text_only(unit.session, mail.sender)  # deadlines in the reader's time zone
    signature = f"\n-- \n{FOOTER}\n"
    closing = [MailSection(f"Your seat's own page, with its history: {link}")] if link else []
    sections = reply.ordered(closing=closing, reserve=len(signature), zone=zone)
    body = "\n".join(section.text for section in sections) + signature
    # A check that wants (corrected) orders gets an HTML part: a table that keeps the caret under a refused
    # line's column in place, and the request to reply on top. Everything else is plain text: a check that
    # accepted every line needs no caret, and multipart mail is 3.6 times the bytes for the mail servers.
    # An address that reads plain text only (SET TEXTONLY) gets none, and none is written for it.
    subject = reply_subject(mail.subject)
    if asks is not None and reply_to is not None and not text_only:
        asks = replace(asks, choices=_choices(unit, reply, ReplyTo(reply_to, subject)))
    html = (localize(render_mail_html(subject, sections, ask=asks, footer=FOOTER), zone)
            if asks is not None and not text_only else None)
    body = localize(body, zone)
    if reply.tag_game is not None and subject_tag(mail.subject) != reply.tag_game.lower():
        subject = f"[{reply.tag_game}] {subject}"  # mail clients file by the game tag
    message = compose_reply(mail, from_address=notifier.address, from_name=FROM_NAME, body=body, html=html,
                            now=notifier.clock(), reply_to=reply_to, subject=subject, attachments=calendar,
                            unsubscribe=notifier.unsubscribe(mail.sender))
    DatabaseOutbox.enqueue(unit.session, message, purpose="reply", inbound_id=inbound_id, secret=reply.secret,
                           at=unit.now())


def _choices(unit: Unit, reply: Reply, to: ReplyTo) -> list[OrderChoice]:
    """The seat's few choices as buttons under a check that wants corrected orders: only while its game
    still waits for the seat's orders of the turn checked (orders accepted in the same mail may have
    resolved it), so the buttons' subject names the turn they are for."""
    check = reply.wanting_check
    assert check is not None and reply.row is not None and reply.seat is not None
    info = unit.snapshot(reply.row)
    if info.row.turn != check.turn or reply.seat.name not in asked_for_orders(info):
        return []
    return order_choices(info.rules, info.state, reply.seat.name, to)
