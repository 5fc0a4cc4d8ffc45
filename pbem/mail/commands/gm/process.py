"""PROCESS (in a GM's session): the current turn resolved now, with default orders for the missing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import resolution

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class ProcessTurn(ParsedCommand):
    """PROCESS: resolve the current turn now, with default orders for the missing."""


def in_gm(conv: Conversation, row: GameRow, command: ProcessTurn) -> None:
    """PROCESS: the turn (and any that follow at once) resolved; the reports go out."""
    resolved = resolution.resolve(conv.unit, row.name, reason="gm")
    turns = ", ".join(str(t.record.turn) for t in resolved.turns)
    conv.reply.add(f"Resolved turn(s) {turns} of {row.name}; the reports went out.")


COMMAND = MailCommand(
    rule="process",
    parsed_form=ProcessTurn,
    grammar=keyword_grammar("process", "PROCESS"),
    help="",
    gm_help="""\
  PROCESS                          resolve the turn now
""",
    in_gm=in_gm,
)
