"""SET <option>=<value> ... (in a GM's session): how the service runs the game, before the start or
during it (turn_hours, resolve, reminders, reports, gm_press, ...)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand
from pbem.mail.commands.values import options
from pbem.service import control

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow


@dataclass(frozen=True)
class SetOptions(ParsedCommand):
    """SET option=value ...: change game options before the start."""

    options: Mapping[str, str]


def build(line: int, children: list[tuple[Token, Token]]) -> SetOptions:
    """The parsed SET line: its options, none given twice."""
    return SetOptions(line, options(children))


def in_gm(conv: Conversation, row: GameRow, command: SetOptions) -> None:
    """SET: the options are set, and the reply lists them."""
    given = dict(command.options)
    control.set_options(conv.unit, row.name, given)
    conv.reply.add("Options set: " + ", ".join(f"{k}={v}" for k, v in given.items()) + ".")


COMMAND = MailCommand(
    rule="set",
    parsed_form=SetOptions,
    grammar="""
set: _SET option+
""",
    build=build,  # type: ignore[arg-type]
    help="",
    gm_help="""\
  SET <option>=<value> ...         change how the service runs the game, before the start or
                                   during it: turn_hours, resolve=early|deadline, delay_minutes,
                                   reminder_hours, grace_hours, reports=each|digest, digest_hours,
                                   gm_press=copy|none (whether you get a copy of press between
                                   players; the players are told)
""",
    in_gm=in_gm,
)
