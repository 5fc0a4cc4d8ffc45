"""The service's front door: :class:`GameService`, one call per player or GM action.

Each method runs one action in a unit of work of its own, committed when it
returns (rolled back when it raises). Callers that must do several actions in
one transaction (the mail side does everything one mail asks in one) open a
unit with :meth:`GameService.unit` and call the operation modules with it;
these methods are the same operations, one unit each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from pbem.clock import utcnow
from pbem.core.rng import CURRENT_VERSION
from pbem.reports import ReportInput
from pbem.service import (
    access,
    audit,
    consent,
    control,
    creation,
    owing,
    players,
    press,
    queries,
    record_file,
    replay,
    reporting,
    resolution,
    seats,
    seeds,
    status,
    submissions,
)
from pbem.service.checking import CheckResult
from pbem.service.replay import ReplayResult
from pbem.service.resolution import ResolvedTurns
from pbem.service.row_cache import RowCache
from pbem.service.seats import Joined
from pbem.service.snapshot import GameInfo, PositionCache
from pbem.service.status import StatusView
from pbem.service.unit import NewsListener, ResolvedListener, Unit
from pbem.store import Database
from pbem.store.tables import GameRow, SeatRow, SubmissionRow, TurnRecordRow


class GameService:
    """Every action on the games of one database, for the command line, the mail side and the web."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utcnow, actor: str = "service") -> None:
        self.db = db
        self.clock = clock
        self.actor = actor
        """Who acts through this service, for the audit log (``command line`` for ``pbem``)."""
        self.on_resolved: list[ResolvedListener] = []
        """Called in the unit of every resolution, before it commits (the mail side queues the reports)."""
        self.on_news: list[NewsListener] = []
        """Called with a unit's news at its end, before it commits (the mail side tells the people concerned)."""
        self.positions = PositionCache()
        """The games' states read through their rules, kept between this service's units."""
        self.rows = RowCache()
        """The games' rows, kept between this service's units by version."""

    @contextmanager
    def unit(self, *, lock: bool = True) -> Iterator[Unit]:
        """Yield a new unit of work, committed when the block ends normally and rolled back on error.
        With ``lock`` (the default, for anything that may change a game) the games it loads stay
        locked until it ends; a unit that only reads passes ``lock=False``."""
        with self.db.session() as session:
            unit = Unit(session, clock=self.clock, on_resolved=self.on_resolved, actor=self.actor, lock=lock,
                        positions=self.positions, rows=self.rows)
            yield unit
            while unit.news:  # telling may bring news of its own; each is told once
                news, unit.news = unit.news, []
                for listener in self.on_news:
                    listener(unit, news)
            kept = unit.read_at_versions()
        self.rows.keep(kept)  # committed: its rows stood at those versions
        self.rows.keep_kinds(unit.kinds)

    # --- games ---------------------------------------------------------------------

    def create_game(self, kind: str, name: str, *, seats: Mapping[str, str | None] | None = None,
                    players: int | None = None, options: Mapping[str, str] | None = None, seed: int | None = None,
                    rng_version: int = CURRENT_VERSION, gm_address: str | None = None,
                    gm_password_hash: str | None = None) -> GameInfo:
        """Create a game (started at once when every seat is given); see :func:`creation.create_game`."""
        with self.unit() as unit:
            return creation.create_game(unit, kind, name, seats=seats, players=players, options=options, seed=seed,
                                        rng_version=rng_version, gm_address=gm_address,
                                        gm_password_hash=gm_password_hash)

    def start(self, name: str) -> GameInfo:
        """Start a forming game; see :func:`creation.start`."""
        with self.unit() as unit:
            return creation.start(unit, name)

    def info(self, name: str) -> GameInfo:
        """Return the current snapshot of a game. Raises UnknownGame."""
        with self.unit(lock=False) as unit:
            return unit.info(name)

    def games(self) -> list[GameRow]:
        """Return every game, oldest first."""
        with self.unit(lock=False) as unit:
            return queries.all_games(unit.session)

    def snapshots(self) -> list[GameInfo]:
        """Return the snapshot of every game, oldest first."""
        with self.unit(lock=False) as unit:
            return [unit.snapshot(row) for row in queries.all_games(unit.session)]

    def history(self, name: str) -> list[TurnRecordRow]:
        """Return every resolved turn of a game in order."""
        with self.unit(lock=False) as unit:
            return queries.history(unit.session, unit.game(name))

    # --- orders --------------------------------------------------------------------

    def submit(self, name: str, seat: str, text: str, *, turn: int | None = None, store: bool = True,
               source: str = "cli") -> CheckResult:
        """Check a seat's orders and store the accepted ones; see :func:`submissions.submit`."""
        with self.unit() as unit:
            return submissions.submit(unit, name, seat, text, turn=turn, store=store, source=source)

    def withdraw(self, name: str, seat: str, *, ready: bool = False, source: str = "cli") -> int:
        """NOORDERS, or with ``ready`` READY; see :func:`submissions.withdraw`."""
        with self.unit() as unit:
            return submissions.withdraw(unit, name, seat, ready=ready, source=source)

    def current_orders(self, name: str, seat: str) -> SubmissionRow | None:
        """Return the seat's newest stored submission for the turn awaiting orders."""
        with self.unit(lock=False) as unit:
            return submissions.current_orders(unit, name, seat)

    def missing_seats(self, name: str) -> list[str]:
        """Return the seats that owe orders now and have stored none."""
        with self.unit(lock=False) as unit:
            return owing.missing_seats(unit, unit.info(name))

    def resolve(self, name: str, *, reason: str = "gm", expected_turn: int | None = None) -> ResolvedTurns:
        """Resolve the turn awaiting orders now; see :func:`resolution.resolve`."""
        with self.unit() as unit:
            return resolution.resolve(unit, name, reason=reason, expected_turn=expected_turn)

    def check_press(self, name: str, *, from_gm: bool = False) -> None:
        """Return when press may go now; see :func:`press.check_press`."""
        with self.unit(lock=False) as unit:
            press.check_press(unit, name, from_gm=from_gm)

    # --- reading -------------------------------------------------------------------

    def last_report(self, name: str) -> ReportInput:
        """Return the report input of the newest report of a game."""
        with self.unit(lock=False) as unit:
            return reporting.last_report(unit, name)

    def report_text(self, name: str, seat: str | None, turn: int | None = None) -> str:
        """Render the newest report (with ``turn``, the one that told that turn) for ``seat`` (``None`` = the
        public report); see :func:`reporting.report_text`."""
        with self.unit(lock=False) as unit:
            return reporting.report_text(unit, name, seat, turn)

    def state_json(self, name: str, seat: str | None = None) -> dict[str, Any]:
        """Return the game as JSON (``pbem show --json``); see :func:`status.state_json`."""
        with self.unit(lock=False) as unit:
            return status.state_json(unit, name, seat)

    def status(self, name: str, seat: str | None = None) -> StatusView:
        """Return what STATUS says about a game (asked by ``seat``: see :func:`status.status_view`)."""
        with self.unit(lock=False) as unit:
            return status.status_view(unit, name, seat)

    def replay(self, name: str) -> ReplayResult:
        """Replay a game from its seed; see :func:`replay.replay`."""
        with self.unit(lock=False) as unit:
            return replay.replay(unit, name)

    def verify(self, name: str, *, operator: bool = False) -> ReplayResult:
        """Recompute every draw of a revealed game and check its record; see :func:`replay.verify`."""
        with self.unit(lock=False) as unit:
            return replay.verify(unit, name, operator=operator)

    def game_record(self, name: str) -> dict[str, Any]:
        """The whole record of a game as a JSON-ready dict; see :func:`record_file.export`."""
        with self.unit(lock=False) as unit:
            return record_file.export(unit, name)

    def import_record(self, data: Mapping[str, Any]) -> GameRow:
        """Bring a game to this server from its record file; see :func:`record_file.import_file`."""
        with self.unit() as unit:
            return record_file.import_file(unit, data)

    def players(self) -> list[players.PlayerSummary]:
        """Every registered player with its record; see :func:`players.registered_players`."""
        with self.unit(lock=False) as unit:
            return players.registered_players(unit.session)

    def player(self, name: str) -> players.PlayerProfile:
        """A registered player in full; see :func:`players.profile_of`. Raises UnknownPlayer."""
        with self.unit(lock=False) as unit:
            return players.profile_of(unit.session, name)

    def log(self, name: str) -> list[audit.AuditEntry]:
        """Return the audit log of a game, oldest first; see :func:`audit.entries`."""
        with self.unit(lock=False) as unit:
            return audit.entries(unit, name)

    def upgrade_check(self) -> list[ReplayResult]:
        """Replay every game; return those this code would resolve differently."""
        with self.unit(lock=False) as unit:
            return replay.upgrade_check(unit)

    # --- the seed ------------------------------------------------------------------

    def commitment(self, name: str) -> str | None:
        """Return the published SHA-256 commitment of a game's secret (None for legacy games)."""
        with self.unit(lock=False) as unit:
            return seeds.commitment_of(unit.game(name))

    def add_salt(self, name: str, seat: str, text: str) -> list[str]:
        """Add a seat's salt to a forming game; see :func:`seeds.add_salt`."""
        with self.unit() as unit:
            return seeds.add_salt(unit, name, seat, text)

    def reveal(self, name: str) -> GameRow:
        """End a game if need be and return its row with the secret revealable; see :func:`seeds.reveal`."""
        with self.unit() as unit:
            return seeds.reveal(unit, name)

    # --- seats and passwords ---------------------------------------------------------

    def join(self, name: str, address: str, seat: str | None = None) -> Joined:
        """Give ``address`` an open seat of a forming game; see :func:`seats.join`. The address counts as
        having asked for pbem's mail (:mod:`pbem.service.consent`), as for the other seat methods here."""
        with self.unit() as unit:
            consent.record_asked(unit, address)  # the operator's word (see pbem.service.consent)
            return seats.join(unit, name, address, seat)

    def assign(self, name: str, seat: str, address: str) -> SeatRow:
        """Give a seat of a forming game to ``address``; see :func:`seats.assign`."""
        with self.unit() as unit:
            consent.record_asked(unit, address)  # the operator's word (see pbem.service.consent)
            return seats.assign(unit, name, seat, address)

    def issue_passwords(self, name: str) -> dict[str, str]:
        """Give every held seat without a password a fresh one; return them (shown once)."""
        with self.unit() as unit:
            return seats.issue_passwords(unit, name)

    def replace(self, name: str, seat: str, address: str) -> Joined:
        """Hand a seat to a new address; see :func:`seats.replace`."""
        with self.unit() as unit:
            consent.record_asked(unit, address)  # the operator's word (see pbem.service.consent)
            return seats.replace(unit, name, seat, address)

    def resign(self, name: str, seat: str) -> None:
        """Mark a seat resigned; see :func:`seats.resign`."""
        with self.unit() as unit:
            seats.resign(unit, name, seat)

    def mark_undeliverable(self, address: str, reason: str) -> list[tuple[str, str]]:
        """Mail to ``address`` came back for good: mail it no more until it writes again, tell the GMs of its
        seats (see :func:`consent.mark_undeliverable`); return its (game, seat) pairs in games not over."""
        with self.unit() as unit:
            return [(game.name, seat.name) for game, seat in consent.mark_undeliverable(unit, address, reason)]

    def seat_of_address(self, name: str, address: str) -> SeatRow | None:
        """Return the seat of ``name`` that ``address`` holds, if any."""
        with self.unit(lock=False) as unit:
            return seats.seat_of_address(unit, name, address)

    def seat_for_signon(self, name: str, seat: str, password: str, *, sender: str | None = None) -> SeatRow:
        """Return the seat when ``password`` is its password; see :func:`access.seat_for_signon`."""
        with self.unit() as unit:
            return access.seat_for_signon(unit, name, seat, password, sender=sender)

    def check_gm(self, name: str, password: str) -> None:
        """Return when ``password`` is the game's GM password; see :func:`access.check_gm`."""
        with self.unit() as unit:
            access.check_gm(unit, name, password)

    def key_version(self, name: str, seat: str) -> int | None:
        """The key version a seat's reply addresses and links are signed with (None: no such seat)."""
        with self.unit(lock=False) as unit:
            return access.key_version(unit, name, seat)

    # --- the GM's controls -------------------------------------------------------------

    def set_options(self, name: str, options: Mapping[str, str]) -> None:
        """Change how the service runs a game (SET); see :func:`control.set_options`."""
        with self.unit() as unit:
            control.set_options(unit, name, options)

    def set_deadline(self, name: str, when: datetime) -> datetime:
        """Set the deadline of the turn awaiting orders; see :func:`control.set_deadline`."""
        with self.unit() as unit:
            return control.set_deadline(unit, name, when)

    def extend(self, name: str, by: timedelta) -> datetime:
        """Move the deadline later; see :func:`control.extend`."""
        with self.unit() as unit:
            return control.extend(unit, name, by)

    def pause(self, name: str) -> None:
        """Stop the clock of a game; see :func:`control.pause`."""
        with self.unit() as unit:
            control.pause(unit, name)

    def resume(self, name: str) -> datetime | None:
        """Restart the clock of a game; returns the deadline. See :func:`control.resume`."""
        with self.unit() as unit:
            return control.resume(unit, name)

    def end(self, name: str) -> None:
        """End a game now; the game's own ranking of the position decides who wins. See :func:`control.end`."""
        with self.unit() as unit:
            control.end(unit, name)
