"""VERIFY <game>: every draw of a game whose seed is revealed, recomputed and compared."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering.answers import verify_text
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.commands.values import name
from pbem.service import replay

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Verify(ParsedCommand):
    """VERIFY <game>: recompute every draw of a game whose seed is revealed."""

    game: str

    asks_only: ClassVar[bool] = True
    keeps_session_open: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Verify:
    """The parsed VERIFY line: the game in lower case."""
    return Verify(line, name(children[0]))


def handle(conv: Conversation, command: Verify) -> None:
    """VERIFY: recompute every draw of a game whose seed is revealed."""
    conv.reply.add(verify_text(replay.verify(conv.unit, command.game)))


COMMAND = MailCommand(
    rule="verify",
    parsed_form=Verify,
    grammar=keyword_grammar("verify", "VERIFY GAME"),
    build=build,
    help="""\
  VERIFY <game>                    after the seed is revealed: recompute every die and draw
""",
    handle=handle,
)
