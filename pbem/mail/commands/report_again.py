"""REPORT by mail: a reader's newest report (or the one of turn n) mailed again, made as it was sent.

In a seat's session (a reply to a game mail, or after SIGNON) the reader is the seat; in a GM session
the GM (the public report); at the top of a mail (``REPORT <game>``, or the game from the subject's tag)
whoever the sender's address is in that game (:func:`pbem.service.readers.reader_of`). The report
always goes to the reader's own address. One mail gets at most one report again: a further REPORT in
it is refused on its line, so a mail of many REPORT lines causes one mail, not many.
"""

from __future__ import annotations

from pbem.commands import Report
from pbem.core import PbemError
from pbem.mail.answering.conversation import Conversation
from pbem.service import readers, reporting
from pbem.store.tables import GameRow, SeatRow

_ONCE = "REPORT"


class OneReportPerMail(PbemError):
    """A second REPORT in one mail."""


def in_session(conv: Conversation, row: GameRow, seat: SeatRow, command: Report) -> None:
    """REPORT in a seat's session: the seat's own report (of another game named: the sender's there)."""
    if command.game is not None and conv.unit.game(command.game).id != row.id:
        at_top(conv, command)
        return
    _send(conv, row, readers.Reader(seat, seat.address or conv.mail.sender), command.turn)


def in_gm_session(conv: Conversation, row: GameRow, command: Report) -> None:
    """REPORT in a GM session: the game's public report, to the GM's address."""
    if command.game is not None and conv.unit.game(command.game).id != row.id:
        at_top(conv, command)
        return
    if not row.gm_address:
        raise PbemError(f"game {row.name} has no GM address to send its report to")
    _send(conv, row, readers.Reader(None, row.gm_address), command.turn)


def at_top(conv: Conversation, command: Report) -> None:
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
