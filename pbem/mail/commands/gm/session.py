"""A GM's session: GM <game> <password> and the commands after it, up to SIGNOFF, each carried out for
the game by its own module once the password is right (:func:`run_gm_commands`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering.signon import check_gm
from pbem.mail.commands.spec import MailCommand, ParsedCommand, SessionKind, keyword_grammar
from pbem.mail.commands.values import name

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class GmSession(ParsedCommand):
    """GM game password and the GM commands after it."""

    game: str
    password: str
    commands: tuple[ParsedCommand, ...] = ()

    opens: ClassVar[SessionKind | None] = "gm"

    def log_word(self) -> str:
        """``GM``."""
        return "GM"


def build(line: int, children: list[Token]) -> GmSession:
    """The parsed GM line: the game in lower case, the password as written."""
    game, password = children
    return GmSession(line, name(game), str(password))


def handle(conv: Conversation, command: GmSession) -> None:
    """GM <game> <password>: the GM commands after it, once the password is right."""
    check_gm(conv, command)
    conv.unit.actor = f"gm {conv.mail.sender}"
    run_gm_commands(conv, conv.unit.game(command.game), command.commands)


def run_gm_commands(conv: Conversation, row: GameRow, commands: tuple[ParsedCommand, ...]) -> None:
    """Carry out each GM command for the game; a refused one does not stop the others."""
    from pbem.mail.commands.registry import carry_out_each  # the registry lists this module

    carry_out_each(conv, commands, lambda registered, command: registered.in_gm(conv, row, command))


COMMAND = MailCommand(
    rule="gm",
    parsed_form=GmSession,
    grammar=keyword_grammar("gm", "GM GAME PASSWORD"),
    build=build,
    help="",
    gm_help="""\
  GM <game> <gm-password>          sign on as the game's GM; GM commands follow
""",
    handle=handle,
)
