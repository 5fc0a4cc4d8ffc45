"""Time in one convention: timezone-aware UTC datetimes (the database stores UTC)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


FIRST_YEAR, LAST_YEAR = 2000, 2099
"""The years of every date pbem reads (deadlines, absences): whatever a reader's time zone, a moment in
them is a moment in UTC, and every arithmetic on it stays within what a datetime holds."""


def in_years(year: int) -> bool:
    """True when ``year`` lies from :data:`FIRST_YEAR` to :data:`LAST_YEAR`."""
    return FIRST_YEAR <= year <= LAST_YEAR


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


def format_utc(moment: datetime) -> str:
    """Return a time the way reports print it: ``2026-11-25 18:00 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def format_duration(duration: timedelta) -> str:
    """Return a duration the way EXTEND takes it: ``1d6h``, ``30m``, ``2d`` (whole minutes)."""
    minutes = int(duration.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    text = "".join(f"{value}{unit}" for value, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if value)
    return text or "0m"
