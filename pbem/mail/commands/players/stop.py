"""STOP: pbem sends the sender's address no more mail, until it writes again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.answering import consent
from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Stop(ParsedCommand):
    """STOP: pbem sends the sender's address no more mail, until it writes again."""

    rests_on_from: ClassVar[bool] = True


def handle(conv: Conversation, command: Stop) -> None:
    """STOP for the sender's address (see :func:`pbem.mail.answering.consent.stop`)."""
    consent.stop(conv, conv.mail.sender)


COMMAND = MailCommand(
    rule="stop",
    parsed_form=Stop,
    grammar=keyword_grammar("stop", "STOP"),
    help="""\
  STOP                             pbem sends your address no more mail (one last line confirms
                                   it) until you write to it again; your seats go silent
""",
    handle=handle,
    opens_reply=False,  # an order of The Great Regatta: a reply that starts with STOP holds orders
)
