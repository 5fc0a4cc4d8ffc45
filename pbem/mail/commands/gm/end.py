"""END (in a GM's session): the game ends now; every reader gets the final report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import control

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class EndGame(ParsedCommand):
    """END: end the game now."""


def in_gm(conv: Conversation, row: GameRow, command: EndGame) -> None:
    """END: the game ends, and every reader is mailed the final report."""
    control.end(conv.unit, row.name)
    conv.notifier.send_final(conv.unit, row)
    conv.reply.add(f"Game {row.name} ended; the final report went to every seat.")


COMMAND = MailCommand(
    rule="end",
    parsed_form=EndGame,
    grammar=keyword_grammar("end", "END"),
    help="",
    gm_help="""\
  END                              end the game now
""",
    in_gm=in_gm,
)
