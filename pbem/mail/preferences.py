"""What each mail address asked for in the mail it gets (VIEWJSON ON/OFF), kept per address."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from pbem.store.tables import AddressPreferenceRow


def wants_view_json(session: Session, address: str) -> bool:
    """True when ``address`` asked (VIEWJSON ON) for the seat's view as a JSON attachment to its reports."""
    row = session.get(AddressPreferenceRow, address.lower())
    return row is not None and row.view_json


def set_view_json(session: Session, address: str, *, on: bool, now: datetime) -> None:
    """Record whether reports to ``address`` carry the seat's view as JSON (the VIEWJSON ON/OFF command)."""
    row = session.get(AddressPreferenceRow, address.lower())
    if row is None:
        row = AddressPreferenceRow(address=address.lower(), view_json=on, updated_at=now)
    row.view_json, row.updated_at = on, now
    session.add(row)
