"""EXTEND <duration> (in a GM's session): the current deadline moved later; the players are told, and
those who owe orders get their calendar update."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from pbem.mail.commands.gm.announce import announce
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, keyword_grammar
from pbem.moments import BadDuration, parse_duration
from pbem.service import control
from pbem.zones import mark

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Extend(ParsedCommand):
    """EXTEND duration: move the current deadline later."""

    by: timedelta


def build(line: int, children: list[Token]) -> Extend:
    """The parsed EXTEND line: the duration (see :func:`pbem.moments.parse_duration`), refused at its column."""
    try:
        return Extend(line, parse_duration(children[0]))
    except BadDuration as error:
        raise LineError(str(error), children[0].column) from None


def in_gm(conv: Conversation, row: GameRow, command: Extend) -> None:
    """EXTEND: the deadline moved later; the players are told."""
    when = control.extend(conv.unit, row.name, command.by)
    announce(conv, row, f"The GM extended the deadline of turn {row.turn} to {mark(when)}.", calendar=True)
    conv.reply.add(f"Deadline extended to {mark(when)}.")


COMMAND = MailCommand(
    rule="extend",
    parsed_form=Extend,
    grammar=keyword_grammar("extend", "EXTEND DURATION"),
    build=build,
    help="",
    gm_help="""\
  EXTEND <duration>                move the deadline later: 2d, 12h, 1d6h, 30m
""",
    in_gm=in_gm,
)
