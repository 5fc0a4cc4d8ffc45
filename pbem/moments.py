"""Durations and moments as people write them (by mail and on the command line): ``1d6h``, ``30m``,
``2026-11-25 18:00``, ``2026-11-25 19:00 Europe/Berlin``; each read into a value or refused with a message
that quotes the text and says how to write it."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

from pbem.clock import FIRST_YEAR, LAST_YEAR, in_years
from pbem.core import PbemError
from pbem.zones import BadZone, read_zone

MAX_EXTENSION = timedelta(days=365)
"""Longest duration :func:`parse_duration` accepts (what EXTEND may add to a deadline)."""


class BadDuration(PbemError):
    """A duration that is not like ``2d``, ``12h``, ``1d6h`` or ``30m``, or is zero or too long."""


class BadDateTime(PbemError):
    """A date-time that is not like ``2026-11-25 18:00`` or ``2026-11-25T18:00Z``, or does not exist."""


_DURATION = re.compile(r"(?:(\d{1,6})w)?(?:(\d{1,6})d)?(?:(\d{1,6})h)?(?:(\d{1,6})m)?", re.I)


def parse_duration(text: str) -> timedelta:
    """Return the duration written as weeks, days, hours and minutes, in that order: ``1d6h``, ``30m``, ``2w``.

    Raises :class:`BadDuration` naming the text when it has another form,
    is zero, or is longer than :data:`MAX_EXTENSION`.
    """
    found = _DURATION.fullmatch(text.strip())
    if found is None or not any(found.groups()):
        raise BadDuration(f'"{text}" is not a duration: write for example 2d, 12h, 1d6h or 30m')
    weeks, days, hours, minutes = (int(value or 0) for value in found.groups())
    duration = timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes)
    if duration <= timedelta(0):
        raise BadDuration(f'"{text}" is no time at all: give a duration longer than zero')
    if duration > MAX_EXTENSION:
        raise BadDuration(f'"{text}" is too long: at most {MAX_EXTENSION.days} days')
    return duration


_WHEN = re.compile(
    r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})"
    r"(?:(?:T|\s+)(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?)?"
    r"\s*(?P<zone>Z|UTC|GMT|[+-]\d{2}:?\d{2}|[A-Za-z][A-Za-z0-9_+-]*/[A-Za-z0-9_+/-]+)?",
    re.I,
)


def parse_when(text: str) -> datetime:
    """Return the moment written as an ISO-like date and time, in UTC.

    Accepts ``2026-11-25 18:00`` (UTC), ``2026-11-25T18:00Z``, seconds, and
    a zone ``Z``, ``UTC``, ``GMT``, ``+01:00`` or an IANA name such as
    ``Europe/Berlin`` (the local time there on that day, daylight saving
    time included; converted to UTC). Raises :class:`BadDateTime` naming the
    text when it has another form, has no time of day, names a day or time
    that does not exist (also a local time skipped when the clocks go
    forward), a local time that happens twice (when they go back: the
    message asks for the offset), or an unknown zone.
    """
    found = _WHEN.fullmatch(text.strip())
    if found is None:
        raise BadDateTime(
            f'"{text}" is not a date and time: write for example 2026-11-25 18:00 (UTC) or 2026-11-25T18:00Z'
        )
    year, month, day = int(found["year"]), int(found["month"]), int(found["day"])
    if not in_years(year):
        raise BadDateTime(f'"{text}": give a date in the years {FIRST_YEAR} to {LAST_YEAR}')
    try:
        date(year, month, day)
    except ValueError:
        raise BadDateTime(f'"{text}": there is no day {year}-{month:02}-{day:02}') from None
    if found["hour"] is None:
        raise BadDateTime(f'"{text}" has no time of day: write for example {year}-{month:02}-{day:02} 18:00')
    hour, minute, second = int(found["hour"]), int(found["minute"]), int(found["second"] or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise BadDateTime(f'"{text}": there is no time of day {hour:02}:{minute:02}:{second:02}')
    zone = found["zone"]
    if zone is not None and "/" in zone:
        return _local_time(text, datetime(year, month, day, hour, minute, second), zone)
    return datetime(year, month, day, hour, minute, second, tzinfo=_zone(text, zone)).astimezone(UTC)


def _local_time(text: str, local: datetime, zone_name: str) -> datetime:
    """The UTC moment of the wall-clock time ``local`` in the IANA zone ``zone_name``, refusing a time
    that does not exist there or happens twice."""
    try:
        zone = read_zone(zone_name)
    except BadZone as error:
        raise BadDateTime(f'"{text}": {error}') from None
    first, second = local.replace(tzinfo=zone, fold=0), local.replace(tzinfo=zone, fold=1)
    moment = first.astimezone(UTC)
    if moment.astimezone(zone).replace(tzinfo=None) != local:
        raise BadDateTime(f'"{text}": there is no {local:%H:%M} on {local:%Y-%m-%d} in {zone.key} (the clocks '
                          "go forward then)")
    if first.utcoffset() != second.utcoffset():
        offsets = " or ".join(_offset(d) for d in (first, second))
        raise BadDateTime(f'"{text}": {local:%H:%M} happens twice on {local:%Y-%m-%d} in {zone.key} (the clocks '
                          f"go back then); write the offset instead of the zone: {offsets}")
    return moment


def _offset(moment: datetime) -> str:
    offset = moment.utcoffset()
    assert offset is not None
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{moment:%Y-%m-%d %H:%M} {sign}{abs(minutes) // 60:02}:{abs(minutes) % 60:02}"


def _zone(text: str, zone: str | None) -> timezone:
    if zone is None or zone.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 14 or minutes > 59:
        raise BadDateTime(f'"{text}": there is no time zone {zone}')
    return timezone(sign * timedelta(hours=hours, minutes=minutes))
