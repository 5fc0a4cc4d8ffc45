"""SALT <text>: a player's entropy for the seed of the one forming game the sender holds a seat of (the
one in the subject's tag when there are several), mixed in at START."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.core import PbemError
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import seats, seeds

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Salt(ParsedCommand):
    """SALT <text>: a player's entropy, mixed into the seed of a forming game at START."""

    text: str

    keeps_session_open: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Salt:
    """The parsed SALT line: the rest of the line."""
    return Salt(line, str(children[0]).strip())


def handle(conv: Conversation, command: Salt) -> None:
    """SALT: the salt noted for the sender's seat of a forming game."""
    held = seats.forming_seats_of(conv.unit, conv.mail.sender, conv.tag)
    if len(held) != 1:
        where = f"game {conv.tag}" if conv.tag else "a forming game"
        raise PbemError(f"SALT is taken from a seat of {where} before its start; send it from the address "
                        "you joined with (with the game in the subject as [game] if you joined several)")
    info, seat = held[0]
    salts = seeds.add_salt(conv.unit, info.name, seat.name, command.text)
    conv.reply.add(f"Your salt for {info.name} is noted ({len(salts)} so far); it is mixed into the seed at "
                   "START and named in the first report.")


COMMAND = MailCommand(
    rule="salt",
    parsed_form=Salt,
    grammar=keyword_grammar("salt", "SALT SALT_TEXT"),
    build=build,
    help="""\
  SALT <text>                      before the start, from a seat's address: your entropy, mixed
                                   into the game's seed at START (game from the subject tag
                                   or the one forming game you joined)
""",
    handle=handle,
)
