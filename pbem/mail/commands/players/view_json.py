"""VIEWJSON ON|OFF: whether turn reports to the sender's address carry the seat's view as a JSON attachment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.outbound.preferences import set_view_json

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class ViewJson(ParsedCommand):
    """VIEWJSON ON|OFF: whether turn reports to the sender's address carry the seat's view as a JSON attachment."""

    on: bool


def build(line: int, children: list[Token]) -> ViewJson:
    """The parsed VIEWJSON line: ON or OFF."""
    return ViewJson(line, str(children[0]).lower() == "on")


def handle(conv: Conversation, command: ViewJson) -> None:
    """VIEWJSON ON|OFF: whether turn reports to the sender carry the seat's view as JSON."""
    sender = conv.mail.sender
    set_view_json(conv.unit.session, sender, on=command.on, now=conv.desk.clock())
    conv.reply.add(f"VIEWJSON {'ON' if command.on else 'OFF'}: turn reports to {sender} "
                   + ("will carry your seat's view as a JSON attachment, view.json." if command.on
                      else "will no longer carry your seat's view as JSON."))


COMMAND = MailCommand(
    rule="view_json",
    parsed_form=ViewJson,
    grammar=keyword_grammar("view_json", "VIEWJSON SWITCH"),
    build=build,
    help="""\
  VIEWJSON ON | VIEWJSON OFF       every turn report to your address carries (or no longer
                                   carries) your seat's view as a JSON attachment, view.json
""",
    handle=handle,
)
