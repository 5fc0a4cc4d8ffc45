"""The mail commands that are one module each, one line per command, in the order HELP lists them.

Adding a mail command: a module beside these (its grammar fragment, parsed form, HELP lines and
``handle``, see :mod:`pbem.mail.commands.spec`) and one line here.
"""

from __future__ import annotations

from pbem.mail.commands import league
from pbem.mail.commands.players import (
    accept,
    decline,
    forget,
    join,
    mydata,
    register,
    standby_list,
    stop,
    view_json,
    whois,
)
from pbem.mail.commands.spec import MailCommand, ParsedCommand

COMMANDS: list[MailCommand] = [
    join.COMMAND,
    standby_list.COMMAND,
    accept.COMMAND,
    decline.COMMAND,
    view_json.COMMAND,
    register.COMMAND,
    whois.COMMAND,
    mydata.COMMAND,
    forget.COMMAND,
    stop.COMMAND,
    league.COMMAND,
]


def command_for(parsed: ParsedCommand) -> MailCommand:
    """The registered command whose parsed form ``parsed`` is (read at each call: a command registered
    later is found too)."""
    return next(command for command in COMMANDS if isinstance(parsed, command.parsed_form))
