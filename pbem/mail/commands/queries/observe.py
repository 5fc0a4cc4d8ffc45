"""OBSERVE <game> | UNOBSERVE <game>: the sender follows a game's public reports (never a player's
secrets), or stops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand
from pbem.mail.commands.values import name
from pbem.service import observers

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Observe(ParsedCommand):
    """OBSERVE <game> | UNOBSERVE <game>: follow a game's public reports (``on``), or stop."""

    game: str
    on: bool = True


def build(line: int, children: list[Token]) -> Observe:
    """The parsed OBSERVE or UNOBSERVE line (the rule keeps its keyword): the game in lower case."""
    keyword, game = children
    return Observe(line, name(game), on=keyword.type == "_OBSERVE")


def handle(conv: Conversation, command: Observe) -> None:
    """OBSERVE | UNOBSERVE <game>: the sender follows the game's public reports, or stops."""
    sender = conv.mail.sender
    if command.on:
        row = observers.observe(conv.unit, command.game, sender)
        conv.reply.tag_game = row.name
        conv.reply.add(f"You observe game {row.name}: its public reports (never a player's secrets) come to "
                       f"{sender}. UNOBSERVE {row.name} stops them.")
    elif observers.unobserve(conv.unit, command.game, sender):
        conv.reply.add(f"You no longer observe game {command.game}.")
    else:
        conv.reply.add(f"{sender} does not observe game {command.game}.")


COMMAND = MailCommand(
    rule="observe",
    parsed_form=Observe,
    grammar="""
!observe: _OBSERVE GAME | _UNOBSERVE GAME
_OBSERVE: /observe\\b/i
_UNOBSERVE: /unobserve\\b/i
""",
    build=build,
    help="""\
  OBSERVE <game>                   follow a game's public reports (UNOBSERVE <game> stops it)
""",
    handle=handle,
)
