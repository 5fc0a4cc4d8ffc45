"""When a turn is due: its deadline, and whether it resolves now.

A turn resolves at its deadline (NMR defaults for the silent); before it, in
a game that resolves early, once every owing seat's orders are in (and the
game's delay after the last of them passed); and in any game once every owing
seat said READY.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.service import owing
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus

DEADLINE = "deadline"
ALL_IN = "all-in"
ALL_READY = "all-ready"


def next_deadline(row: GameRow, now: datetime) -> datetime | None:
    """The deadline of a turn opening at ``now``: ``turn_hours`` later (None when it is 0: no deadline)."""
    if row.turn_hours <= 0:
        return None
    return now + timedelta(hours=row.turn_hours)


def due_reason(unit: Unit, info: GameInfo, now: datetime, *, wait: bool = True) -> str | None:
    """Why the game's turn resolves at ``now``: :data:`DEADLINE` (it passed), :data:`ALL_IN` (early
    resolution, every owing seat's orders in and, with ``wait``, the delay after the last of them
    passed) or :data:`ALL_READY`; None when it is not due (or the game waits for nothing)."""
    row = info.row
    if info.phase is None:
        return None
    if row.deadline is not None and now >= row.deadline:
        return DEADLINE
    if row.resolve_when == "early":
        last = owing.all_in(unit, info)
        if last is not None:
            if wait and now < last + timedelta(minutes=row.early_delay_minutes):
                return None
            return ALL_IN
    return ALL_READY if owing.all_ready(unit, info) else None


def may_be_due(unit: Unit, info: GameInfo, now: datetime) -> bool:
    """True when the clock could have something to do for the game at ``now`` because of orders: it is
    active and its turn is due, or would be once an early resolution's delay passed. False means a clock
    tick for just this game would find nothing that orders make due (reminders and absences wait for
    the full tick)."""
    return info.row.status == GameStatus.ACTIVE and due_reason(unit, info, now, wait=False) is not None
