"""The turn clock: what happens to running games as time passes.

Each :meth:`TurnClock.tick` looks at every active game and, in one
transaction per game and action: resolves it early when every owing seat has
sent orders (unless the GM asked for deadline-only resolution), resolves it
at its deadline with NMR defaults, pauses it after 3 deadlines in a row with
every seat NMR, reminds seats without orders before the deadline, and tells
the GM about a seat still silent a grace period after a missed deadline.
Messages go through a :class:`Notifier` inside the same transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import func
from sqlmodel import Session, select

from pbem.clock import format_utc
from pbem.core import GameError
from pbem.store import is_transient_error
from pbem.store.tables import GameRow, SeatRow, SubmissionRow
from pbem.turns import GameInfo, Resolution, TurnRunner

_log = logging.getLogger(__name__)

NMR_PAUSE_STREAK = 3


class Notifier(Protocol):
    """Where the clock's messages go (the mail layer queues them in the same transaction)."""

    def remind(self, session: Session, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """Remind ``seats`` that their orders for the current turn are missing."""
        ...

    def tell_gm(self, session: Session, info: GameInfo, text: str) -> None:
        """Send the game's GM a notice."""
        ...

    def tell_players(self, session: Session, info: GameInfo, text: str) -> None:
        """Send every seat of the game a notice."""
        ...


@dataclass(frozen=True)
class TickResult:
    """What one tick did."""

    resolutions: list[Resolution]
    reminders: int
    paused: list[str]
    absences: int = 0  # seats reported to their GM as absent


class TurnClock:
    """Drives deadlines, early resolution, reminders and absence reports for all games."""

    def __init__(self, runner: TurnRunner, notifier: Notifier) -> None:
        self.runner = runner
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
        with self.runner.db.session() as session:
            for row in session.exec(select(GameRow).where(GameRow.status == "active")):
                if row.deadline is None or not last_seen < row.deadline <= now:
                    continue
                row.deadline = row.deadline + outage
                session.add(row)
                session.flush()
                info = self.runner.snapshot(session, row)
                minutes = round(outage.total_seconds() / 60)
                self.notifier.tell_players(
                    session, info,
                    f"The game master was out of service for about {minutes} minute(s) and the deadline "
                    f"passed meanwhile. The deadline is extended by the outage to {format_utc(row.deadline)}.",
                )
                extended.append(row.name)
        return extended

    def tick(self, now: datetime, *, games: Collection[str] | None = None) -> TickResult:
        """Do everything that is due at ``now``; only for the active games among ``games`` when given
        (the daemon passes the games that just got orders, so one mail does not cost a look at every
        game; such a tick looks for what orders can make due, and absences wait for the next full tick)."""
        resolutions: list[Resolution] = []
        reminders = 0
        paused: list[str] = []
        absences = 0
        for name in self._due_games(now, games):
            try:
                try:
                    resolution = self._maybe_resolve(name, now)
                except GameError:
                    continue  # resolved or paused meanwhile by someone else
                if resolution is not None:
                    resolutions.append(resolution)
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
        return TickResult(resolutions, reminders, paused, absences)

    def _isolate(self, name: str, error: Exception) -> None:
        """Set a game whose clock work failed aside: log it and tell its GM the first time."""
        if name in self.failing:
            _log.debug("game %s: clock work fails again: %r", name, error)
            return
        self.failing[name] = repr(error)
        _log.error("game %s: clock work failed; the game is skipped until it works again", name, exc_info=error)
        try:
            with self.runner.db.session() as session:
                row = self.runner.load_game(session, name)
                if row.gm_address:
                    self.notifier.tell_gm(
                        session, self.runner.snapshot(session, row),
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
        due: set[str] = set()
        with self.runner.db.session() as session:
            query = select(GameRow.id, GameRow.name, GameRow.turn, GameRow.deadline, GameRow.reminder_hours,
                           GameRow.reminded_turn, GameRow.resolve_when, GameRow.early_delay_minutes
                           ).where(GameRow.status == "active")
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
                        due.add(name)
                    elif when == "early":
                        early[game_id] = (turn, delay)
                except (OverflowError, ValueError) as error:  # a value stored before options were checked
                    self._isolate(name, error)
            if early:
                received: dict[int, dict[str, datetime]] = {}
                for game_id, seat, last in session.exec(
                    select(SubmissionRow.game_id, SubmissionRow.seat, func.max(SubmissionRow.received_at))
                    .join(GameRow, GameRow.id == SubmissionRow.game_id)
                    .where(SubmissionRow.turn == GameRow.turn, GameRow.status == "active",
                           SubmissionRow.game_id.in_(list(early)))  # type: ignore[attr-defined]
                    .group_by(SubmissionRow.game_id, SubmissionRow.seat)
                ):
                    received.setdefault(game_id, {})[seat] = last
                for game_id, seats in received.items():
                    turn, delay = early[game_id]
                    try:
                        owing = self._owing(session, game_id, turn)
                        if owing and owing <= seats.keys():
                            if now >= max(seats[seat] for seat in owing) + timedelta(minutes=delay):
                                due.add(names[game_id])
                    except Exception as error:
                        if is_transient_error(error):
                            raise
                        self._isolate(names[game_id], error)
            if games is not None:  # READY from every owing seat makes a deadline-only game due at once
                for game_id, name, *_rest in active:
                    if name not in due and game_id not in early:
                        row = session.get(GameRow, game_id)
                        phase = self.runner.snapshot(session, row).phase if row is not None else None
                        if row is not None and phase is not None and self.runner.all_ready(session, row, phase):
                            due.add(name)
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
                            due.add(names[game_id])
                    except (OverflowError, ValueError) as error:
                        self._isolate(names[game_id], error)
        return sorted(due)

    def _owing(self, session: Session, game_id: int, turn: int) -> frozenset[str]:
        """The seats that owe orders for ``turn`` of a game, remembered per game until its turn
        changes: a game's state, and so its phase, changes only when a turn is resolved."""
        known = self._phase_seats.get(game_id)
        if known is not None and known[0] == turn:
            return known[1]
        row = session.get(GameRow, game_id)
        assert row is not None
        phase = self.runner.snapshot(session, row).phase
        seats = frozenset(phase.seats) if phase is not None and row.turn == turn else frozenset()
        self._phase_seats[game_id] = (row.turn, seats)
        return seats

    def _maybe_resolve(self, name: str, now: datetime) -> Resolution | None:
        with self.runner.db.session() as session:
            row = self.runner.load_game(session, name)
            info = self.runner.snapshot(session, row)
            if info.phase is None:
                return None
            turn = row.turn
            if row.deadline is not None and now >= row.deadline:
                reason = "deadline"
            elif row.resolve_when == "early" and self._all_in_since(session, row, info) is not None:
                last = self._all_in_since(session, row, info)
                assert last is not None
                if now < last + timedelta(minutes=row.early_delay_minutes):
                    return None
                reason = "all-in"
            elif self.runner.all_ready(session, row, info.phase):
                reason = "all-ready"
            else:
                return None
        return self.runner.resolve(name, reason=reason, expected_turn=turn)

    @staticmethod
    def _all_in_since(session: Session, row: GameRow, info: GameInfo) -> datetime | None:
        assert info.phase is not None
        latest: datetime | None = None
        for seat in info.phase.seats:
            received = session.exec(
                select(func.max(SubmissionRow.received_at)).where(
                    SubmissionRow.game_id == row.id, SubmissionRow.seat == seat, SubmissionRow.turn == row.turn
                )
            ).one()
            if received is None:
                return None
            latest = received if latest is None or received > latest else latest
        return latest

    def _maybe_pause(self, name: str) -> bool:
        with self.runner.db.session() as session:
            row = self.runner.load_game(session, name)
            if row.status != "active" or row.nmr_streak < NMR_PAUSE_STREAK:
                return False
            row.status, row.paused_at = "paused", self.runner.clock()
            session.add(row)
            session.flush()
            self.notifier.tell_gm(
                session, self.runner.snapshot(session, row),
                f"Game {name} is paused: {row.nmr_streak} deadlines in a row passed with no orders from any seat. "
                "Send RESUME to go on, or END to stop it.",
            )
            return True

    def _maybe_remind(self, name: str, now: datetime) -> int:
        with self.runner.db.session() as session:
            row = self.runner.load_game(session, name)
            if row.deadline is None or row.reminded_turn >= row.turn:
                return 0
            if now < row.deadline - timedelta(hours=row.reminder_hours):
                return 0
            info = self.runner.snapshot(session, row)
            if info.phase is None:
                return 0
            missing = [
                seat for seat in info.seats
                if seat.name in info.phase.seats and seat.address
                and self.runner.current_submission(session, row, seat.name) is None
            ]
            row.reminded_turn = row.turn
            session.add(row)
            if missing:
                self.notifier.remind(session, info, missing)
            return len(missing)

    def _report_absent(self, name: str, now: datetime) -> int:
        with self.runner.db.session() as session:
            row = self.runner.load_game(session, name)
            grace = timedelta(hours=row.grace_hours)
            absent = [
                seat for seat in self.runner.load_seats(session, row)
                if seat.absent_since is not None and not seat.absence_reported and now >= seat.absent_since + grace
            ]
            if not absent:
                return 0
            for seat in absent:
                seat.absence_reported = True
                session.add(seat)
            session.flush()
            names = ", ".join(f"{s.name} ({s.address})" for s in absent)
            self.notifier.tell_gm(
                session, self.runner.snapshot(session, row),
                f"Game {name}: seat(s) {names} sent no orders since a deadline more than "
                f"{row.grace_hours:g} hours ago. Consider REPLACE <seat> <address>.",
            )
            return len(absent)
