"""Every mail command, one line per command: the commands that open a block first, then those of a seat's
session, the queries, the players' commands, LEAGUE and the GM's commands. Where a command may stand
(the top of a mail, a seat's session, a GM's session) its registration says
(:attr:`~pbem.mail.commands.spec.MailCommand.places`); HELP places each command's lines where its text
marks them, else in the registry's order (:mod:`pbem.mail.commands.reference`).

Adding a mail command: a module in the package of its readers (its grammar fragment, parsed form, HELP
lines and handling, see :mod:`pbem.mail.commands.spec`) and one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from pbem import budget
from pbem.core import PbemError
from pbem.mail.commands import league
from pbem.mail.commands.gm import (
    create,
    end,
    log,
    preview,
    process,
    replace,
    reveal,
    rollback,
    seat,
    secrets,
    session as gm_session,
    set_options,
    start,
)
from pbem.mail.commands.gm.clock import deadline, extend, pause, resume
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
from pbem.mail.commands.queries import check, observe, report, salt, set_preference, set_zone, status, verify
from pbem.mail.commands.queries import help as help_command
from pbem.mail.commands.seats import (
    absent,
    back,
    concede,
    draw,
    nodraw,
    noorders,
    orders,
    press,
    ready,
    resign,
    session as seat_session,
)
from pbem.mail.commands.spec import MailCommand, ParsedCommand

if TYPE_CHECKING:
    from pbem.mail.answering.conversation import Conversation

COMMANDS: list[MailCommand] = [
    seat_session.COMMAND,
    check.COMMAND,
    gm_session.COMMAND,
    create.COMMAND,
    orders.COMMAND,
    ready.COMMAND,
    noorders.COMMAND,
    press.COMMAND,
    resign.COMMAND,
    draw.COMMAND,
    concede.COMMAND,
    nodraw.COMMAND,
    absent.COMMAND,
    back.COMMAND,
    status.COMMAND,
    help_command.COMMAND,
    report.COMMAND,
    salt.COMMAND,
    verify.COMMAND,
    observe.COMMAND,
    set_zone.COMMAND,
    set_preference.COMMAND,
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
    seat.COMMAND,
    set_options.COMMAND,
    start.COMMAND,
    deadline.COMMAND,
    extend.COMMAND,
    pause.COMMAND,
    resume.COMMAND,
    process.COMMAND,
    replace.COMMAND,
    end.COMMAND,
    reveal.COMMAND,
    secrets.COMMAND,
    log.COMMAND,
    preview.COMMAND,
    rollback.COMMAND,
]


def command_for(parsed: ParsedCommand) -> MailCommand:
    """The registered command whose parsed form ``parsed`` is (read at each call: a command registered
    later is found too)."""
    return next(command for command in COMMANDS if isinstance(parsed, command.parsed_form))


def carry_out_each(conv: Conversation, commands: Iterable[ParsedCommand],
                   run: Callable[[MailCommand, ParsedCommand], None]) -> None:
    """Carry out the commands of a session in mail order, each by ``run`` with its registration; a refused
    one is refused on its line and does not stop the others."""
    for command in commands:
        budget.check()
        conv.reply.line = command.line
        try:
            run(command_for(command), command)
        except (PbemError, ValueError) as error:
            conv.reply.refuse(command.line, error)
        conv.carried_out(command)
