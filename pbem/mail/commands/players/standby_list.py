"""STANDBY <kind> | STANDBY OFF: the sender's address goes on a kind's standby list, or off every one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import standby

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Standby(ParsedCommand):
    """STANDBY <kind> | STANDBY OFF: the sender's address goes on (or off every) standby list."""

    kind: str | None  # None: OFF


def build(line: int, children: list[Token]) -> Standby:
    """The parsed STANDBY line: the kind in lower case, None for OFF."""
    kind = str(children[0]).lower()
    return Standby(line, None if kind == "off" else kind)


def handle(conv: Conversation, command: Standby) -> None:
    """STANDBY <kind> | STANDBY OFF: the sender goes on a kind's standby list, or off every one."""
    sender = conv.mail.sender
    if command.kind is None:
        left = standby.leave_lists(conv.unit, sender)
        conv.reply.add(f"STANDBY OFF: {sender} is on no standby list now"
                       + (f" (was on: {', '.join(left)})." if left else "."))
        return
    kind = standby.join_list(conv.unit, sender, command.kind)
    conv.reply.add(f"STANDBY {kind}: {sender} is on the standby list of {kind}. When a seat of a {kind} game "
                   "is free (its player resigned or missed deadlines), it may be offered to you by mail; reply "
                   "ACCEPT to take it. STANDBY OFF takes you off.")


COMMAND = MailCommand(
    rule="standby",
    parsed_form=Standby,
    grammar=keyword_grammar("standby", "STANDBY KIND"),
    build=build,
    help="""\
  STANDBY <kind> | STANDBY OFF     be offered seats of that kind whose players left or went
                                   silent (OFF: off every standby list)
""",
    handle=handle,
)
