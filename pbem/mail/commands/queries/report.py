"""REPORT by mail: a reader's newest report (or the one of turn n) mailed again, made as it was sent.

In a seat's session (a reply to a game mail, or after SIGNON) the reader is the seat; in a GM session
the GM (the public report); at the top of a mail (``REPORT <game>``, or the game from the subject's tag)
whoever the sender's address is in that game (:func:`pbem.service.readers.reader_of`). The report
always goes to the reader's own address. One mail gets at most one report again: a further REPORT in
it is refused on its line, so a mail of many REPORT lines causes one mail, not many.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbem.core import PbemError
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.commands.values import name
from pbem.service import readers, reporting

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow

MAX_REPORT_TURN = 999_999
"""Highest turn number REPORT reads (no game gets near it)."""

_ONCE = "REPORT"


@dataclass(frozen=True)
class Report(ParsedCommand):
    """REPORT [<game>] [<turn>]: the reader's newest report (or the one that told ``turn``) mailed again, as
    it was sent (in a session, or with the subject's tag, the game can be left out)."""

    game: str | None
    turn: int | None

    asks_only: ClassVar[bool] = True
    limited_as_query: ClassVar[bool] = True
    rests_on_from: ClassVar[bool] = True
    keeps_session_open: ClassVar[bool] = True

    def needs_tagged_game(self) -> bool:
        """True when no game is named."""
        return self.game is None


def build(line: int, children: list[Token]) -> Report:
    """The parsed REPORT line: the game first (in lower case), then the turn, each if given."""
    words = [str(child) for child in children]
    turn = int(words.pop()) if words and words[-1].isdigit() else None
    if words and words[0].isdigit():
        raise LineError("write REPORT [<game>] [<turn>]: the game first, then the turn", children[0].column)
    if len(words) > 1:
        raise LineError(f'"{words[1]}" is not a turn number', children[1].column)
    if turn is not None and turn > MAX_REPORT_TURN:
        raise LineError(f"there is no turn {turn}", children[-1].column)
    return Report(line, name(children[0]) if words else None, turn)


class OneReportPerMail(PbemError):
    """A second REPORT in one mail."""


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Report) -> None:
    """REPORT in a seat's session: the seat's own report (of another game named: the sender's there)."""
    if command.game is not None and conv.unit.game(command.game).id != row.id:
        handle(conv, command)
        return
    _send(conv, row, readers.Reader(seat, seat.address or conv.mail.sender), command.turn)


def in_gm(conv: Conversation, row: GameRow, command: Report) -> None:
    """REPORT in a GM session: the game's public report, to the GM's address."""
    if command.game is not None and conv.unit.game(command.game).id != row.id:
        handle(conv, command)
        return
    if not row.gm_address:
        raise PbemError(f"game {row.name} has no GM address to send its report to")
    _send(conv, row, readers.Reader(None, row.gm_address), command.turn)


def handle(conv: Conversation, command: Report) -> None:
    """REPORT <game> (or the game of the subject's tag) at the top of a mail: the report the sender's address
    reads in that game."""
    name = command.game or conv.tag
    if name is None:
        raise PbemError("REPORT needs a game name here, for example REPORT tc-1")
    reader = readers.reader_of(conv.unit, name, conv.mail.sender)
    _send(conv, conv.unit.game(name), reader, command.turn)


def _send(conv: Conversation, row: GameRow, reader: readers.Reader, turn: int | None) -> None:
    """Queue the reader's report again and say so in the reply; refuse a second REPORT in the mail."""
    if conv.handled.answered(_ONCE, "") is not None:
        raise OneReportPerMail("one REPORT is answered per mail, and this mail asked for one above: send "
                               "another mail for another report")
    unit = conv.unit
    report = reporting.report_of_turn(unit, row.name, turn)
    held_back = unit.held_back
    conv.notifier.send_again(unit, unit.snapshot(row), report, reader.seat, reader.address)
    which = "your newest report" if turn is None else f"the report of turn {turn}"
    whose = f"seat {reader.seat.name}" if reader.seat is not None else "the public report"
    if unit.held_back > held_back:
        answer = (f"REPORT: {which} of game {row.name} ({whose}) was not sent: this mail caused as many mails as "
                  "one mail may.")
    else:
        answer = f"REPORT: {which} of game {row.name} ({whose}) went to {reader.address} in a mail of its own."
    conv.reply.add(conv.handled.remember(_ONCE, "", answer))


COMMAND = MailCommand(
    rule="report",
    parsed_form=Report,
    grammar=keyword_grammar("report", "REPORT REPORT_ARG? REPORT_ARG?"),
    build=build,
    help="""\
  REPORT [<n>]                     (in a reply to a game mail, or after SIGNON) your newest report
                                   mailed again, as it was sent; REPORT <n>: the report of turn n
  REPORT <game> [<n>]              the same from your address (the game from the subject's tag
                                   may be left out); HELP REPORT tells more
""",
    handle=handle,
    in_seat=in_seat,
    in_gm=in_gm,
)
