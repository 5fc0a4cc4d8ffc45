"""LOG (in a GM's session): the game's audit log, every GM action and automatic decision with its time
and actor (the newest entries)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import audit

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow

LOG_LINES = 200
"""Most entries of the audit log a LOG reply lists (the newest)."""


@dataclass(frozen=True)
class ShowLog(ParsedCommand):
    """LOG (GM): the game's audit log, every GM action and automatic decision with time and actor."""

    asks_only: ClassVar[bool] = True


def in_gm(conv: Conversation, row: GameRow, command: ShowLog) -> None:
    """LOG: the newest entries of the game's audit log, in the reply."""
    entries = audit.entries(conv.unit, row.name, last=LOG_LINES)
    lines = "\n".join(entry.line() for entry in entries)
    more = f" (the newest {LOG_LINES}; pbem log {row.name} prints all)" if len(entries) == LOG_LINES else ""
    conv.reply.add(f"Audit log of {row.name}{more}:\n{lines}")


COMMAND = MailCommand(
    rule="log",
    parsed_form=ShowLog,
    grammar=keyword_grammar("log", "LOG"),
    help="",
    gm_help="""\
  LOG                              the game's audit log: every GM action and automatic decision
""",
    in_gm=in_gm,
)
