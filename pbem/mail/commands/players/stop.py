"""STOP: pbem sends the sender's address no more mail, until it writes again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering import consent
from pbem.mail.commands.spec import MailCommand, ParsedCommand

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Stop(ParsedCommand):
    """STOP: pbem sends the sender's address no more mail, until it writes again."""

    rests_on_from: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Stop:
    """The parsed STOP line."""
    return Stop(line)


def handle(conv: Conversation, command: Stop) -> None:
    """STOP for the sender's address (see :func:`pbem.mail.answering.consent.stop`)."""
    consent.stop(conv, conv.mail.sender)


COMMAND = MailCommand(
    rule="stop",
    parsed_form=Stop,
    grammar="""
stop: _STOP
_STOP: /stop\\b/i
""",
    build=build,
    help="""\
  STOP                             pbem sends your address no more mail (one last line confirms
                                   it) until you write to it again; your seats go silent
""",
    handle=handle,
)
