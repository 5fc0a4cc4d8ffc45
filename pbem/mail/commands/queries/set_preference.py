"""SET DIGEST|TEXTONLY|PRESS ON|OFF: how mail to the sender's address is made (report digests, text only,
press from other players)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import MailCommand, ParsedCommand, as_at_top_in_gm
from pbem.mail.outbound.preferences import set_preference

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class SetPreference(ParsedCommand):
    """SET DIGEST|TEXTONLY|PRESS ON|OFF: how mail to the sender's address is made (report digests,
    text only, press from other players)."""

    name: str  # digest | textonly | press
    on: bool


def build(line: int, children: list[Token]) -> SetPreference:
    """The parsed SET line: the preference in lower case, and whether ON."""
    return SetPreference(line, str(children[0]).lower(), str(children[1]).lower() == "on")


_PREFERENCE_WORDS = {
    ("digest", True): "turn reports come only when you owe orders, at the end, or once a game's digest_hours "
                      "passed since the first turn you were not told of, each covering every turn since your last",
    ("digest", False): "every turn report comes to you, whatever a game's reports= option says",
    ("textonly", True): "mail to you is plain text only: no HTML part, no picture",
    ("textonly", False): "mail to you has its HTML part and picture again",
    ("press", False): "no press from other players reaches you (the GM's still does); they are told",
    ("press", True): "press from other players reaches you again",
}


def handle(conv: Conversation, command: SetPreference) -> None:
    """SET DIGEST|TEXTONLY|PRESS ON|OFF: how mail to the sender is made."""
    sender = conv.mail.sender
    set_preference(conv.unit.session, sender, command.name, on=command.on, now=conv.desk.clock())
    conv.reply.add(f"SET {command.name.upper()} {'ON' if command.on else 'OFF'}: "
                   f"{_PREFERENCE_WORDS[(command.name, command.on)]} ({sender}).")


COMMAND = MailCommand(
    rule="set_preference",
    parsed_form=SetPreference,
    grammar="""
set_preference: _SET PREFERENCE SWITCH
PREFERENCE.2: /(digest|textonly|press)\\b(?!\\s*=)/i
""",
    build=build,
    help="""\
  SET DIGEST ON | OFF              ON: a turn report only when you owe orders, at the end, or
                                   once the game's digest_hours passed, covering every turn
                                   since your last; OFF: every report (either overrides the
                                   game's reports= choice)
  SET TEXTONLY ON | OFF            ON: mail to you is plain text, no HTML part and no picture
  SET PRESS OFF | ON               OFF: no press from other players (the GM's still arrives)
""",
    handle=handle,
    in_gm=as_at_top_in_gm(handle),
)
