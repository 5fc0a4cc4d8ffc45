"""Announced absences (ABSENT <from> [<to>], BACK): a deadline that falls in the absence of a seat
owing orders moves to a day after it ends, as long as the seat's extensions in the game stay within
the game's ``absence_days``; the other seats hear of the new deadline, the GM sees absences in STATUS."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from sqlmodel import select

from pbem.clock import format_utc
from pbem.core import GameError, InvalidInput
from pbem.service import audit, due, owing, queries
from pbem.service.news import DeadlineExtended
from pbem.service.unit import Unit
from pbem.store.tables import AbsenceRow, GameRow, GameStatus

AFTER_RETURN = timedelta(days=1)
"""How long after an absence ends the moved deadline lies: a day to read the reports and send orders."""
LONGEST = timedelta(days=366)
MOST_AHEAD = 10
"""Most absences a seat has announced that are not over yet: each deadline looks at every one."""


def whole_days(first: date, last: date, zone: tzinfo = UTC) -> tuple[datetime, datetime]:
    """The moments (in UTC) an absence on the days ``first`` to ``last`` in ``zone`` starts and ends:
    the start of the first day and of the day after the last. Raises InvalidInput for days at the
    ends of the calendar, which no moment in UTC can hold."""
    try:
        starts = datetime.combine(first, time(), zone).astimezone(UTC)
        ends = datetime.combine(last + timedelta(days=1), time(), zone).astimezone(UTC)
    except OverflowError:
        raise InvalidInput(f"an absence from {first} to {last} is not within a year from today: an absence is "
                           "at most a year long and at most a year ahead") from None
    return starts, ends


def announce(unit: Unit, name: str, seat: str, starts: datetime, ends: datetime) -> AbsenceRow:
    """Record that ``seat`` is away from ``starts`` to ``ends``, and move the current deadline when
    it falls in the absence. Raises InvalidInput for an absence that is over, backwards, longer
    than a year or starting more than a year ahead, or past the seat's :data:`MOST_AHEAD` absences not
    over yet, GameError for a game that is over."""
    row = unit.game(name)
    seat_row = unit.seat(row, seat)
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {row.name} is finished")
    if ends <= starts or ends <= unit.now():
        raise InvalidInput(f"an absence from {format_utc(starts)} to {format_utc(ends)} is over or ends before it "
                           "starts")
    if ends - max(starts, unit.now()) > LONGEST:
        raise InvalidInput("an absence is at most a year long")
    if starts - unit.now() > LONGEST:
        raise InvalidInput("an absence is announced at most a year ahead")
    if sum(a.seat == seat_row.name for a in absences_of(unit, row, current=True)) >= MOST_AHEAD:
        raise InvalidInput(f"seat {seat_row.name} has {MOST_AHEAD} absences ahead already, the most a seat may "
                           "have; BACK ends them")
    absence = AbsenceRow(game_id=row.id, seat=seat_row.name, starts=starts, ends=ends, announced_at=unit.now())
    unit.add(absence)
    audit.record(unit, row, "ABSENT", f"seat {seat_row.name} away from {format_utc(starts)} to {format_utc(ends)}")
    unit.session.flush()
    extend_for_absences(unit, row)
    return absence


def back(unit: Unit, name: str, seat: str) -> int:
    """End the seat's absences now (BACK); return how many it had. Deadlines already moved stay."""
    row = unit.game(name)
    seat_row = unit.seat(row, seat)
    now = unit.now()
    ended = 0
    for absence in absences_of(unit, row):
        if absence.seat == seat_row.name and absence.ends > now:
            absence.ends = max(absence.starts, now)
            unit.add(absence)
            ended += 1
    if ended:
        audit.record(unit, row, "BACK", f"seat {seat_row.name} is back")
    return ended


def absences_of(unit: Unit, row: GameRow, *, current: bool = False) -> list[AbsenceRow]:
    """The absences of a game's seats, earliest first (with ``current``, only those not over nor
    cancelled before they began)."""
    query = select(AbsenceRow).where(AbsenceRow.game_id == row.id).order_by(AbsenceRow.starts)
    found = list(unit.session.exec(query))
    return [a for a in found if a.ends > max(a.starts, unit.now())] if current else found


def extend_for_absences(unit: Unit, row: GameRow) -> DeadlineExtended | None:
    """Move the deadline of the turn awaiting orders when it falls in an absence of a seat owing orders
    that sent none: to a day after the absence ends, as far as the seat's allowance of ``absence_days``
    reaches, and at most a year ahead (:data:`~pbem.service.due.FURTHEST_AHEAD`). Records it (audit, news)
    and returns it, or None when nothing moved."""
    if row.status != GameStatus.ACTIVE or row.deadline is None or row.absence_days <= 0:
        return None
    info = unit.snapshot(row)
    allowance = timedelta(days=row.absence_days)
    original = deadline = row.deadline
    moved_for: list[str] = []
    for absence in absences_of(unit, row, current=True):
        if absence.seat not in owing.owing_seats(info) or not absence.starts <= deadline < absence.ends:
            continue
        if queries.current_submission(unit.session, row, absence.seat) is not None:
            continue
        seat = unit.seat(row, absence.seat)
        left = allowance - timedelta(hours=seat.absence_used_hours)
        wanted = min(absence.ends + AFTER_RETURN - deadline, left, due.latest_deadline(unit.now()) - deadline)
        if wanted <= timedelta(0):
            continue
        seat.absence_used_hours += wanted.total_seconds() / 3600
        unit.add(seat)
        deadline += wanted
        moved_for.append(seat.name)
    if deadline == original:
        return None
    row.deadline, row.reminded_turn = deadline, 0
    unit.add(row)
    audit.record(unit, row, "EXTEND", f"deadline of turn {row.turn} moved from {format_utc(original)} to "
                 f"{format_utc(deadline)} for the absence of seat(s) {', '.join(moved_for)}", actor=audit.SERVICE)
    news = DeadlineExtended(row.name, row.turn, deadline)
    unit.news.append(news)
    return news
