"""SEAT <seat> <address> (in a GM's session): an open seat given to a player before the start; an
address that never wrote to pbem is invited first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.answering import consent as consent_mail
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.commands.values import address, name
from pbem.service import seats
from pbem.service.consent import InvitationLimit, StoppedAddress

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class AssignSeat(ParsedCommand):
    """SEAT seat address: give an open seat to a player before the start."""

    seat: str
    address: str


def build(line: int, children: list[Token]) -> AssignSeat:
    """The parsed SEAT line: the seat in lower case, the address checked."""
    return AssignSeat(line, name(children[0]), address(children[1]))


def in_gm(conv: Conversation, row: GameRow, command: AssignSeat) -> None:
    """SEAT: the seat is assigned (and its new holder invited if it never wrote); an invitation refused
    leaves the seat open."""
    seat = seats.assign(conv.unit, row.name, command.seat, command.address)
    try:
        waits = consent_mail.invite(conv, row, seat.name, seat.address or command.address)
    except (InvitationLimit, StoppedAddress):
        seat.address = None  # the seat stays open
        conv.unit.add(seat)
        raise
    if waits:
        conv.reply.add(f"Seat {seat.name} of {row.name} is assigned to {seat.address}, who never wrote to pbem: they "
                       f"are invited, and START waits until they accept (a reply to the invitation, or JOIN {row.name}).")
        return
    conv.reply.add(f"Seat {seat.name} of {row.name} is assigned to {seat.address}; they get their password at START.")


COMMAND = MailCommand(
    rule="seat",
    parsed_form=AssignSeat,
    grammar=keyword_grammar("seat", "SEAT SEAT ADDRESS"),
    build=build,
    help="",
    gm_help="""\
  SEAT <seat> <address>            give a seat to a player before the start
""",
    in_gm=in_gm,
)
