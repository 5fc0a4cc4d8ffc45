"""ORDERS (in a seat's session): the seat's current orders, sent back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import submissions

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class ShowOrders(ParsedCommand):
    """ORDERS: send back the seat's current orders."""


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: ShowOrders) -> None:
    """ORDERS: the seat's current orders."""
    current = submissions.current_orders(conv.unit, row.name, seat.name)
    if current is None:
        conv.reply.add(f"You have no orders for turn {row.turn} of {row.name} yet.")
    else:
        lines = "\n".join(current.orders) or "(an empty set of orders: you hold)"
        conv.reply.add(f"Your orders v{current.version} for turn {row.turn} of {row.name}:\n{lines}")


COMMAND = MailCommand(
    rule="orders",
    parsed_form=ShowOrders,
    grammar=keyword_grammar("orders", "ORDERS"),
    help="""\
  ORDERS                           (after SIGNON) send back your current orders
""",
    in_seat=in_seat,
)
