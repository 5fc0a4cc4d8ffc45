"""REPLACE <seat> <address> (in a GM's session): a seat handed to a new player; the old player's reply
addresses stop working, and an address that never wrote to pbem is invited first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.core import GameError
from pbem.mail.answering import consent as consent_mail
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.commands.values import address, name
from pbem.service import seats
from pbem.store.tables import GameStatus

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Replace(ParsedCommand):
    """REPLACE seat address: hand a seat to a new player; the old player's reply addresses stop working."""

    seat: str
    address: str


def build(line: int, children: list[Token]) -> Replace:
    """The parsed REPLACE line: the seat in lower case, the address checked."""
    return Replace(line, name(children[0]), address(children[1]))


def in_gm(conv: Conversation, row: GameRow, command: Replace) -> None:
    """REPLACE: the seat goes to the new address, which is welcomed (or invited, if it never wrote)."""
    unit, game = conv.unit, row.name
    seat = unit.seat(row, command.seat)
    old = seat.address
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {game} is finished")
    waits = consent_mail.invite(conv, row, seat.name, command.address)
    joined = seats.replace(unit, game, command.seat, command.address.lower())
    conv.notifier.welcome(unit, row, seat, joined.password, old, "", "The GM")
    if waits:
        conv.reply.add(f"Seat {seat.name} of {game} now belongs to {seat.address}, who never wrote to pbem: they are "
                       "invited, and get nothing more until they accept (a reply, or JOIN).")
        return
    conv.reply.add(f"Seat {seat.name} of {game} now belongs to {seat.address}; they were told.")


COMMAND = MailCommand(
    rule="replace",
    parsed_form=Replace,
    grammar=keyword_grammar("replace", "REPLACE SEAT ADDRESS"),
    build=build,
    help="",
    gm_help="""\
  REPLACE <seat> <address>         hand a seat to a new player
""",
    in_gm=in_gm,
)
