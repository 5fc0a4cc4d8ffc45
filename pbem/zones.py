"""Time zones: IANA zone names read through :mod:`zoneinfo` (with the ``tzdata`` package behind it, so
a machine without system zone data knows them too), deadlines shown in a reader's zone with UTC
beside, and the marks that let mail text be written once and shown in each reader's zone.

A text that names a moment holds :func:`mark` of it; :func:`localize` turns every mark into the
moment as the reader reads it (:func:`format_moment`), just before the mail is written.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime
from functools import lru_cache

from pbem.clock import format_utc
from pbem.core import InvalidInput

MAX_ZONE_NAME = 64
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+){0,2}")
_MARK = re.compile("\ue000([0-9T:+.-]{19,40})\ue001")


class BadZone(InvalidInput):
    """A time zone name that is not an IANA zone such as Europe/Berlin; the message quotes it."""


def read_zone(name: str) -> zoneinfo.ZoneInfo:
    """Return the IANA time zone called ``name`` (``Europe/Berlin``, ``America/New_York``, ``UTC``).

    Raises :class:`BadZone` quoting the name when it is not a zone zoneinfo knows.
    """
    text = name.strip()
    if len(text) > MAX_ZONE_NAME or not _ZONE_NAME.fullmatch(text):
        raise BadZone(f'"{name[:MAX_ZONE_NAME]}" is not a time zone: give an IANA name such as Europe/Berlin')
    try:
        return zoneinfo.ZoneInfo(text)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise BadZone(f'"{text}" is not a time zone: give an IANA name such as Europe/Berlin or '
                      "America/New_York") from None


def zone_or_none(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone called ``name`` (None for no name, or one this machine no longer knows)."""
    if not name:
        return None
    try:
        return read_zone(name)
    except BadZone:
        return None


def format_moment(moment: datetime, zone: zoneinfo.ZoneInfo | None) -> str:
    """A moment as a reader in ``zone`` reads it: ``2026-11-25 19:00 CET (2026-11-25 18:00 UTC)``;
    in UTC alone (``2026-11-25 18:00 UTC``) without a zone or for a reader in UTC."""
    if zone is None or zone.key in ("UTC", "Etc/UTC"):
        return format_utc(moment)
    local = moment.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({format_utc(moment)})"


def mark(moment: datetime) -> str:
    """A mark for ``moment`` in a mail text, shown in each reader's zone by :func:`localize`."""
    return f"\ue000{moment.astimezone(UTC).isoformat()}\ue001"


def localize(text: str, zone: zoneinfo.ZoneInfo | None) -> str:
    """``text`` with every :func:`mark` in it written for a reader in ``zone``."""
    if "\ue000" not in text:
        return text
    return _MARK.sub(lambda found: _marked_moment(found.group(1), zone), text)


@lru_cache(maxsize=1024)
def _marked_moment(moment: str, zone: zoneinfo.ZoneInfo | None) -> str:
    """:func:`format_moment` of the moment a mark holds (its ISO text) for ``zone``, worked out once: a mail
    shows its few deadlines more than once, and a reply's text is localized twice (its size, then its body).
    A zone is immutable once read, so the text is the same for as long as the zone lives."""
    return format_moment(datetime.fromisoformat(moment), zone)
