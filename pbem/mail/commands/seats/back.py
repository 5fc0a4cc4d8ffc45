"""BACK (in a seat's session): the seat's absences end now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import absences

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class Back(ParsedCommand):
    """BACK (after SIGNON): the seat's absences end now."""


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Back) -> None:
    """BACK: the seat's absences end; the reply says how many."""
    ended = absences.back(conv.unit, row.name, seat.name)
    conv.reply.add(f"BACK: welcome back; {ended} absence(s) of seat {seat.name} of {row.name} ended."
                   if ended else f"BACK: seat {seat.name} of {row.name} had no absence announced.")


COMMAND = MailCommand(
    rule="back",
    parsed_form=Back,
    grammar=keyword_grammar("back", "BACK"),
    help="""\
  BACK                             (after SIGNON) you are back: your absences end now
""",
    in_seat=in_seat,
)
