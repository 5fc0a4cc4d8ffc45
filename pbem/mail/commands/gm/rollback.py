"""ROLLBACK <turn> [<code>] (in a GM's session): without the code, a confirmation code is mailed to the
GM's address; with it, the game returns to the start of that turn (the players are told, their orders kept)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import rewind

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class Rollback(ParsedCommand):
    """ROLLBACK <turn> [<code>] (GM): without the code, ask for one (mailed to the GM's address); with
    it, return the game to the start of that turn."""

    turn: int
    code: str | None


def build(line: int, children: list[Token]) -> Rollback:
    """The parsed ROLLBACK line: the turn, and the code in lower case if given."""
    return Rollback(line, int(children[0]), str(children[1]).lower() if len(children) > 1 else None)


def in_gm(conv: Conversation, row: GameRow, command: Rollback) -> None:
    """ROLLBACK: ask for the code, or with it roll the game back."""
    unit = conv.unit
    if command.code is None:
        code = rewind.request_rollback(unit, row.name, command.turn)
        if row.gm_address:
            conv.notifier.tell_address(unit, row, row.gm_address, f"Rollback to turn {command.turn}: confirmation code",
                                       f"To return game {row.name} to the start of turn {command.turn}, send within "
                                       f"24 hours:\n\nGM {row.name} <gm-password>\nROLLBACK {command.turn} {code}\n",
                                       secret=True)
        conv.reply.add(f"ROLLBACK {command.turn}: a confirmation code went to {row.gm_address}; send "
                       f"ROLLBACK {command.turn} <code> to roll back.")
        return
    done = rewind.confirm_rollback(unit, row.name, command.turn, command.code)
    conv.reply.add(f"ROLLBACK: game {row.name} is back at the start of turn {done.turn} ({done.undone} turn(s) "
                   "undone); the players were told and their orders kept.")


COMMAND = MailCommand(
    rule="rollback",
    parsed_form=Rollback,
    grammar=keyword_grammar("rollback", "ROLLBACK TURN CODE?"),
    build=build,
    help="",
    gm_help="""\
  ROLLBACK <turn> [<code>]         return the game to the start of that turn: without the code,
                                   a confirmation code is mailed to you; send it to confirm
""",
    in_gm=in_gm,
)
