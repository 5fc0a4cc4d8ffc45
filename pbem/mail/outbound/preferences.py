"""What each mail address asked for in the mail it gets, kept per address: the seat's view as
JSON (VIEWJSON ON/OFF), the time zone its deadlines are shown in (SET ZONE), report digests (SET
DIGEST), plain text only (SET TEXTONLY) and no press from other players (SET PRESS OFF)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, select
from sqlmodel import Session

from pbem.addresses import checked_address
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import AddressPreferenceRow
from pbem.zones import zone_or_none


_PREFERENCES = AddressPreferenceRow.__table__  # type: ignore[attr-defined]
_ZONE_AND_TEXT_ONLY = DriverStatement(select(_PREFERENCES.c.zone, _PREFERENCES.c.text_only).where(
    _PREFERENCES.c.address == bindparam("address")
))
"""Two columns of one row, built once: what every mail to an address reads (``session.get`` of the
whole row costs three times as much: its cache key, identity map and object)."""


def preferences_of(session: Session, address: str) -> AddressPreferenceRow | None:
    """What ``address`` asked for, or None when it never asked for anything."""
    return session.get(AddressPreferenceRow, address.lower())


def wants_view_json(session: Session, address: str) -> bool:
    """True when ``address`` asked (VIEWJSON ON) for the seat's view as a JSON attachment to its reports."""
    row = preferences_of(session, address)
    return row is not None and row.view_json


def zone_of(session: Session, address: str) -> ZoneInfo | None:
    """The time zone ``address`` asked its deadlines to be shown in (None: UTC)."""
    row = preferences_of(session, address)
    return zone_or_none(row.zone) if row is not None else None


def zone_and_text_only(session: Session, address: str) -> tuple[ZoneInfo | None, bool]:
    """The time zone ``address`` asked its deadlines to be shown in (None: UTC) and whether it asked for
    plain-text mail (SET TEXTONLY ON: no HTML part, no picture), with one read: what each mail to it needs.
    Changes the session holds but has not written yet are written first."""
    session.flush()  # nothing to do unless the session holds changes (a SET earlier in the same mail)
    row = _ZONE_AND_TEXT_ONLY.first(session.connection(), {"address": address.lower()})
    if row is None:
        return None, False
    zone, text_only = row
    return zone_or_none(zone), bool(text_only)


def _preferences_for_change(session: Session, address: str, now: datetime) -> AddressPreferenceRow:
    """The preferences row of ``address`` to change (new when it has none); raises InvalidInput for an
    address pbem does not take."""
    row = preferences_of(session, address)
    if row is None:
        row = AddressPreferenceRow(address=checked_address(address), updated_at=now)
    row.updated_at = now
    session.add(row)
    return row


def set_view_json(session: Session, address: str, *, on: bool, now: datetime) -> None:
    """Record whether reports to ``address`` carry the seat's view as JSON (the VIEWJSON ON/OFF command)."""
    _preferences_for_change(session, address, now).view_json = on


def set_zone(session: Session, address: str, zone: ZoneInfo | None, *, now: datetime) -> None:
    """Record the time zone deadlines in mail to ``address`` are shown in (None: UTC alone)."""
    _preferences_for_change(session, address, now).zone = zone.key if zone is not None else None


PREFERENCE_COLUMNS = {"digest": "digest", "textonly": "text_only", "press": "press_off"}
"""The column each SET <name> ON|OFF preference is kept in (PRESS OFF sets press_off)."""


def set_preference(session: Session, address: str, name: str, *, on: bool, now: datetime) -> None:
    """Record SET DIGEST|TEXTONLY|PRESS ON|OFF for ``address``."""
    row = _preferences_for_change(session, address, now)
    column = PREFERENCE_COLUMNS[name]
    setattr(row, column, (not on) if column == "press_off" else on)


def takes_press(session: Session, address: str) -> bool:
    """False when ``address`` asked for no press from other players (SET PRESS OFF)."""
    row = preferences_of(session, address)
    return row is None or not row.press_off
