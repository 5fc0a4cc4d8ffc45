"""The deadline of a seat as an iCalendar attachment (RFC 5545, written by the icalendar library):
one event per game and seat with a stable UID, at the deadline, with a reminder alarm; its SEQUENCE
rises whenever the game's deadline moves, so a calendar that imported it moves the event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar

from pbem.mail.outbound.compose import BinaryPart
from pbem.store.tables import GameRow
from pbem.zones import format_moment

CONTENT_TYPE = "text/calendar; method=PUBLISH; charset=utf-8"
PRODUCT = "-//pbem//play-by-email game master//EN"


def next_sequence(row: GameRow) -> int:
    """The SEQUENCE of the game's deadline events now: raised (in ``row``) whenever the deadline
    differs from the one last sent in a calendar. Call only when the game has a deadline."""
    if row.calendar_deadline != row.deadline:
        if row.calendar_deadline is not None:
            row.calendar_sequence += 1
        row.calendar_deadline = row.deadline
    return row.calendar_sequence


def event_uid(game: str, seat: str, domain: str) -> str:
    """The UID of the deadline event of one seat of a game: the same for every turn and every move."""
    return f"deadline.{game.lower()}.{seat.lower()}@{domain.lower()}"


def deadline_calendar(*, game: str, title: str, seat: str, turn: int, deadline: datetime, sequence: int,
                      domain: str, alarm_hours: float, now: datetime, zone: ZoneInfo | None) -> BinaryPart:
    """The .ics attachment of a seat's deadline: a VEVENT at ``deadline`` (in UTC) whose UID is
    :func:`event_uid`, with SEQUENCE ``sequence`` and a display alarm ``alarm_hours`` before it (at
    least one hour); its description gives the deadline in the reader's ``zone`` too."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = icalendar.Event()
    event.add("uid", event_uid(game, seat, domain))
    event.add("dtstamp", now.astimezone(UTC))
    event.add("dtstart", deadline.astimezone(UTC))
    event.add("sequence", sequence)
    event.add("summary", f"[{game}] orders due: seat {seat}")
    event.add("description", f"Orders of seat {seat} for turn {turn} of {game} ({title}) are due by "
                             f"{format_moment(deadline, zone)}. Reply to the game's mail with your orders.")
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", -timedelta(hours=max(alarm_hours, 1.0)))
    alarm.add("description", f"[{game}] orders of seat {seat} due in {max(alarm_hours, 1.0):g} hours")
    event.add_component(alarm)
    calendar.add_component(event)
    return BinaryPart(f"{game}-{seat}-deadline.ics".lower(), CONTENT_TYPE, calendar.to_ical())
