"""The turn clock: what happens to running games as time passes.

Each :meth:`TurnClock.tick` looks at every active game and, in one unit of
work per game and action: resolves it early when every owing seat has sent
orders (unless the GM asked for deadline-only resolution), resolves it at its
deadline with NMR defaults, pauses it after 3 deadlines in a row with every
seat NMR, reminds seats without orders before the deadline (never in an answer
window, where silence means PASS), tells the GM about a seat still silent a
grace period after a missed deadline, and mails the report digests whose
readers waited ``digest_hours``. Messages go through a :class:`Notifier`
inside the same unit.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlmodel import select

from pbem.clock import format_utc
from pbem.core import GameError
from pbem.service import audit, control, digests, due, owing, queries, resolution
from pbem.service.api import GameService
from pbem.service.digests import DueReport
from pbem.service.resolution import ResolvedTurns
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store import is_transient_error
from pbem.store.tables import GameRow, GameStatus, SeatRow
from pbem.zones import mark

_log = logging.getLogger(__name__)

NMR_PAUSE_STREAK = 3


class Notifier(Protocol):
    """Where the clock's messages go (the mail side queues them in the same unit of work). A text
    may hold :func:`pbem.zones.mark` of a moment: each reader reads it in their own time zone."""

    def remind(self, unit: Unit, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """Remind ``seats`` that their orders for the current turn are missing."""
        ...

    def tell_gm(self, unit: Unit, info: GameInfo, text: str) -> None:
        """Send the game's GM a notice."""
        ...

    def tell_players(self, unit: Unit, info: GameInfo, text: str, *, calendar: bool = False) -> None:
        """Send every seat of the game a notice; with ``calendar`` (the deadline moved) the seats owing
        orders get the calendar update of their deadline."""
        ...

    def send_reports(self, unit: Unit, info: GameInfo, reports: Sequence[DueReport]) -> None:
        """Send reports that became due (digests whose readers waited ``digest_hours``)."""
        ...


@dataclass(frozen=True)
class TickResult:
    """What one tick did."""

    resolutions: list[ResolvedTurns]
    reminders: int
    paused: list[str]
    absences: int = 0  # seats reported to their GM as absent
    digests: int = 0  # reports sent because their readers' news waited digest_hours


class TurnClock:
    """Drives deadlines, early resolution, reminders and absence reports for all games."""

    def __init__(self, service: GameService, notifier: Notifier) -> None:
        self.service = service
        self.notifier = notifier
        self._phase_seats: dict[int, tuple[int, frozenset[str]]] = {}  # game id -> (turn, seats owing orders)
        self.failing: dict[str, str] = {}
        """Games whose clock work failed, with the error: each is logged and its GM told once, it is
        skipped by that tick, and every other game goes on."""

    def recover_outage(self, last_seen: datetime | None, now: datetime) -> list[str]:
        """After the service was down, extend every deadline that passed while it was
        down by the length of the outage, and tell the players. Returns the games extended."""
        if last_seen is None or now <= last_seen:
            return []
        outage = now - last_seen
        extended: list[str] = []
        with self.service.unit() as unit:
            for row in queries.games_with_status(unit.session, GameStatus.ACTIVE):
                if row.deadline is None or not last_seen < row.deadline <= now:
                    continue
                row.deadline = row.deadline + outage
                unit.add(row)
                minutes = round(outage.total_seconds() / 60)
                audit.record(unit, row, "EXTEND", f"deadline of turn {row.turn} extended by the service's outage "
                             f"of about {minutes} minute(s) to {format_utc(row.deadline)}")
                unit.session.flush()
                self.notifier.tell_players(
                    unit, unit.snapshot(row),
                    f"The game master was out of service for about {minutes} minute(s) and the deadline "
                    f"passed meanwhile. The deadline is extended by the outage to {mark(row.deadline)}.",
                    calendar=True,
                )
                extended.append(row.name)
        return extended

    def tick(self, now: datetime, *, games: Collection[str] | None = None) -> TickResult:
        """Do everything that is due at ``now``; only for the active games among ``games`` when given
        (the daemon passes the games that just got orders, so one mail does not cost a look at every
        game; such a tick looks for what orders can make due, and absences wait for the next full tick)."""
        resolutions: list[ResolvedTurns] = []
        reminders = 0
        paused: list[str] = []
        absences = 0
        for name in self._due_games(now, games):
            try:
                try:
                    resolved = self._maybe_resolve(name, now)
                except GameError:
                    continue  # resolved or paused meanwhile by someone else
                if resolved is not None:
                    resolutions.append(resolved)
                    if self._maybe_pause(name):
                        paused.append(name)
                    continue
                reminders += self._maybe_remind(name, now)
                absences += self._report_absent(name, now)
            except Exception as error:
                if is_transient_error(error):
                    raise  # the database, not the game: the whole tick is tried again
                self._isolate(name, error)
                continue
            self.failing.pop(name, None)
        sent = 0 if games is not None else self._send_digests(now)
        return TickResult(resolutions, reminders, paused, absences, sent)

    def _send_digests(self, now: datetime) -> int:
        """Mail the digests whose readers' news waited ``digest_hours``; return how many."""
        with self.service.unit() as unit:
            names = digests.games_with_digests_due(unit.session, now)
        sent = 0
        for name in names:
            try:
                with self.service.unit() as unit:
                    info = unit.info(name)
                    due_reports = digests.take_reports(unit, info)
                    if due_reports:
                        self.notifier.send_reports(unit, info, due_reports)
                    sent += len(due_reports)
            except Exception as error:
                if is_transient_error(error):
                    raise
                self._isolate(name, error)
        return sent

    def _isolate(self, name: str, error: Exception) -> None:
        """Set a game whose clock work failed aside: log it and tell its GM the first time."""
        if name in self.failing:
            _log.debug("game %s: clock work fails again: %r", name, error)
            return
        self.failing[name] = repr(error)
        _log.error("game %s: clock work failed; the game is skipped until it works again", name, exc_info=error)
        try:
            with self.service.unit() as unit:
                row = unit.game(name)
                if row.gm_address:
                    self.notifier.tell_gm(
                        unit, unit.snapshot(row),
                        f"Game {name}: its deadlines cannot be computed ({error}); no deadline, reminder or "
                        "early resolution happens for it until this is fixed. Check its options (SET) or "
                        "resolve the turn with PROCESS.")
        except Exception:  # telling must not stop the clock either
            _log.exception("game %s: the GM could not be told", name)

    def _due_games(self, now: datetime, games: Collection[str] | None = None) -> list[str]:
        """Return the active games (among ``games`` when given) that have something due at
        ``now``, from light queries only: a passed deadline or reminder time, every owing seat's
        orders in for an early-resolving game (and its delay passed), or (without ``games``) a
        seat absent past its grace and not yet reported. Other games are not loaded at all."""
        due_names: set[str] = set()
        with self.service.unit() as unit:
            session = unit.session
            query = select(GameRow.id, GameRow.name, GameRow.turn, GameRow.deadline, GameRow.reminder_hours,
                           GameRow.reminded_turn, GameRow.resolve_when, GameRow.early_delay_minutes
                           ).where(GameRow.status == GameStatus.ACTIVE)
            if games is not None:
                query = query.where(GameRow.name.in_(list(games)))  # type: ignore[attr-defined]
            active = session.exec(query).all()
            if not active:
                return []
            names = {game_id: name for game_id, name, *_rest in active}
            early: dict[int, tuple[int, float]] = {}
            for game_id, name, turn, deadline, reminder_hours, reminded_turn, when, delay in active:
                try:
                    if deadline is not None and (
                        now >= deadline or (reminded_turn < turn and now >= deadline - timedelta(hours=reminder_hours))
                    ):
                        due_names.add(name)
                    elif when == "early":
                        early[game_id] = (turn, delay)
                except (OverflowError, ValueError) as error:  # a value stored before options were checked
                    self._isolate(name, error)
            if early:
                for game_id, received in queries.received_this_turn(session, early).items():
                    turn, delay = early[game_id]
                    try:
                        last = owing.all_in_since(self._owing(unit, game_id, turn), received)
                        if last is not None and now >= last + timedelta(minutes=delay):
                            due_names.add(names[game_id])
                    except Exception as error:
                        if is_transient_error(error):
                            raise
                        self._isolate(names[game_id], error)
            if games is not None:  # READY from every owing seat makes a deadline-only game due at once
                for game_id, name, *_rest in active:
                    if name not in due_names and game_id not in early:
                        row = session.get(GameRow, game_id)
                        if row is not None and owing.all_ready(unit, unit.snapshot(row)):
                            due_names.add(name)
            if games is None:  # new orders cannot make an absence due: those wait for the full tick
                absent = session.exec(
                    select(SeatRow.game_id, SeatRow.absent_since, GameRow.grace_hours)
                    .join(GameRow, GameRow.id == SeatRow.game_id)
                    .where(SeatRow.absent_since.is_not(None),  # type: ignore[union-attr]
                           SeatRow.absence_reported == False)  # noqa: E712
                )
                for game_id, since, grace in absent:
                    try:
                        if game_id in names and now >= since + timedelta(hours=grace):
                            due_names.add(names[game_id])
                    except (OverflowError, ValueError) as error:
                        self._isolate(names[game_id], error)
        return sorted(due_names)

    def _owing(self, unit: Unit, game_id: int, turn: int) -> frozenset[str]:
        """The seats that owe orders for ``turn`` of a game, remembered per game until its turn
        changes: a game's state, and so its phase, changes only when a turn is resolved."""
        known = self._phase_seats.get(game_id)
        if known is not None and known[0] == turn:
            return known[1]
        row = unit.session.get(GameRow, game_id)
        assert row is not None
        seats = frozenset(owing.owing_seats(unit.snapshot(row))) if row.turn == turn else frozenset()
        self._phase_seats[game_id] = (row.turn, seats)
        return seats

    def _maybe_resolve(self, name: str, now: datetime) -> ResolvedTurns | None:
        with self.service.unit() as unit:
            info = unit.info(name)
            reason = due.due_reason(unit, info, now)
            turn = info.row.turn
        if reason is None:
            return None
        with self.service.unit() as unit:
            return resolution.resolve(unit, name, reason=reason, expected_turn=turn)

    def _maybe_pause(self, name: str) -> bool:
        with self.service.unit() as unit:
            row = unit.game(name)
            if row.status != GameStatus.ACTIVE or row.nmr_streak < NMR_PAUSE_STREAK:
                return False
            control.pause(unit, name, reason=f"{row.nmr_streak} deadlines in a row with no orders from any seat")
            unit.session.flush()
            self.notifier.tell_gm(
                unit, unit.snapshot(row),
                f"Game {name} is paused: {row.nmr_streak} deadlines in a row passed with no orders from any seat. "
                "Send RESUME to go on, or END to stop it.",
            )
            return True

    def _maybe_remind(self, name: str, now: datetime) -> int:
        with self.service.unit() as unit:
            row = unit.game(name)
            if row.deadline is None or row.reminded_turn >= row.turn:
                return 0
            if now < row.deadline - timedelta(hours=row.reminder_hours):
                return 0
            info = unit.snapshot(row)
            if info.phase is None:
                return 0
            row.reminded_turn = row.turn
            unit.add(row)
            if info.phase.is_window:  # silence is a choice there (PASS): nobody is reminded of a window
                return 0
            missing = set(owing.missing_seats(unit, info))
            silent = [seat for seat in info.seats if seat.name in missing and seat.address]
            if silent:
                self.notifier.remind(unit, info, silent)
            return len(silent)

    def _report_absent(self, name: str, now: datetime) -> int:
        with self.service.unit() as unit:
            row = unit.game(name)
            grace = timedelta(hours=row.grace_hours)
            absent = [
                seat for seat in unit.seats(row)
                if seat.absent_since is not None and not seat.absence_reported and now >= seat.absent_since + grace
            ]
            if not absent:
                return 0
            for seat in absent:
                seat.absence_reported = True
                unit.add(seat)
            names = ", ".join(f"{s.name} ({s.address})" for s in absent)
            audit.record(unit, row, "SILENT", f"GM told that seat(s) {names} sent no orders for "
                         f"{row.grace_hours:g} hours after a deadline")
            unit.session.flush()
            self.notifier.tell_gm(
                unit, unit.snapshot(row),
                f"Game {name}: seat(s) {names} sent no orders since a deadline more than "
                f"{row.grace_hours:g} hours ago. Consider REPLACE <seat> <address>.",
            )
            return len(absent)
