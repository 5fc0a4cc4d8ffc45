"""REVEAL (in a GM's session): the game ends and its seed is revealed, so that players can VERIFY every
draw (a game that keeps its seed secret only ends)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import seeds

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Reveal(ParsedCommand):
    """REVEAL (GM): end the game and reveal its seed."""


def in_gm(conv: Conversation, row: GameRow, command: Reveal) -> None:
    """REVEAL: the game ends, the final report goes to every reader, and the seed is revealed unless kept."""
    seeds.reveal(conv.unit, row.name)
    conv.notifier.send_final(conv.unit, row)
    kept = seeds.kept_secret_reason(row)
    if kept is not None:
        conv.reply.add(f"Game {row.name} ended; its seed is not revealed: {kept}. The final report went to "
                       "every seat.")
        return
    conv.reply.add(f"Game {row.name} ended and its seed revealed: secret {row.secret}. "
                   "The final report went to every seat; players can now VERIFY it.")


COMMAND = MailCommand(
    rule="reveal",
    parsed_form=Reveal,
    grammar=keyword_grammar("reveal", "REVEAL"),
    help="",
    gm_help="""\
  REVEAL                           end the game and reveal its seed, so players can VERIFY it
                                   (a game that keeps its seed secret only ends)
""",
    in_gm=in_gm,
)
