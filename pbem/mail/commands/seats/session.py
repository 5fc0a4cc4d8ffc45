"""A seat's session: SIGNON <game> <seat> <password> (or a reply to a game mail, whose reply address
says the seat) and what follows it, up to SIGNOFF: the seat's orders, checked and stored (only checked
after CHECK), then the commands that stand in a seat's session, each by its own module."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from pbem.core import StaleTurn
from pbem.games import find_game
from pbem.mail.answering.signon import signed_on_seat
from pbem.mail.commands.spec import MailCommand, ParsedCommand, SessionKind, keyword_grammar
from pbem.mail.commands.values import TextBlock, TextLine, name
from pbem.service import owing, submissions
from pbem.zones import mark

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow

# The turn a game mail's subject names: "[tc-1] Turn 3", "[tc-1] Reminder: turn 3 orders due".
_SUBJECT_TURN = re.compile(r"\][^\[\]]*?\bturn\s+(\d{1,9})\b", re.I)  # 9 digits: int() stays cheap and total


@dataclass(frozen=True)
class SeatSession(ParsedCommand):
    """SIGNON game seat password, or a reply to a reply-token address, and what follows it.

    For a token reply ``line`` is 0 and ``game``, ``seat`` and ``password``
    are ``None`` (the token says who it is). ``orders`` replace the seat's
    orders when the session has any and ``check`` is false; with ``check``
    they are only checked. ``commands`` run in mail order.
    """

    game: str | None
    seat: str | None
    password: str | None
    check: bool = False
    orders: TextBlock = TextBlock()
    commands: tuple[ParsedCommand, ...] = ()
    check_line: TextLine | None = None
    """The CHECK line of a session with ``check``: in a game whose rule book uses CHECK as an
    order word, a session whose only line it is holds that order instead."""

    opens: ClassVar[SessionKind | None] = "seat"

    @property
    def is_token_reply(self) -> bool:
        """True when the seat comes from the reply token, not from a SIGNON line."""
        return self.game is None

    def log_word(self) -> str:
        """``orders`` for a session, ``check`` for one that only checks."""
        return "check" if self.check else "orders"

    def counts_as_query(self) -> bool:
        """A session that only checks its orders, with no command, only asks."""
        return self.check and not self.commands


def build(line: int, children: list[Token]) -> SeatSession:
    """The parsed SIGNON line: game and seat in lower case, the password as written."""
    game, seat, password = children
    return SeatSession(line, name(game), name(seat), str(password))


def handle(conv: Conversation, command: SeatSession) -> None:
    """A seat's session (a reply to a game mail, or SIGNON): its orders, then its commands."""
    from pbem.mail.commands.registry import carry_out_each  # the registry lists this module

    row, seat = signed_on_seat(conv, command)
    conv.unit.actor = f"seat {seat.name} {conv.mail.sender}"
    command = _check_as_order(row, command)
    conv.handled.by_reply_address = conv.handled.by_reply_address or command.is_token_reply
    conv.reply.row, conv.reply.seat = row, seat
    if not command.orders.is_empty:
        _orders(conv, row, seat, command)
        conv.carried_out(command)
    conv.handled.acted = conv.handled.acted or bool(conv.handled.accepted) or bool(command.commands) or command.check
    carry_out_each(conv, command.commands, lambda registered, sub: registered.in_seat(conv, row, seat, sub))
    if conv.handled.submitted and not command.check:
        _warn_of_waiting(conv, row, seat)


def _warn_of_waiting(conv: Conversation, row: GameRow, seat: SeatRow) -> None:
    """After orders or NOORDERS that only wait, in a game where everyone waiting costs something (The
    Epic Quest): say what, and whether the step now waits for actions or READY."""
    info = conv.unit.snapshot(row)
    if info.phase is not None:
        warning = owing.wait_warning(conv.unit, info, seat.name)
        if warning is not None:
            conv.reply.add(warning)


def _check_as_order(row: GameRow, command: SeatSession) -> SeatSession:
    """A session whose only line is CHECK, in a game whose rule book uses CHECK as an order word
    (Shelloker), holds that order; CHECK followed by orders stays the check without storing."""
    line = command.check_line
    if line is None or not command.orders.is_empty or "CHECK" not in getattr(find_game(row.kind), "command_words_as_orders", ()):
        return command
    return replace(command, check=False, orders=TextBlock((TextLine(line.number, line.text),)), check_line=None)


def _orders(conv: Conversation, row: GameRow, seat: SeatRow, command: SeatSession) -> None:
    """The orders of a seat session: checked, and stored unless the session is a CHECK. Orders
    answering a game mail of an earlier turn are refused as stale."""
    wanted = _SUBJECT_TURN.search(conv.mail.subject)
    try:
        result = submissions.submit(
            conv.unit, row.name, seat.name, command.orders.numbered_text, store=not command.check,
            turn=int(wanted.group(1)) if wanted is not None else None, source=conv.source,
        )
    except StaleTurn as stale:
        raise StaleTurn(stale.game, stale.turn, stale.current, message=(
            f"these orders answer turn {stale.turn} of {stale.game}, but the game is at turn {stale.current}; "
            "they were refused as stale. Send REPORT (a reply holding only that word) to have the newest report "
            "mailed again, and reply to it with orders for the current turn.")) from stale
    result.show_time = mark
    intro = "CHECK only, nothing stored:" if command.check else ""
    conv.reply.add((f"{intro}\n" if intro else "") + result.render(), check=result, intro=intro)
    if result.version is not None:
        conv.handled.submitted.append((row.name, seat.name))
        conv.handled.accepted += len(result.accepted)


COMMAND = MailCommand(
    rule="signon",
    parsed_form=SeatSession,
    grammar=keyword_grammar("signon", "SIGNON GAME SEAT PASSWORD"),
    build=build,
    help="""\
  SIGNON <game> <seat> <password>  the lines after it, up to SIGNOFF or the end of the mail,
                                   are your orders for this turn; they replace those sent before
""",
    handle=handle,
)
