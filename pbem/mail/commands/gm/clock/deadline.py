"""DEADLINE <date> <time> [<zone>] (in a GM's session): the deadline of the current turn; the players
are told, and those who owe orders get their calendar update."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.mail.commands.gm.announce import announce
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, keyword_grammar
from pbem.moments import BadDateTime, parse_when
from pbem.service import control
from pbem.zones import mark

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class SetDeadline(ParsedCommand):
    """DEADLINE when: the deadline of the current turn, in UTC."""

    when: datetime


def build(line: int, children: list[Token]) -> SetDeadline:
    """The parsed DEADLINE line: the moment (see :func:`pbem.moments.parse_when`), refused at its column."""
    try:
        return SetDeadline(line, parse_when(children[0]))
    except BadDateTime as error:
        raise LineError(str(error), children[0].column) from None


def in_gm(conv: Conversation, row: GameRow, command: SetDeadline) -> None:
    """DEADLINE: the turn's deadline set; the players are told."""
    when = control.set_deadline(conv.unit, row.name, command.when)
    announce(conv, row, f"The GM set the deadline of turn {row.turn} to {mark(when)}.", calendar=True)
    conv.reply.add(f"Deadline set to {mark(when)}.")


COMMAND = MailCommand(
    rule="deadline",
    parsed_form=SetDeadline,
    grammar=keyword_grammar("deadline", "DEADLINE WHEN"),
    build=build,
    help="",
    gm_help="""\
  DEADLINE <date> <time> [<zone>]  the deadline of this turn, in UTC (2026-11-25 18:00 or
                                   2026-11-25T18:00Z), or local time in a zone:
                                   2026-11-25 19:00 Europe/Berlin
""",
    in_gm=in_gm,
)
