"""HELP [<kind>|GAMES|PRESS|REPORT]: the command reference, or a game kind's order syntax, the kinds
hosted, how press works, how REPORT works (:func:`pbem.mail.commands.reference.help_for`); the same
anywhere in a mail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.reference import help_for
from pbem.mail.commands.spec import MailCommand, ParsedCommand, as_at_top_in_gm, as_at_top_in_seat, keyword_grammar
from pbem.mail.commands.values import name

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Help(ParsedCommand):
    """HELP [kind]: the command reference, or a game kind's order syntax (in a session: the session's game)."""

    kind: str | None

    asks_only: ClassVar[bool] = True
    limited_as_query: ClassVar[bool] = True
    keeps_session_open: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Help:
    """The parsed HELP line: the topic, if named, in lower case."""
    return Help(line, name(children[0]) if children else None)


def handle(conv: Conversation, command: Help) -> None:
    """HELP: the reference asked for, added to the reply."""
    conv.reply.add(help_for(command.kind))


COMMAND = MailCommand(
    rule="help",
    parsed_form=Help,
    grammar=keyword_grammar("help", "HELP KIND?"),
    build=build,
    help="""\
  HELP [<kind>]                    this text, or the order syntax of a game kind
  HELP GAMES                       the game kinds hosted, and the games that are not (and why)
  HELP PRESS                       press between players, and who reads it
""",
    handle=handle,
    in_seat=as_at_top_in_seat(handle),
    in_gm=as_at_top_in_gm(handle),
)
