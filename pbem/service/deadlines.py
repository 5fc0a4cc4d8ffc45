"""The turn clock: what happens to running games as time passes.

Each :meth:`TurnClock.tick` takes the games that are due (their ``wake_at``
passed: an index finds them, so a pass costs the due games, never all of
them) a bounded batch at a time and, in one unit of work per game that holds
the game's row lock: resolves it early when every owing seat has sent orders
(unless the GM asked for deadline-only resolution), resolves it at its
deadline with NMR defaults, pauses it after 3 deadlines in a row with every
seat NMR, reminds seats without orders before the deadline (never in an answer
window, where silence means PASS), tells the GM about a seat still silent a
grace period after a missed deadline, and mails the report digests whose
readers waited ``digest_hours`` (of a paused game too). Messages go through a
:class:`Notifier` inside the same unit. A game whose lock another daemon holds
is passed by (``SKIP LOCKED``): that daemon is doing its work.

The clock also takes the leagues' steps (:meth:`TurnClock.step_league`; see
:mod:`pbem.service.league_steps`): a round's pairing, the creation of its
games a few at a time, the standings mailed a few members at a time; one step
per unit of work, the league's row locked the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import update
from sqlmodel import select

from pbem.clock import format_utc
from pbem.core import GameError
from pbem.service import audit, control, digests, due, league_steps, owing, resolution
from pbem.service.api import GameService
from pbem.service.digests import DueReport
from pbem.service.resolution import ResolvedTurns
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store import is_transient_error
from pbem.store.tables import GameRow, GameStatus, LeagueRow, SeatRow, reminder_time
from pbem.zones import mark

_log = logging.getLogger(__name__)

NMR_PAUSE_STREAK = 3
CLOCK_BATCH = 50
"""Most due games one call of :meth:`TurnClock.due_games` hands out; the daemon works through them one
game at a time, so that mail is handled between two games even when thousands are due at once."""
RETRY_FAILED = timedelta(minutes=1)
"""How long a game whose clock work failed waits before the clock tries it again."""


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

    def __add__(self, other: TickResult) -> TickResult:
        return TickResult(self.resolutions + other.resolutions, self.reminders + other.reminders,
                          self.paused + other.paused, self.absences + other.absences, self.digests + other.digests)

    @property
    def did_something(self) -> bool:
        """True when the tick queued mail (a resolution, a reminder, a pause, an absence notice or a digest)."""
        return bool(self.resolutions or self.reminders or self.paused or self.absences or self.digests)


NOTHING = TickResult([], 0, [])


class TurnClock:
    """Drives deadlines, early resolution, reminders and absence reports for all games."""

    def __init__(self, service: GameService, notifier: Notifier) -> None:
        self.service = service
        self.notifier = notifier
        self.failing: dict[str, str] = {}
        """Games whose clock work failed, with the error: each is logged and its GM told once (by this
        process), it waits :data:`RETRY_FAILED` before it is tried again, and every other game goes on."""
        self.lag = 0.0
        """Seconds by which the longest-due game was late when :meth:`due_games` last looked (0: none due)."""
        self.failing_leagues: set[int] = set()
        """Leagues whose step failed (logged with its traceback once by this process; tried again later)."""

    def recover_outage(self, last_seen: datetime | None, now: datetime) -> list[str]:
        """After the service was down, extend every deadline that passed while it was
        down by the length of the outage, and tell the players. Returns the games extended.

        Each game is extended under its row lock and only while its deadline still lies in the
        outage, so daemons started together extend it once."""
        if last_seen is None or now <= last_seen:
            return []
        outage = now - last_seen
        with self.service.unit(lock=False) as unit:
            passed = unit.session.exec(
                select(GameRow.id, GameRow.deadline).where(GameRow.wake_at <= now)  # type: ignore[operator]
            ).all()
        extended: list[str] = []
        for game_id, deadline in passed:
            if deadline is None or not last_seen < deadline <= now:
                continue
            with self.service.unit() as unit:
                row = unit.claim(game_id, wait=True)
                if row is None or row.status != GameStatus.ACTIVE or row.deadline is None:
                    continue
                if not last_seen < row.deadline <= now:
                    continue  # extended meanwhile by another daemon
                row.deadline = min(row.deadline + outage, due.latest_deadline(now))
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
        game). Without ``games``, takes every due league step (:meth:`step_league`), then works through
        every due game, batch after batch (the daemon instead calls :meth:`step_league`,
        :meth:`due_games` and :meth:`work_on` itself, one step or game at a time)."""
        if games is not None:
            result = NOTHING
            for game_id in self._ids_of(games):
                result += self.work_on(game_id, now, due_only=False)
            return result
        while self.step_league(now):
            pass
        result = NOTHING
        seen: set[int] = set()
        while batch := [game_id for game_id in self.due_games(now) if game_id not in seen]:
            for game_id in batch:
                seen.add(game_id)
                result += self.work_on(game_id, now)
        return result

    def due_games(self, now: datetime, limit: int = CLOCK_BATCH) -> list[int]:
        """The ids of up to ``limit`` games the clock must look at by ``now``, the longest due first
        (one indexed query: the cost does not grow with the number of games). Sets :attr:`lag`."""
        with self.service.unit(lock=False) as unit:
            query = (select(GameRow.id, GameRow.wake_at).where(GameRow.wake_at <= now)  # type: ignore[operator]
                     .order_by(GameRow.wake_at, GameRow.id).limit(limit))  # type: ignore[arg-type]
            due = unit.session.exec(query).all()
        self.lag = (now - due[0].wake_at).total_seconds() if due else 0.0
        return [game_id for game_id, _wake_at in due if game_id is not None]

    def step_league(self, now: datetime) -> bool:
        """Take the step of the league that has waited longest by ``now`` (one unit of work holding the
        league's row lock; see :mod:`pbem.service.league_steps`); return True when a step was taken, False
        when none was due (or every due one is another daemon's now). A failing step is logged and the
        league tried again :data:`RETRY_FAILED` later; transient database errors are raised."""
        league_id, name = None, "?"
        try:
            with self.service.unit() as unit:
                league = league_steps.claim_due(unit, now)
                if league is None:
                    return False
                league_id, name = league.id, league.name
                done = league_steps.take_step(unit, league)
        except Exception as error:
            if is_transient_error(error) or league_id is None:
                raise
            self._set_league_aside(league_id, name, error, now)
            return True
        self.failing_leagues.discard(league_id)
        _log.info("league %s: %s", name, done or "no work waits")
        return True

    def _set_league_aside(self, league_id: int, name: str, error: Exception, now: datetime) -> None:
        """Log a league whose step failed (its traceback once) and have the clock try it again later."""
        with self.service.unit(lock=False) as unit:
            unit.session.execute(update(LeagueRow).where(LeagueRow.id == league_id)  # type: ignore[arg-type]
                                 .values(step_at=now + RETRY_FAILED))
        if league_id in self.failing_leagues:
            _log.debug("league %s: its step fails again: %r", name, error)
            return
        self.failing_leagues.add(league_id)
        _log.error("league %s: its step failed; tried again in %s", name, RETRY_FAILED, exc_info=error)

    def _ids_of(self, names: Collection[str]) -> list[int]:
        with self.service.unit(lock=False) as unit:
            keys = sorted({name.strip().lower() for name in names})
            query = select(GameRow.id).where(GameRow.name_key.in_(keys))  # type: ignore[attr-defined]
            return [game_id for game_id in unit.session.exec(query) if game_id is not None]

    def work_on(self, game_id: int, now: datetime, *, due_only: bool = True) -> TickResult:
        """Do what is due at ``now`` for one game, in one unit of work holding its row lock; nothing
        when another daemon holds the lock or (with ``due_only``) the game is no longer due.

        A failing game is set aside (see :attr:`failing`); transient database errors are raised (the
        work is tried again)."""
        name = str(game_id)
        try:
            with self.service.unit() as unit:
                row = unit.claim(game_id, due_by=now if due_only else None)
                if row is None:
                    return NOTHING
                name = row.name
                result = self._do_due_work(unit, row, now)
        except GameError as error:  # the game changed under a command-line call (SQLite has no row locks)
            _log.debug("game %s: %s", name, error)
            return NOTHING
        except Exception as error:
            if is_transient_error(error):
                raise  # the database, not the game: tried again
            self._isolate(game_id, name, error, now)
            return NOTHING
        self.failing.pop(name, None)
        return result

    def _do_due_work(self, unit: Unit, row: GameRow, now: datetime) -> TickResult:
        """Resolve, pause, remind, report absences and mail the digests due for one locked game (only the
        digests of a paused game); then note what it waits for."""
        if row.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
            return NOTHING
        result = NOTHING
        if row.status == GameStatus.ACTIVE:
            reason = due.due_reason(unit, unit.snapshot(row), now)
            if reason is not None:
                resolved = resolution.resolve(unit, row.name, reason=reason, expected_turn=row.turn)
                paused = [row.name] if self._maybe_pause(unit, row) else []
                result = TickResult([resolved], 0, paused)
            else:
                result = TickResult([], self._maybe_remind(unit, row, now), [], self._report_absent(unit, row, now))
        result += TickResult([], 0, [], digests=self._send_digests(unit, row, now))
        self._note_waits(unit, row, now)
        return result

    def _send_digests(self, unit: Unit, row: GameRow, now: datetime) -> int:
        """Mail the digests of one locked game whose readers' news waited ``digest_hours`` by ``now``;
        return how many (none without news waiting that long: most games, read from the row alone)."""
        if row.news_since is None or now < digests.news_due_at(row):
            return 0
        info = unit.snapshot(row)
        due_reports = digests.take_reports(unit, info)
        if due_reports:
            self.notifier.send_reports(unit, info, due_reports)
        return len(due_reports)

    def _note_waits(self, unit: Unit, row: GameRow, now: datetime) -> None:
        """Record what the game now waits for by time (its ``wake_at`` follows): the end of an early
        resolution's delay when every order is in, and the oldest absence not yet reported."""
        row.orders_at = None
        if row.status == GameStatus.ACTIVE and row.resolve_when == "early":
            info = unit.snapshot(row)
            last = owing.all_in(unit, info) if info.phase is not None else None
            if last is not None and now < last + timedelta(minutes=row.early_delay_minutes):
                row.orders_at = last
        absent = [seat.absent_since for seat in unit.seats(row)
                  if seat.absent_since is not None and not seat.absence_reported]
        row.absent_at = min(absent) if absent else None
        unit.add(row)
        unit.session.flush()
        if row.wake_at is not None and row.wake_at <= now:  # nothing more can come due by waiting: look later
            self._postpone(unit, row.id, now + RETRY_FAILED)

    @staticmethod
    def _postpone(unit: Unit, game_id: int | None, until: datetime) -> None:
        """Have the clock look at the game again at ``until`` (its next write sets the time anew)."""
        unit.session.execute(update(GameRow).where(GameRow.id == game_id).values(wake_at=until))  # type: ignore[arg-type]

    def _isolate(self, game_id: int, name: str, error: Exception, now: datetime) -> None:
        """Set a game whose clock work failed aside: log it, tell its GM the first time, try again later."""
        try:
            with self.service.unit(lock=False) as unit:
                self._postpone(unit, game_id, now + RETRY_FAILED)
        except Exception:  # noqa: BLE001  (the retry time is a nicety; the clock goes on)
            _log.debug("game %s: its retry time could not be stored", name, exc_info=True)
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

    def _maybe_pause(self, unit: Unit, row: GameRow) -> bool:
        if row.status != GameStatus.ACTIVE or row.nmr_streak < NMR_PAUSE_STREAK:
            return False
        control.pause(unit, row.name, reason=f"{row.nmr_streak} deadlines in a row with no orders from any seat")
        unit.session.flush()
        self.notifier.tell_gm(
            unit, unit.snapshot(row),
            f"Game {row.name} is paused: {row.nmr_streak} deadlines in a row passed with no orders from any seat. "
            "Send RESUME to go on, or END to stop it.",
        )
        return True

    def _maybe_remind(self, unit: Unit, row: GameRow, now: datetime) -> int:
        reminder = reminder_time(row)
        if reminder is None or row.reminded_turn >= row.turn or now < reminder:
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

    def _report_absent(self, unit: Unit, row: GameRow, now: datetime) -> int:
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
            f"Game {row.name}: seat(s) {names} sent no orders since a deadline more than "
            f"{row.grace_hours:g} hours ago. Consider REPLACE <seat> <address>.",
        )
        return len(absent)
