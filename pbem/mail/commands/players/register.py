"""REGISTER <name> [<code>]: the sender's address takes a player name, or joins the name with the code
one of its addresses was given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar
from pbem.service import players

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


@dataclass(frozen=True)
class Register(ParsedCommand):
    """REGISTER <name> [<code>]: the sender's address takes a player name (or joins the name with the
    code one of its addresses was given)."""

    name: str
    code: str | None

    rests_on_from: ClassVar[bool] = True


def build(line: int, children: list[Token]) -> Register:
    """The parsed REGISTER line: the name as written, the code in lower case."""
    return Register(line, str(children[0]), str(children[1]).lower() if len(children) > 1 else None)


def handle(conv: Conversation, command: Register) -> None:
    """REGISTER <name> [<code>]: the sender takes a name, renames itself, joins a name with its code, or
    (from an address of the name) is given a code that joins one more address."""
    done = players.register(conv.unit, conv.mail.sender, command.name, command.code)
    if done.how == "registered":
        text = (f"REGISTER: you are {done.name}. Your record across games (games, outcomes, deadlines met) is "
                f"shown under this name to anyone who asks (WHOIS {done.name}), never your address.")
    elif done.how == "renamed":
        text = f"REGISTER: your name is {done.name} now (it was {done.old_name}); your record goes with it."
    elif done.how == "joined":
        text = (f"REGISTER: this address is joined to {done.name}, which has {done.addresses} addresses now; "
                "their records count together.")
    else:
        conv.reply.secret = True  # the code joins an address to the name: the copy kept loses its body once sent
        text = (f"REGISTER: you are {done.name} already ({done.addresses} address"
                f"{'es' if done.addresses != 1 else ''}). To join another address of yours to {done.name}, send "
                f"from it, within 7 days:\nREGISTER {done.name} {done.link_code}\n"
                "(The code works once; a new REGISTER gives a new one.)")
    conv.reply.add(text)


COMMAND = MailCommand(
    rule="register",
    parsed_form=Register,
    grammar=keyword_grammar("register", "REGISTER PLAYER CODE?"),
    build=build,
    help="""\
  REGISTER <name>                  take a player name (2-24 letters, digits, - or _): your record
                                   across games is shown under it, never your address; sent
                                   again from a registered address, the reply gives a code
  REGISTER <name> <code>           join this address to your name with that code
""",
    handle=handle,
)
