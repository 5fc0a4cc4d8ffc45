"""SET ZONE <IANA name>: deadlines in mail to the sender's address are shown in that time zone, with
UTC beside."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, as_at_top_in_gm
from pbem.mail.outbound.preferences import set_zone
from pbem.zones import BadZone, format_moment, read_zone

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class SetZone(ParsedCommand):
    """SET ZONE <IANA name>: deadlines in mail to the sender's address are shown in that zone, with UTC beside."""

    zone: str


def build(line: int, children: list[Token]) -> SetZone:
    """The parsed SET ZONE line: the zone's IANA name, refused at its column when there is no such zone."""
    try:
        return SetZone(line, read_zone(str(children[0])).key)
    except BadZone as error:
        raise LineError(str(error), children[0].column) from None


def handle(conv: Conversation, command: SetZone) -> None:
    """SET ZONE <name>: deadlines in mail to the sender are shown in that zone, with UTC beside."""
    sender = conv.mail.sender
    chosen = read_zone(command.zone)
    set_zone(conv.unit.session, sender, chosen, now=conv.desk.clock())
    example = format_moment(conv.desk.clock(), chosen)
    conv.reply.add(f"SET ZONE {chosen.key}: deadlines in mail to {sender} are shown in {chosen.key}, with UTC "
                   f"beside (now is {example}).")


COMMAND = MailCommand(
    rule="set_zone",
    parsed_form=SetZone,
    grammar="""
set_zone: _SET _ZONE ZONE_NAME
// SET ZONE <name> for an address; SET zone=... would be a GM's option
_ZONE.2: /zone\\b(?!\\s*=)/i
""",
    build=build,
    help="""\
  SET ZONE <zone>                  show deadlines in mail to your address in this time zone
                                   (an IANA name such as Europe/Berlin), with UTC beside;
                                   SET ZONE UTC for UTC alone
""",
    handle=handle,
    in_gm=as_at_top_in_gm(handle),
)
