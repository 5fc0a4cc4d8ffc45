"""NOORDERS (in a seat's session): the seat's orders of this turn withdrawn on purpose: it holds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import submissions

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class NoOrders(ParsedCommand):
    """NOORDERS: withdraw the seat's orders for this turn on purpose (it holds)."""


def withdraw(conv: Conversation, row: GameRow, seat: SeatRow, *, ready: bool) -> int:
    """Store an empty set of orders for the seat (final with ``ready``, as READY does); return its version."""
    version = submissions.withdraw(conv.unit, row.name, seat.name, ready=ready, source=conv.source)
    conv.handled.submitted.append((row.name, seat.name))
    return version


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: NoOrders) -> None:
    """NOORDERS: the seat's orders of this turn are withdrawn; it holds."""
    version = withdraw(conv, row, seat, ready=False)
    conv.reply.add(f"NOORDERS: your orders for turn {row.turn} of {row.name} are withdrawn (v{version} is "
                   "an empty set: you hold). Send orders again to replace it.")


COMMAND = MailCommand(
    rule="noorders",
    parsed_form=NoOrders,
    grammar=keyword_grammar("noorders", "NOORDERS"),
    help="""\
  NOORDERS                         (after SIGNON) withdraw your orders for this turn: you hold
""",
    in_seat=in_seat,
)
