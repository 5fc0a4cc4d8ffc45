"""DECLINE <game>: the sender leaves the seat it was invited to (or joined) of a game not started yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering import consent
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Decline(ParsedCommand):
    """DECLINE <game>: the sender leaves the seat it was invited to (or joined) of a game not started yet."""

    game: str

    rests_on_from: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Decline:
    """The parsed DECLINE line: the game in lower case."""
    return Decline(line, str(children[0]).lower())


def handle(conv: Conversation, command: Decline) -> None:
    """DECLINE <game> (see :func:`pbem.mail.answering.consent.decline`)."""
    consent.decline(conv, command.game)


COMMAND = MailCommand(
    rule="decline",
    parsed_form=Decline,
    grammar=keyword_grammar("decline", "DECLINE GAME"),
    build=build,
    help="""\
  DECLINE <game>                   leave the seat you were invited to (or joined) before the
                                   game starts: it is open again, and the GM is told
""",
    handle=handle,
)
