"""PAUSE (in a GM's session): the game's clock stops; no deadline passes until RESUME."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.gm.announce import announce
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import control

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Pause(ParsedCommand):
    """PAUSE: stop the clock; no deadline passes until RESUME."""


def in_gm(conv: Conversation, row: GameRow, command: Pause) -> None:
    """PAUSE: the clock stops; the players are told."""
    control.pause(conv.unit, row.name)
    announce(conv, row, f"The GM paused game {row.name}; no deadline runs until it resumes.")
    conv.reply.add(f"Game {row.name} paused.")


COMMAND = MailCommand(
    rule="pause",
    parsed_form=Pause,
    grammar=keyword_grammar("pause", "PAUSE"),
    help="",
    gm_help="""\
  PAUSE                            stop the clock
""",
    in_gm=in_gm,
)
