"""Time in one convention: naive datetimes that are UTC, as stored in the database."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Return the current time as a naive UTC datetime (microseconds kept)."""
    return datetime.now(UTC).replace(tzinfo=None)


def format_utc(moment: datetime) -> str:
    """Return a stored UTC time the way reports print it: ``2026-11-25 18:00 UTC``."""
    return moment.strftime("%Y-%m-%d %H:%M UTC")
