"""RESIGN (in a seat's session): the seat leaves the game; the GM is told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import seats

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class Resign(ParsedCommand):
    """RESIGN: leave the game."""


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Resign) -> None:
    """RESIGN: the seat leaves the game; the GM is told."""
    seats.resign(conv.unit, row.name, seat.name)
    conv.notifier.tell_gm(conv.unit, conv.unit.snapshot(row),
                          f"Seat {seat.name} ({conv.mail.sender}) resigned from {row.name}. "
                          "It gets NMR defaults until you REPLACE it.")
    conv.reply.add(f"You resigned seat {seat.name} of {row.name}. The GM was told.")


COMMAND = MailCommand(
    rule="resign",
    parsed_form=Resign,
    grammar=keyword_grammar("resign", "RESIGN"),
    help="""\
  RESIGN                           (after SIGNON) leave the game
""",
    in_seat=in_seat,
)
