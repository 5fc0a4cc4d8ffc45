"""ABSENT <from> [<to>] (in a seat's session): the seat is away on those days (whole days in the sender's
time zone); a deadline falling in them moves to a day after its return, up to the game's absence_days."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date
from typing import TYPE_CHECKING

from pbem.clock import FIRST_YEAR, LAST_YEAR, in_years
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand, keyword_grammar
from pbem.mail.outbound.preferences import zone_of
from pbem.service import absences
from pbem.zones import mark

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


@dataclass(frozen=True)
class Absent(ParsedCommand):
    """ABSENT <from> [<to>] (after SIGNON): the seat is away on those days (whole days, in the sender's
    time zone); without <to>, one day. Dates as YYYY-MM-DD."""

    starts: date
    ends: date


def build(line: int, children: list[Token]) -> Absent:
    """The parsed ABSENT line: one or two days within the years pbem reads, the last not before the first."""
    days = str(children[0]).split()
    try:
        if len(days) > 2:
            raise ValueError
        starts, ends = (date.fromisoformat(day) for day in (days[0], days[-1]))
    except ValueError:
        raise LineError(f'"{children[0]}": give the first and last day away, such as 2026-12-20 2026-12-28',
                        children[0].column) from None
    if not (in_years(starts.year) and in_years(ends.year)):
        raise LineError(f'"{children[0]}": give days in the years {FIRST_YEAR} to {LAST_YEAR}', children[0].column)
    if ends < starts:
        raise LineError("the last day away comes before the first", children[0].column)
    return Absent(line, starts, ends)


def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Absent) -> None:
    """ABSENT <from> [<to>]: whole days in the sender's zone; the GM and the other seats hear of a moved deadline."""
    zone = zone_of(conv.unit.session, conv.mail.sender) or UTC
    starts, ends = absences.whole_days(command.starts, command.ends, zone)
    absences.announce(conv.unit, row.name, seat.name, starts, ends)
    conv.notifier.tell_gm(conv.unit, conv.unit.snapshot(row), f"Seat {seat.name} ({conv.mail.sender}) of {row.name} "
                          f"announced an absence from {mark(starts)} to {mark(ends)}.")
    moves = (f"A deadline falling in it moves to a day after your return, for at most {row.absence_days:g} days in "
             f"this game ({seat.absence_used_hours / 24:.1f} used)." if row.absence_days > 0 else
             "This game grants no extensions for absences (absence_days=0): its deadlines stay where they are.")
    conv.reply.add(f"ABSENT: seat {seat.name} of {row.name} is away from {mark(starts)} to {mark(ends)}. {moves} "
                   "BACK ends it early.")


COMMAND = MailCommand(
    rule="absent",
    parsed_form=Absent,
    grammar=keyword_grammar("absent", "ABSENT WHEN"),
    build=build,
    help="""\
  ABSENT <from> [<to>]             (after SIGNON) you are away those days (2026-12-20 2026-12-28,
                                   in your zone): deadlines falling in them move to a day after
                                   your return, up to the game's absence_days
""",
    in_seat=in_seat,
)
