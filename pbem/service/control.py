"""What a GM does to a running game: how the service runs it (SET), its deadline, pausing
and resuming the clock, and ending it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from pbem.clock import format_duration, format_utc
from pbem.core import GameError, InvalidInput
from pbem.numbering import game_standing
from pbem.service import audit, due, leagues, record
from pbem.service.options import parse_service_options
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus

_CLOCKED = (GameStatus.ACTIVE, GameStatus.PAUSED)  # the games that have a deadline


def set_options(unit: Unit, name: str, options: Mapping[str, str]) -> None:
    """Change how the service runs a game (``SET``): turn_hours, resolve, delay_minutes, ...

    Raises :class:`~pbem.service.options.BadOption` naming an unknown option or a
    value out of its range, and GameError for a finished game.
    """
    fields = parse_service_options(options)
    row = unit.game(name)
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {name} is finished")
    for column, value in fields.items():
        setattr(row, column, value)
    unit.add(row)
    audit.record(unit, row, "SET", ", ".join(f"{k}={v}" for k, v in options.items()))


def set_deadline(unit: Unit, name: str, when: datetime) -> datetime:
    """Set the deadline of the turn awaiting orders. Raises InvalidInput when it is past or more than a
    year ahead (:data:`~pbem.service.due.FURTHEST_AHEAD`) and GameError when the game has no clock (forming or over)."""
    row = _clocked(unit, name)
    if when <= unit.now():
        raise InvalidInput(f"the deadline {format_utc(when)} is in the past")
    row.deadline = due.check_deadline(when, unit.now())
    row.reminded_turn = 0
    unit.add(row)
    audit.record(unit, row, "DEADLINE", f"deadline of turn {row.turn} set to {format_utc(when)}")
    return when


def extend(unit: Unit, name: str, by: timedelta, *, reason: str = "") -> datetime:
    """Move the deadline later by ``by`` (from now when there is none); return the new one.
    ``reason`` goes into the audit log. Raises InvalidInput for an extension that is not positive or
    that would take the deadline more than a year ahead, GameError for a game without a clock."""
    row = _clocked(unit, name)
    if by <= timedelta(0):
        raise InvalidInput(f"an extension must be positive, not {by}")
    base = max(row.deadline or unit.now(), unit.now())
    try:
        moved = base + by
    except OverflowError:  # a deadline stored before deadlines were checked
        moved = datetime.max.replace(tzinfo=UTC)
    row.deadline = due.check_deadline(moved, unit.now())
    row.reminded_turn = 0
    unit.add(row)
    audit.record(unit, row, "EXTEND", f"deadline of turn {row.turn} extended by {format_duration(by)} to {format_utc(row.deadline)}"
                 + (f": {reason}" if reason else ""))
    return row.deadline


def pause(unit: Unit, name: str, *, reason: str = "") -> None:
    """Stop the clock: no deadline passes and nothing resolves until :func:`resume`. ``reason`` goes
    into the audit log."""
    row = unit.game(name)
    if row.status != GameStatus.ACTIVE:
        raise GameError(f"game {name} is {row.status}, not active")
    row.status = GameStatus.PAUSED
    row.paused_at = unit.now()
    unit.add(row)
    audit.record(unit, row, "PAUSE", f"game paused at turn {row.turn}" + (f": {reason}" if reason else ""))


def resume(unit: Unit, name: str) -> datetime | None:
    """Restart the clock; the deadline moves by the time spent paused (and is at least an hour
    away, at most a year). Returns the deadline."""
    row = unit.game(name)
    if row.status != GameStatus.PAUSED:
        raise GameError(f"game {name} is {row.status}, not paused")
    now = unit.now()
    if row.deadline is not None and row.paused_at is not None:
        moved = max(row.deadline + (now - row.paused_at), now + timedelta(hours=1))
        row.deadline = min(moved, due.latest_deadline(now))
        if row.opened_at is not None:  # the clock stood still: the turn's reminder counts as from a later opening
            row.opened_at = min(row.opened_at + (now - row.paused_at), now)
    row.status, row.paused_at, row.nmr_streak = GameStatus.ACTIVE, None, 0
    unit.add(row)
    deadline = f"; deadline {format_utc(row.deadline)}" if row.deadline else ""
    audit.record(unit, row, "RESUME", f"game resumed at turn {row.turn}{deadline}")
    return row.deadline


def end(unit: Unit, name: str) -> None:
    """End a game now; the game's own ranking of the position decides who wins
    (:meth:`~pbem.core.Game.standing_outcome`). Raises GameError for a game that
    has not started or is over."""
    row = unit.game(name)
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {name} is finished already")
    if row.status == GameStatus.FORMING:
        raise GameError(f"game {name} has not started")
    row.status, row.ended_by_gm, row.deadline = GameStatus.FINISHED, True, None
    unit.add(row)
    outcome = unit.snapshot(row).outcome
    audit.record(unit, row, "END", f"game {game_standing(row)}; " + (outcome.headline if outcome else "ended"))
    record.append_end(unit, row, "gm", outcome)
    leagues.game_over(unit, row)


def _clocked(unit: Unit, name: str) -> GameRow:
    """The row of a game that has a clock (running or paused); GameError for any other."""
    row = unit.game(name)
    if row.status not in _CLOCKED:
        raise GameError(f"game {name} is {row.status}; it has no deadline")
    return row
