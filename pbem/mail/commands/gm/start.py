"""START (in a GM's session): the game starts; every seat gets its opening report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import creation

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class StartGame(ParsedCommand):
    """START: start the game."""


def in_gm(conv: Conversation, row: GameRow, command: StartGame) -> None:
    """START: the game starts, and the opening report goes to every seat."""
    unit, name = conv.unit, row.name
    info = creation.start(unit, name)  # first: a START refused gives out no password
    conv.notifier.open_game(unit, info)
    conv.reply.add(f"Game {name} started; the opening report went to every seat.")


COMMAND = MailCommand(
    rule="start_game",
    parsed_form=StartGame,
    grammar=keyword_grammar("start_game", "START"),
    help="",
    gm_help="""\
  START                            start the game
""",
    in_gm=in_gm,
)
