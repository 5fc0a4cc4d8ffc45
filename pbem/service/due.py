"""When a turn is due: its deadline, and whether it resolves now.

A turn resolves at its deadline (NMR defaults for the silent); before it, in
a game that resolves early, once every owing seat's orders are in (and the
game's delay after the last of them passed); and in any game once every owing
seat said READY. A phase may be an answer window with a deadline of its own,
shorter than the game's turn (:attr:`~pbem.core.Phase.deadline_hours`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.clock import format_utc
from pbem.core import InvalidInput, Phase
from pbem.service import owing
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus

DEADLINE = "deadline"
ALL_IN = "all-in"
ALL_READY = "all-ready"

FURTHEST_AHEAD = timedelta(days=366)
"""The furthest a deadline lies after now, however it was set (DEADLINE, EXTEND, RESUME, an absence, an
outage): shown in any reader's time zone, and moved by any extension, it stays a moment a datetime holds."""


def latest_deadline(now: datetime) -> datetime:
    """The latest deadline a game may have at ``now``: :data:`FURTHEST_AHEAD` later."""
    return now + FURTHEST_AHEAD


def check_deadline(when: datetime, now: datetime) -> datetime:
    """Return ``when`` when it is no later than :func:`latest_deadline` at ``now``; raises InvalidInput
    naming both otherwise."""
    if when > latest_deadline(now):
        raise InvalidInput(f"the deadline {format_utc(when)} is too far away: a deadline is at most a year ahead "
                           f"(until {format_utc(latest_deadline(now))})")
    return when


def open_turn(row: GameRow, now: datetime, phase: Phase | None) -> None:
    """The turn awaiting orders (of ``phase``) opens at ``now``: its deadline (:func:`next_deadline`), and the
    moment its reminder counts from."""
    row.deadline, row.opened_at = next_deadline(row, now, phase), now


def next_deadline(row: GameRow, now: datetime, phase: Phase | None) -> datetime | None:
    """The deadline of ``phase`` opening at ``now``: ``turn_hours`` later, or the phase's own
    ``deadline_hours`` when that is shorter (an answer window); None when ``turn_hours`` is 0 (no
    deadline for any phase) or there is no phase (the game is over)."""
    if row.turn_hours <= 0 or phase is None:
        return None
    hours = row.turn_hours if phase.deadline_hours is None else min(row.turn_hours, phase.deadline_hours)
    return now + timedelta(hours=hours)


def window_note(row: GameRow, phase: Phase | None) -> str | None:
    """One sentence on when an answer window closes and what silence means, for the reports, STATUS
    and check replies (which show its deadline themselves, in the reader's time zone); None when
    ``phase`` is no answer window (its silence is NMR)."""
    if phase is None or not phase.is_window:
        return None
    early = " or as soon as every seat asked has answered" if row.resolve_when == "early" else ""
    if row.deadline is not None:
        closes = f"it closes at its deadline{early}"
    elif early:
        closes = "it has no deadline: it closes as soon as every seat asked has answered, or when the GM resolves it"
    else:
        closes = "it has no deadline: it closes when every seat asked said READY, or when the GM resolves it"
    return f"This is an answer window: {closes}. A seat that sends nothing passes (no answer, passed)."


def due_reason(unit: Unit, info: GameInfo, now: datetime, *, wait: bool = True) -> str | None:
    """Why the game's turn resolves at ``now``: :data:`DEADLINE` (it passed), :data:`ALL_IN` (early
    resolution, every owing seat's orders in and, with ``wait``, the delay after the last of them
    passed; not when everyone waited in a game where that costs something: see
    :meth:`~pbem.core.Game.all_waited_warning`) or :data:`ALL_READY`; None when it is not due (or the
    game waits for nothing)."""
    row = info.row
    if info.phase is None:
        return None
    if row.deadline is not None and now >= row.deadline:
        return DEADLINE
    if row.resolve_when == "early":
        last = owing.all_in(unit, info)
        if last is not None and not (info.rules.all_waited_warning(info.state) is not None
                                     and owing.everyone_waits(unit, info)):
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
