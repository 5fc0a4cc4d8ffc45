"""RESUME (in a GM's session): the game's clock runs again after PAUSE, with its new deadline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.gm.announce import announce
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import control
from pbem.zones import mark

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Resume(ParsedCommand):
    """RESUME: restart the clock after PAUSE."""


def in_gm(conv: Conversation, row: GameRow, command: Resume) -> None:
    """RESUME: the clock runs again; the players are told the deadline."""
    when = control.resume(conv.unit, row.name)
    deadline = f" The deadline is {mark(when)}." if when else ""
    announce(conv, row, f"The GM resumed game {row.name}.{deadline}", calendar=True)
    conv.reply.add(f"Game {row.name} resumed.{deadline}")


COMMAND = MailCommand(
    rule="resume",
    parsed_form=Resume,
    grammar=keyword_grammar("resume", "RESUME"),
    help="",
    gm_help="""\
  RESUME                           restart the clock
""",
    in_gm=in_gm,
)
