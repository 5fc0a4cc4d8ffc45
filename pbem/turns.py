"""The turn runner: games, submissions, NMR defaults, resolution and history.

Plain synchronous code over an injected :class:`~pbem.store.Database`; the mail
daemon and the CLI both drive games through it. Every resolution is one
database transaction: the turn record (unique per game and turn), the new
state and whatever the ``on_resolved`` listeners add (the outbox reports) are
committed together or not at all, so a crash never resolves a turn twice.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, insert, update
from sqlmodel import Session, select

from pbem.addresses import is_plain_address
from pbem.checking import CheckResult, check_orders
from pbem.clock import format_utc, utcnow
from pbem.core import Event, Game, GameError, GameRng, InvalidInput, Outcome, Phase, StaleTurn, UnknownGame, UnknownSeat
from pbem.core.rng import CURRENT_VERSION, LEGACY_VERSION, VERSIONS, commitment, derive_seed
from pbem.core.protocol import score_to_json
from pbem.games import find_game
from pbem.orders import parser_for
from pbem.reports import Fairness, ReportInput, render_report
from pbem.service_options import SERVICE_OPTIONS, BadOption, parse_service_options, service_defaults
from pbem.store import Database
from pbem.store.tables import GameRow, SeatRow, SubmissionRow, TurnRecordRow

MAX_FORCED_CHAIN = 10_000
_GAMES_LOADED = "pbem.turns.games"  # session.info keys of the per-session caches of load_game/load_seats
_SEATS_LOADED = "pbem.turns.seats"
# Statements built once (SQLAlchemy then also keeps their cache keys): building one costs more
# than running it on SQLite.
_SUBMISSIONS = SubmissionRow.__table__  # type: ignore[attr-defined]
_INSERT_SUBMISSION = insert(_SUBMISSIONS)
_LATEST_VERSION = select(func.max(_SUBMISSIONS.c.version)).where(
    _SUBMISSIONS.c.game_id == bindparam("game_id"), _SUBMISSIONS.c.seat == bindparam("seat"),
    _SUBMISSIONS.c.turn == bindparam("turn"),
)
_GAME_BY_NAME = select(GameRow).where(func.lower(GameRow.name) == bindparam("key"))
_SEATS_OF_GAME = select(SeatRow).where(SeatRow.game_id == bindparam("game_id")).order_by(
    SeatRow.position  # type: ignore[arg-type]
)
_CURRENT_SUBMISSION = (
    select(SubmissionRow)
    .where(SubmissionRow.game_id == bindparam("game_id"), SubmissionRow.seat == bindparam("seat"),
           SubmissionRow.turn == bindparam("turn"))
    .order_by(SubmissionRow.version.desc())  # type: ignore[attr-defined]
)
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,19}")

@dataclass(frozen=True)
class GameInfo:
    """A snapshot of a game for callers: its row, rules object, state and what it waits for."""

    row: GameRow
    game: Game[Any, Any]
    state: Any
    seats: list[SeatRow]
    phase: Phase | None
    outcome: Outcome | None

    @property
    def name(self) -> str:
        """The game's name."""
        return self.row.name

    @property
    def seat_names(self) -> list[str]:
        """Seat names in turn order."""
        return [seat.name for seat in self.seats]


@dataclass(frozen=True)
class ResolvedTurn:
    """One turn that was resolved: its record and the report input built from it."""

    record: TurnRecordRow
    report: ReportInput


@dataclass
class Resolution:
    """What one call to :meth:`TurnRunner.resolve` did (forced turns that followed included)."""

    game: str
    turns: list[ResolvedTurn] = field(default_factory=list)

    @property
    def report(self) -> ReportInput:
        """One report input covering every turn of this resolution."""
        first, last = self.turns[0].report, self.turns[-1].report
        events = [e for t in self.turns for e in t.report.events]
        nmr = sorted({s for t in self.turns for s in t.report.nmr})
        return ReportInput(
            game_name=last.game_name,
            game=last.game,
            state=last.state,
            turn=first.turn,
            events=events,
            nmr=nmr,
            phase=last.phase,
            outcome=last.outcome,
            deadline=last.deadline,
            fairness=_merged_fairness([t.report.fairness for t in self.turns]),
        )


@dataclass(frozen=True)
class ReplayResult:
    """The result of replaying a game from its seed: ``mismatches`` is empty when all matched."""

    game: str
    turns: int
    mismatches: list[str]
    versions: list[str] = field(default_factory=list)  # "turns 1-4: rules version 1, generator version 2"
    draws_checked: int = 0

    @property
    def is_identical(self) -> bool:
        """True when every replayed state matched the stored one."""
        return not self.mismatches


MAX_SALTS = 20
MAX_SALT_LENGTH = 200


def rules_version_of(game: Game[Any, Any]) -> int:
    """Return the rules version a game's code implements (``rules_version`` on the game
    class; 1 when it declares none). Bump it whenever a rules change alters outcomes."""
    return int(getattr(game, "rules_version", 1))


def _fairness(row: GameRow, draws: Sequence[Sequence[int]]) -> Fairness | None:
    """Return what a report shows players to check the dice (None for legacy games)."""
    if row.secret is None:
        return None
    revealed = row.secret if TurnRunner.is_revealed(row) else None
    return Fairness(commitment(row.name, row.secret), row.rng_version, list(row.salts), list(draws), revealed)


def _reported_draws(records: Sequence[TurnRecordRow], setup_draws: Sequence[Sequence[int]]) -> list[list[int]]:
    """The draws of the newest report: of the last turn resolved on request and the
    forced turns after it (which are reported together), or of every turn when all were
    forced; the first report also lists the draws of the game's setup."""
    group: list[TurnRecordRow] = []
    for record in reversed(records):
        group.append(record)
        if record.reason != "forced":
            break
    first = [list(draw) for draw in setup_draws] if group and group[-1].turn == 1 and group[-1].reason == "forced" \
        else []
    return first + [draw for record in reversed(group) for draw in record.draws]


def _merged_fairness(parts: Sequence[Fairness | None]) -> Fairness | None:
    """Join the fairness parts of turns reported together: all their draws, the last one's reveal."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    last = present[-1]
    return Fairness(last.commitment, last.rng_version, last.salts,
                    [d for p in present for d in p.draws], last.secret)


def _draw_difference(reported: Sequence[Sequence[int]], recomputed: Sequence[Sequence[int]]) -> str:
    """Describe the first draw where the reported and recomputed draw lists differ."""
    for index, (said, computed) in enumerate(zip(reported, recomputed, strict=False)):
        if list(said) != list(computed):
            return (f"draw {index + 1} (counter {said[0]}): reported {said[2]} of {said[1]},"
                    f" recomputed {computed[2]} of {computed[1]} (counter {computed[0]})")
    return f"{len(reported)} draws reported, {len(recomputed)} recomputed"


def _version_spans(records: Sequence[TurnRecordRow], rng_version: int) -> list[str]:
    """Describe which turns were resolved under which rules version, as runs of turns."""
    spans: list[str] = []
    start: TurnRecordRow | None = None
    previous: TurnRecordRow | None = None
    for record in [*records, None]:
        if start is not None and previous is not None and (
                record is None or record.rules_version != start.rules_version):
            turns = f"turn {start.turn}" if start is previous else f"turns {start.turn}-{previous.turn}"
            spans.append(f"{turns}: rules version {start.rules_version}, generator version {rng_version}")
            start = None
        if record is not None and start is None:
            start = record
        previous = record
    return spans


ResolvedListener = Callable[[Session, GameInfo, Resolution], None]


def _split_options(game: Game[Any, Any], options: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    service: dict[str, str] = {}
    rules: dict[str, str] = {}
    for key, value in options.items():
        key = key.strip().lower()
        if key in SERVICE_OPTIONS:
            service[key] = value.strip()
        elif key in game.options():
            rules[key] = value.strip().lower()
        else:
            known = sorted([*SERVICE_OPTIONS, *game.options()])
            raise BadOption(f"unknown option {key!r} for {game.name}; options are: {', '.join(known)}")
    return service, rules


def _leaders(game: Game[Any, Any], state: Any) -> Outcome:
    scores = game.scores(state)
    best = max(scores.values())
    return Outcome(tuple(s for s, v in scores.items() if v == best), "The GM ended the game; the leaders win.")


class TurnRunner:
    """Creates games, takes submissions, resolves turns and replays history on a database."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.db = db
        self.clock = clock
        self.on_resolved: list[ResolvedListener] = []

    # --- games -----------------------------------------------------------------

    def create_game(
        self,
        kind: str,
        name: str,
        *,
        seats: Mapping[str, str | None] | None = None,
        players: int | None = None,
        options: Mapping[str, str] | None = None,
        seed: int | None = None,
        rng_version: int = CURRENT_VERSION,
        gm_address: str | None = None,
        gm_password_hash: str | None = None,
        session: Session | None = None,
    ) -> GameInfo:
        """Create a game. With ``seats`` (seat -> address) it starts at once; with
        only ``players`` it waits for JOINs (status ``forming``) until :meth:`start`.

        The game commits to a secret (random, or the text of ``seed`` when given);
        the seed it plays with is derived at START from the secret and the
        players' salts. ``rng_version=1`` creates a game with the legacy generator
        seeded directly with ``seed`` (no commitment), as games were before.

        Raises UnknownGame for an unknown kind, UnknownSeat for seat names the game
        does not use, InvalidInput for a bad name, option, player count, a seed
        outside 0 to 2**63 - 1 (what the database holds), a seat address that is not
        a plain mail address or missing seats, and GameError for a taken name.
        """
        game = find_game(kind)
        if seed is not None and not 0 <= seed < 2**63:
            raise InvalidInput(f"seed {seed}: give a whole number from 0 to {2**63 - 1}")
        name = name.strip()
        if not GAME_NAME.fullmatch(name):
            raise InvalidInput(f"game name {name!r}: use 1-20 letters, digits and '-', starting with a letter or digit")
        service, rules = _split_options(game, options or {})
        count = len(seats) if seats else players
        if count is None:
            raise InvalidInput("give the seats or the number of players")
        if not game.min_players <= count <= game.max_players:
            wanted = (f"exactly {game.min_players}" if game.min_players == game.max_players
                      else f"{game.min_players} to {game.max_players}")
            raise InvalidInput(f"{game.name} is for {wanted} players, not {count}")
        seat_names = game.seat_names(count)
        if seats:
            wanted = {s.upper() for s in seats}
            canonical = {s.upper(): s for s in seat_names}
            unknown = sorted(wanted - set(canonical))
            if unknown:
                raise UnknownSeat(f"{game.name} has no seat {unknown[0]}; seats are {', '.join(seat_names)}")
            if len(wanted) != len(seat_names):
                missing = [s for s in seat_names if s.upper() not in wanted]
                raise InvalidInput(f"seats missing: {', '.join(missing)}")
            for seat, address in seats.items():
                if address is not None and not is_plain_address(address):
                    raise InvalidInput(f"seat {seat}: {address!r} is not a mail address such as alice@example.org")
        run = {**service_defaults(), **parse_service_options(service)}
        now = self.clock()
        row = GameRow(
            name=name,
            kind=game.name,
            options=rules,
            seed=0,
            status="forming",
            rng_version=rng_version,
            rules_version=rules_version_of(game),
            created_at=now,
            **run,
            gm_address=gm_address,
            gm_password_hash=gm_password_hash,
        )
        if rng_version not in VERSIONS:
            raise InvalidInput(f"random generator version {rng_version} is unknown; known: {VERSIONS}")
        if rng_version == LEGACY_VERSION:
            row.seed = seed if seed is not None else secrets.randbelow(2**31)
        else:
            row.secret = str(seed) if seed is not None else secrets.token_hex(32)
            row.seed = derive_seed(row.secret)
        # Validate the rules' options now, not at START.
        game.setup(seat_names, rules, GameRng(row.seed, version=row.rng_version))
        with self.unit(session) as session:
            if session.exec(select(GameRow).where(func.lower(GameRow.name) == name.lower())).first() is not None:
                raise GameError(f"a game named {name} exists already")
            session.add(row)
            session.flush()
            by_upper = {s.upper(): a for s, a in (seats or {}).items()}
            for position, seat in enumerate(seat_names):
                session.add(SeatRow(game_id=row.id, name=seat, position=position, address=by_upper.get(seat.upper())))
            session.flush()
            if seats:
                return self.start(name, session=session)
            return self.snapshot(session, row)

    def start(self, name: str, *, session: Session | None = None) -> GameInfo:
        """Set a forming game up from its seed and open turn 1.

        Raises GameError when it is not forming or a seat is still empty.
        """
        with self.unit(session) as session:
            row = self.load_game(session, name)
            if row.status != "forming":
                raise GameError(f"game {name} has started already")
            seats = self.load_seats(session, row)
            empty = [s.name for s in seats if not s.address]
            if empty:
                raise GameError(f"game {name} cannot start: seats {', '.join(empty)} are still open")
            game = find_game(row.kind)
            if row.secret is not None:
                row.seed = derive_seed(row.secret, row.salts)
            rng = GameRng(row.seed, version=row.rng_version)
            state = game.setup([s.name for s in seats], row.options, rng)
            row.setup_draws = list(rng.draws)
            row.state = game.dump(state)
            row.rng_state = rng.get_state()
            row.status = "active"
            row.turn = 1
            row.deadline = self._next_deadline(row)
            session.add(row)
            info = self.snapshot(session, row)
            self._play_forced(session, info)
            return self.snapshot(session, row)

    def info(self, name: str, *, session: Session | None = None) -> GameInfo:
        """Return the current snapshot of a game. Raises UnknownGame."""
        with self.unit(session) as session:
            return self.snapshot(session, self.load_game(session, name))

    def games(self, *, session: Session | None = None) -> list[GameRow]:
        """Return every game, oldest first."""
        with self.unit(session) as session:
            return list(session.exec(select(GameRow).order_by(GameRow.id)))

    # --- orders ----------------------------------------------------------------

    def submit(
        self,
        name: str,
        seat: str,
        text: str,
        *,
        turn: int | None = None,
        store: bool = True,
        source: str = "cli",
        session: Session | None = None,
    ) -> CheckResult:
        """Check a seat's orders and, when ``store``, keep the accepted lines as the
        seat's new orders for the turn (a new version replacing earlier ones).

        The accepted lines replace the seat's earlier orders for the turn (a
        submission is the whole set). A submission without any accepted line
        stores nothing and leaves the earlier orders standing (``standing`` on
        the result says which), so a mistyped mail never withdraws orders or
        counts as orders in: :meth:`withdraw` does that on purpose. Nothing is
        stored either when the submission as a whole is refused.
        Raises UnknownGame, UnknownSeat, GameError (not running), StaleTurn
        (``turn`` given and not the turn awaiting orders).
        """
        with self.unit(session) as session:
            row = self.load_game(session, name)
            if row.status != "active":
                raise GameError(f"game {name} is {row.status}; it takes no orders now")
            seat_row = self.load_seat(session, row, seat)
            if turn is not None and turn != row.turn:
                raise StaleTurn(name, turn, row.turn)
            info = self.snapshot(session, row)
            game = info.game
            parsed = parser_for(game.name).parse(text)
            assert info.phase is not None
            if seat_row.name not in info.phase.seats:
                waiting = ", ".join(info.phase.seats)
                result = CheckResult(lines=parsed.lines, general=[f"it is not your turn: waiting for {waiting}"])
            else:
                result = check_orders(game, info.state, seat_row.name, parsed)
            result.game, result.kind, result.seat, result.turn = row.name, game.name, seat_row.name, row.turn
            result.deadline = format_utc(row.deadline) if row.deadline else None
            if not store or result.general:
                return result
            previous = self._latest_version(session, row, seat_row.name)
            if not result.accepted:
                result.standing = previous
                return result
            self._store_submission(session, row, seat_row, previous + 1, text, result, source)
            return result

    def withdraw(self, name: str, seat: str, *, ready: bool = False, source: str = "cli",
                 session: Session | None = None) -> int:
        """Store an empty set of orders for the seat (NOORDERS: it holds this turn), or with ``ready``
        mark its standing orders (none: an empty set) as final (READY). Returns the stored version.

        Either way the seat counts as having sent its orders; a READY seat is
        not waited for even when the game resolves only at its deadline.
        Raises GameError when the game takes no orders or it is not the seat's turn.
        """
        with self.unit(session) as session:
            row = self.load_game(session, name)
            if row.status != "active":
                raise GameError(f"game {name} is {row.status}; it takes no orders now")
            seat_row = self.load_seat(session, row, seat)
            phase = self.snapshot(session, row).phase
            if phase is None or seat_row.name not in phase.seats:
                waiting = ", ".join(phase.seats) if phase else "nobody"
                raise GameError(f"it is not your turn: waiting for {waiting}")
            previous = self._latest_version(session, row, seat_row.name)
            current = self.current_submission(session, row, seat_row.name) if ready else None
            orders = list(current.orders) if current is not None else []
            text = current.text if current is not None else ""
            now = self.clock()
            session.connection().execute(_INSERT_SUBMISSION, {
                "game_id": row.id, "seat": seat_row.name, "turn": row.turn, "version": previous + 1, "text": text,
                "orders": orders, "problems": [], "received_at": now, "source": source, "ready": ready})
            self._clear_absence(session, seat_row)
            return previous + 1

    def _clear_absence(self, session: Session, seat_row: SeatRow) -> None:
        if seat_row.absent_since is not None:
            seat_row.absent_since, seat_row.absence_reported = None, False
            session.add(seat_row)

    def _store_submission(self, session: Session, row: GameRow, seat_row: SeatRow, version: int, text: str,
                          result: CheckResult, source: str) -> None:
        """Store the accepted orders of ``result`` as version ``version`` of the seat's orders."""
        now = self.clock()
        # One INSERT on the session's connection, in its transaction (what the session reads
        # next comes from the database): no ORM object to build and flush.
        session.connection().execute(
            _INSERT_SUBMISSION,
            {
                "game_id": row.id,
                "seat": seat_row.name,
                "turn": row.turn,
                "version": version,
                "text": text,
                "orders": [str(order) for order in result.accepted],
                "problems": [
                    {"line": line.number, "text": line.text, "message": line.problem.message,
                     "column": line.problem.column}
                    for line in result.lines
                    if line.problem is not None
                ],
                "received_at": now,
                "source": source,
            },
        )
        result.version, result.received_at, result.replaced_previous = version, now, version > 1
        self._clear_absence(session, seat_row)

    def current_orders(self, name: str, seat: str, *, session: Session | None = None) -> SubmissionRow | None:
        """Return the seat's newest stored submission for the turn awaiting orders."""
        with self.unit(session) as session:
            row = self.load_game(session, name)
            seat_row = self.load_seat(session, row, seat)
            return self.current_submission(session, row, seat_row.name)

    def missing_seats(self, name: str, *, session: Session | None = None) -> list[str]:
        """Return the seats that owe orders now and have stored none."""
        with self.unit(session) as session:
            row = self.load_game(session, name)
            info = self.snapshot(session, row)
            if info.phase is None or row.status != "active":
                return []
            return [s for s in info.phase.seats if self.current_submission(session, row, s) is None]

    # --- resolution --------------------------------------------------------------

    def resolve(
        self, name: str, *, reason: str = "gm", expected_turn: int | None = None, session: Session | None = None
    ) -> Resolution:
        """Resolve the turn awaiting orders now (NMR defaults for seats without
        orders), then any forced turns that follow, in one transaction.

        ``expected_turn`` guards against resolving a turn twice: when given and
        the game has moved on, GameError is raised and nothing changes.
        Raises UnknownGame, GameError (not active, or finished).
        """
        with self.unit(session) as session:
            row = self.load_game(session, name)
            if row.status != "active":
                raise GameError(f"game {name} is {row.status}; nothing to resolve")
            if expected_turn is not None and row.turn != expected_turn:
                raise GameError(f"turn {expected_turn} of {name} was resolved already")
            info = self.snapshot(session, row)
            resolution = Resolution(game=row.name)
            resolution.turns.append(self._resolve_one(session, info, reason))
            info = self.snapshot(session, row)
            resolution.turns.extend(self._play_forced(session, info))
            final = self.snapshot(session, row)
            for listener in self.on_resolved:
                listener(session, final, resolution)
            return resolution

    def _resolve_one(self, session: Session, info: GameInfo, reason: str) -> ResolvedTurn:
        row, game, state = info.row, info.game, info.state
        assert info.phase is not None
        orders: dict[str, list[Any]] = {}
        nmr: list[str] = []
        parser = parser_for(game.name)
        for seat in info.phase.seats:
            submission = self.current_submission(session, row, seat)
            if submission is None:
                nmr.append(seat)
                orders[seat] = list(game.default_orders(state, seat))
            else:
                orders[seat] = parser.parse("\n".join(submission.orders)).orders
        rng = GameRng.from_state(row.rng_state)
        rng_before = row.rng_state
        current_rules = rules_version_of(game)
        if row.rules_version != current_rules:
            row.rules_version = current_rules  # the game goes on under the rules this code implements
        result = game.resolve(state, orders, rng)
        outcome = game.outcome(result.state)
        turn = row.turn
        changed = session.execute(
            update(GameRow).where(GameRow.id == row.id, GameRow.turn == turn).values(turn=turn + 1)
        )
        if changed.rowcount != 1:  # type: ignore[attr-defined]
            raise GameError(f"turn {turn} of {row.name} was resolved already")
        record = TurnRecordRow(
            game_id=row.id,
            turn=turn,
            phase=info.phase.name,
            orders={seat: [str(o) for o in seat_orders] for seat, seat_orders in orders.items()},
            nmr=nmr,
            rng_state=rng_before,
            events=[event.to_json() for event in result.events],
            state=game.dump(result.state),
            reason=reason,
            resolved_at=self.clock(),
            draws=rng.draws,
            rules_version=current_rules,
        )
        session.add(record)
        row.turn = turn + 1
        row.state = record.state
        row.rng_state = rng.get_state()
        if outcome is not None:
            row.status = "finished"
            row.deadline = None
        else:
            row.deadline = self._next_deadline(row)
        if reason == "deadline":
            for seat_row in info.seats:
                if seat_row.name in nmr and seat_row.absent_since is None:
                    seat_row.absent_since = record.resolved_at
                    session.add(seat_row)
            row.nmr_streak = row.nmr_streak + 1 if len(nmr) == len(info.phase.seats) else 0
        elif reason != "forced":
            row.nmr_streak = 0
        session.add(row)
        session.flush()
        phase = None if outcome is not None else game.phase(result.state)
        report = ReportInput(
            game_name=row.name,
            game=game,
            state=result.state,
            turn=turn,
            events=result.events,
            nmr=nmr,
            phase=phase,
            outcome=outcome,
            deadline=format_utc(row.deadline) if row.deadline else None,
            fairness=_fairness(row, record.draws),
        )
        return ResolvedTurn(record, report)

    def _play_forced(self, session: Session, info: GameInfo) -> list[ResolvedTurn]:
        """File the play of every owing seat that has no choice, and resolve each
        turn in which no owing seat has a choice."""
        played: list[ResolvedTurn] = []
        for _ in range(MAX_FORCED_CHAIN):
            if info.phase is None or info.row.status != "active":
                break
            choosing = False
            for seat in info.phase.seats:
                orders = info.game.forced_orders(info.state, seat)
                if orders is None:
                    choosing = True
                elif self.current_submission(session, info.row, seat) is None:
                    self._store_forced(session, info.row, seat, orders)
            if choosing:
                break
            played.append(self._resolve_one(session, info, "forced"))
            info = self.snapshot(session, info.row)
        return played

    def _store_forced(self, session: Session, row: GameRow, seat: str, orders: Sequence[Any]) -> None:
        version = self._latest_version(session, row, seat) + 1
        text = "\n".join(str(o) for o in orders)
        session.add(
            SubmissionRow(
                game_id=row.id, seat=seat, turn=row.turn, version=version, text=text,
                orders=[str(o) for o in orders], problems=[], received_at=self.clock(), source="forced",
            )
        )
        session.flush()

    def _next_deadline(self, row: GameRow) -> datetime | None:
        if row.turn_hours <= 0:
            return None
        return self.clock() + timedelta(hours=row.turn_hours)

    # --- reading -----------------------------------------------------------------

    def history(self, name: str, *, session: Session | None = None) -> list[TurnRecordRow]:
        """Return every resolved turn of a game in order."""
        with self.unit(session) as session:
            row = self.load_game(session, name)
            query = select(TurnRecordRow).where(TurnRecordRow.game_id == row.id).order_by(TurnRecordRow.turn)
            return list(session.exec(query))

    def last_report(self, name: str, *, session: Session | None = None) -> ReportInput:
        """Return the report input of the newest resolved turn (the opening report before any)."""
        info = self.info(name, session=session)
        records = self.history(name, session=session)
        deadline = format_utc(info.row.deadline) if info.row.deadline else None
        if not records:
            return ReportInput(info.name, info.game, info.state, 0, [], [], info.phase, info.outcome, deadline,
                               _fairness(info.row, info.row.setup_draws))
        last = records[-1]
        return ReportInput(
            game_name=info.name,
            game=info.game,
            state=info.state,
            turn=last.turn,
            events=[Event.from_json(e) for e in last.events],
            nmr=last.nmr,
            phase=info.phase,
            outcome=info.outcome,
            deadline=deadline,
            fairness=_fairness(info.row, _reported_draws(records, info.row.setup_draws)),
        )

    def report_text(self, name: str, seat: str | None) -> str:
        """Render the newest report for ``seat`` (``None`` = the public report)."""
        info = self.info(name)
        if seat is not None:
            seat = self._seat_name(info, seat)
        return render_report(self.last_report(name), seat)

    def state_json(self, name: str, seat: str | None = None, *, session: Session | None = None) -> dict[str, Any]:
        """Return the game as JSON: game, kind, turn, status, scores, once finished winners,
        outcome (win, shared, draw or loss) and outcome_reason, and state."""
        info = self.info(name, session=session)
        if seat is not None:
            seat = self._seat_name(info, seat)
        data: dict[str, Any] = {
            "game": info.name,
            "kind": info.game.name,
            "turn": info.row.turn,
            "status": info.row.status,
        }
        if info.row.status == "forming":
            data["seats"] = {s.name: bool(s.address) for s in info.seats}
            return data
        data["scores"] = {s: score_to_json(v) for s, v in info.game.scores(info.state).items()}
        if info.outcome is not None:
            data["winners"] = list(info.outcome.winners)
            data["outcome"] = info.outcome.kind.value
            data["outcome_reason"] = info.outcome.reason
        else:
            data["phase"] = info.phase.name if info.phase else None
            data["owing"] = list(info.phase.seats) if info.phase else []
            data["deadline"] = info.row.deadline.isoformat() if info.row.deadline else None
        data["state"] = info.game.view(info.state, seat)
        return data

    def replay(self, name: str, *, check_draws: bool = False) -> ReplayResult:
        """Replay a game from its seed, generator version and stored orders; report every
        state (and, with ``check_draws``, every logged draw) that differs.

        Turns resolved under a rules version other than the one this code implements
        are not recomputed: the stored state is taken and ``versions`` says which
        turns were resolved under which version.
        """
        info = self.info(name)
        game, row = info.game, info.row
        records = self.history(name)
        if row.status == "forming":
            return ReplayResult(name, 0, [])
        mismatches: list[str] = []
        current_rules = rules_version_of(game)
        rng = GameRng(row.seed, version=row.rng_version)
        state = game.setup(info.seat_names, row.options, rng)
        parser = parser_for(game.name)
        checked = 0
        if check_draws and row.setup_draws:
            checked += len(row.setup_draws)
            if rng.draws != row.setup_draws:
                mismatches.append(f"setup: {_draw_difference(row.setup_draws, rng.draws)}")
        resync = False  # after a turn under other rules, take the stored generator state
        for record in records:
            if rng.get_state() != record.rng_state:
                if not resync:
                    mismatches.append(f"turn {record.turn}: random generator state differs before resolving")
                rng = GameRng.from_state(record.rng_state)
            resync = False
            if record.rules_version != current_rules:
                state = game.load(record.state)
                resync = True
                continue
            rng.draws = []
            orders = {seat: parser.parse("\n".join(texts)).orders for seat, texts in record.orders.items()}
            state = game.resolve(state, orders, rng).state
            if check_draws:
                checked += len(record.draws)
                if rng.draws != record.draws:
                    mismatches.append(f"turn {record.turn}: {_draw_difference(record.draws, rng.draws)}")
            if game.dump(state) != record.state:
                mismatches.append(f"turn {record.turn}: replayed state differs from the stored one")
                state = game.load(record.state)
        if game.dump(state) != row.state:
            mismatches.append("the game's current state differs from the replayed one")
        return ReplayResult(name, len(records), mismatches, _version_spans(records, row.rng_version), checked)

    def verify(self, name: str) -> ReplayResult:
        """Recompute every draw of a finished or revealed game from its seed and stored
        orders and compare with the draws its reports listed. Raises GameError while the
        seed is still secret."""
        info = self.info(name)
        if not self.is_revealed(info.row):
            raise GameError(f"the seed of {name} is not revealed yet; it is revealed when the game ends")
        return self.replay(name, check_draws=True)

    def commitment(self, name: str) -> str | None:
        """Return the published SHA-256 commitment of a game's secret (None for legacy games)."""
        row = self.info(name).row
        return commitment(row.name, row.secret) if row.secret is not None else None

    @staticmethod
    def is_revealed(row: GameRow) -> bool:
        """True when a game's secret may be shown: the game has finished."""
        return row.status == "finished"

    def reveal(self, name: str, *, session: Session | None = None) -> GameRow:
        """End a game early if need be and return its row with the secret revealable.
        Raises GameError for a legacy game with no commitment."""
        with self.unit(session) as session:
            row = self.load_game(session, name)
            if row.secret is None:
                raise GameError(f"{name} was created before seeds were committed; its seed is {row.seed}")
            if row.status != "finished":
                row.status = "finished"
                row.ended_by_gm = True
                row.deadline = None
                session.add(row)
            session.flush()
            return row

    def add_salt(self, name: str, seat: str, text: str, *, session: Session | None = None) -> list[str]:
        """Add a seat's salt to a forming game; it is mixed into the seed at START.
        Returns the salts so far. Raises InvalidInput for an empty, overlong or multi-line
        salt, GameError once the game has started, for a legacy game or past the salts allowed."""
        text = text.strip()
        if not text or len(text) > MAX_SALT_LENGTH or "\n" in text:
            raise InvalidInput(f"SALT takes one line of 1 to {MAX_SALT_LENGTH} characters")
        with self.unit(session) as session:
            row = self.load_game(session, name)
            if row.status != "forming":
                raise GameError(f"game {name} has started; salt is taken only before the start")
            if row.secret is None:
                raise GameError(f"game {name} uses the legacy generator and takes no salt")
            if len(row.salts) >= MAX_SALTS:
                raise GameError(f"game {name} has {MAX_SALTS} salts already")
            row.salts = [*row.salts, f"{seat}:{text}"]
            session.add(row)
            return list(row.salts)

    def upgrade_check(self) -> list[ReplayResult]:
        """Replay every started game; return the results of those this code would resolve
        differently from their stored history (turns under another rules version are not
        counted as differences)."""
        return [result for result in (self.replay(row.name) for row in self.games())
                if not result.is_identical]

    # --- helpers -----------------------------------------------------------------

    @contextmanager
    def unit(self, session: Session | None = None) -> Iterator[Session]:
        """Yield ``session`` when given (the caller commits), else a new session committed at the end."""
        if session is not None:
            yield session
            return
        with self.db.session() as own:
            yield own

    def games_created_since(self, gm_address: str, since: datetime, *, session: Session | None = None) -> int:
        """Return how many games ``gm_address`` created from ``since`` on (for the creation limit)."""
        with self.unit(session) as session:
            query = select(func.count()).select_from(GameRow).where(
                GameRow.gm_address == gm_address, GameRow.created_at >= since)  # type: ignore[arg-type]
            return int(session.exec(query).one())

    def load_game(self, session: Session, name: str) -> GameRow:
        """Return a game's row in ``session``. Raises UnknownGame.

        The row is remembered for the rest of the session (its identity map
        holds it anyway), so handling one mail loads each game only once.
        """
        key = name.strip().lower()
        games: dict[str, GameRow] = session.info.setdefault(_GAMES_LOADED, {})
        row = games.get(key)
        if row is None:
            row = session.execute(_GAME_BY_NAME, {"key": key}).scalars().first()
            if row is None:
                raise UnknownGame(f"no game named {name!r}")
            games[key] = row
        return row

    def load_seats(self, session: Session, row: GameRow) -> list[SeatRow]:
        """Return a game's seats in turn order (a new list; the rows are the session's).

        Remembered for the rest of the session like :meth:`load_game`: seats
        are only ever added when a game is created, before anything loads them.
        """
        seats: dict[int | None, list[SeatRow]] = session.info.setdefault(_SEATS_LOADED, {})
        found = seats.get(row.id)
        if found is None:
            found = seats[row.id] = list(session.execute(_SEATS_OF_GAME, {"game_id": row.id}).scalars())
        return list(found)

    def load_seat(self, session: Session, row: GameRow, seat: str) -> SeatRow:
        """Return one seat by name (any case). Raises UnknownSeat naming the seats there are."""
        for seat_row in self.load_seats(session, row):
            if seat_row.name.upper() == seat.strip().upper():
                return seat_row
        names = ", ".join(s.name for s in self.load_seats(session, row))
        raise UnknownSeat(f"game {row.name} has no seat {seat!r}; seats are {names}")

    @staticmethod
    def _seat_name(info: GameInfo, seat: str) -> str:
        for name in info.seat_names:
            if name.upper() == seat.strip().upper():
                return name
        raise UnknownSeat(f"game {info.name} has no seat {seat!r}; seats are {', '.join(info.seat_names)}")

    def snapshot(self, session: Session, row: GameRow) -> GameInfo:
        """Return the game's snapshot as stored in ``session`` now."""
        game = find_game(row.kind)
        seats = self.load_seats(session, row)
        if row.status == "forming":
            return GameInfo(row, game, None, seats, None, None)
        state = game.load(row.state)
        outcome = game.outcome(state)
        if outcome is None and row.ended_by_gm:
            outcome = _leaders(game, state)
        phase = None if outcome is not None else game.phase(state)
        return GameInfo(row, game, state, seats, phase, outcome)

    def _latest_version(self, session: Session, row: GameRow, seat: str) -> int:
        found = session.connection().execute(_LATEST_VERSION, {"game_id": row.id, "seat": seat, "turn": row.turn})
        return found.scalar_one() or 0

    def may_resolve_now(self, session: Session, row: GameRow, now: datetime) -> bool:
        """True when the clock could have something to do for the game at ``now`` because of
        orders: it is active and either its deadline passed, or it resolves early and every seat
        owing orders has stored some for the turn, or every seat owing orders said READY. False means a clock tick for just this game
        would find nothing that orders make due (reminders and absences wait for the full tick)."""
        if row.status != "active":
            return False
        if row.deadline is not None and now >= row.deadline:
            return True
        phase = self.snapshot(session, row).phase
        if phase is None:
            return False
        if row.resolve_when != "early":
            return self.all_ready(session, row, phase)
        query = select(SubmissionRow.seat).where(SubmissionRow.game_id == row.id, SubmissionRow.turn == row.turn)
        return set(phase.seats) <= set(session.exec(query.distinct()))

    def all_ready(self, session: Session, row: GameRow, phase: Phase) -> bool:
        """True when every seat owing orders in ``phase`` said READY for the turn (its newest submission)."""
        for seat in phase.seats:
            current = self.current_submission(session, row, seat)
            if current is None or not current.ready:
                return False
        return bool(phase.seats)

    def current_submission(self, session: Session, row: GameRow, seat: str) -> SubmissionRow | None:
        """Return the seat's newest submission for the turn awaiting orders, in ``session``."""
        found = session.execute(_CURRENT_SUBMISSION, {"game_id": row.id, "seat": seat, "turn": row.turn})
        return found.scalars().first()
