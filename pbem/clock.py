"""Time in one convention: timezone-aware UTC datetimes (the database stores UTC)."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


def format_utc(moment: datetime) -> str:
    """Return a time the way reports print it: ``2026-11-25 18:00 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
