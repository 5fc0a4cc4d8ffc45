"""NODRAW (in a seat's session): the seat's DRAW (or CONCEDE) of this turn is withdrawn; what the
others voted stays secret."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import agreed_endings
from pbem.service.agreed_endings import DRAW

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class NoDraw(ParsedCommand):
    """NODRAW: withdraw the seat's DRAW (or CONCEDE) of this turn."""


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: NoDraw) -> None:
    """NODRAW: the seat's vote of this turn is withdrawn (what the others voted stays secret)."""
    kind = agreed_endings.withdraw(conv.unit, row.name, seat.name)
    if kind is None:
        conv.reply.add(f"NODRAW: you had no DRAW or CONCEDE in turn {row.turn} of {row.name}: nothing to withdraw.")
    else:
        conv.reply.add(f"NODRAW: your {'DRAW' if kind == DRAW else 'CONCEDE'} of turn {row.turn} of {row.name} is "
                       "withdrawn. Whether a proposal still stands rests on the others' votes, which stay secret.")


COMMAND = MailCommand(
    rule="nodraw",
    parsed_form=NoDraw,
    grammar=keyword_grammar("nodraw", "NODRAW"),
    help="""\
  NODRAW                           (after SIGNON) withdraw your DRAW (or CONCEDE) of this turn
""",
    in_seat=in_seat,
)
