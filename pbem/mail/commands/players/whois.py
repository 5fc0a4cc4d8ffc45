"""WHOIS <name>: a registered player's record, with its reliability."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import players

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Whois(ParsedCommand):
    """WHOIS <name>: a registered player's record."""

    name: str

    asks_only: ClassVar[bool] = True
    limited_as_query: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Whois:
    """The parsed WHOIS line: the name as written."""
    return Whois(line, str(children[0]))


def handle(conv: Conversation, command: Whois) -> None:
    """WHOIS <name>: a registered player's record, with its reliability."""
    summary = players.profile_of(conv.unit.session, command.name).summary
    conv.reply.add(players.record_text(summary.name, summary.record))


COMMAND = MailCommand(
    rule="whois",
    parsed_form=Whois,
    grammar=keyword_grammar("whois", "WHOIS PLAYER"),
    build=build,
    help="""\
  WHOIS <name>                     a player's record: games, outcomes, deadlines met, reliability
""",
    handle=handle,
)
