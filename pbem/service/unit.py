"""One unit of work: a database transaction and the games it has loaded.

Every service operation takes a :class:`Unit` and does its work in it; the
caller decides where a unit begins and ends (:meth:`GameService.unit
<pbem.service.api.GameService.unit>`): one per command-line call, one per mail
(its reply and everything it changed commit together), one per game and clock
action. Nothing in the service opens a transaction of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlmodel import Session

from pbem.core import UnknownGame, UnknownSeat
from pbem.core.words import did_you_mean
from pbem.service import queries
from pbem.service.row_cache import CachedGame, RowCache, version_by_name, version_of
from pbem.service.snapshot import GameInfo, Position, PositionCache
from pbem.store.tables import GameRngRow, GameRow, SeatRow

if TYPE_CHECKING:
    from pbem.service.resolution import ResolvedTurns

ResolvedListener = Callable[["Unit", GameInfo, "ResolvedTurns"], None]
"""Called in the unit that resolved turns, before it commits (the mail side queues the reports)."""
NewsListener = Callable[["Unit", list[Any]], None]
"""Called with what a unit's work brought (its ``news``) before the unit commits."""


class Unit:
    """One database transaction of the service, with the game rows it loaded.

    A game and its seats are loaded once per unit (the session's identity map
    holds the rows anyway), and a game's state is read through its rules once
    for as long as the row keeps it, so handling one mail reads each game only
    once. With ``rows``, a game found by its name whose version the cache holds
    is not loaded at all (see :mod:`pbem.service.row_cache`); what the unit
    loads is offered to the cache once it committed (:meth:`read_at_versions`).
    """

    def __init__(self, session: Session, *, clock: Callable[[], datetime],
                 on_resolved: Sequence[ResolvedListener] = (), actor: str = "service", lock: bool = False,
                 positions: PositionCache | None = None, rows: RowCache | None = None) -> None:
        self.session = session
        self.positions = positions if positions is not None else PositionCache()
        """Where the games' states read through their rules are kept between units (see :class:`PositionCache`)."""
        self.rows = rows
        """Where games' rows are kept between units, by version (None: every game is loaded)."""
        self.clock = clock
        self.on_resolved = tuple(on_resolved)
        self.actor = actor
        """Who acts in this unit, for the audit log: ``gm <address>``, ``seat B <address>``,
        ``command line``, or ``service`` (the clock and the service's own decisions)."""
        self.lock = lock
        """Whether the games this unit loads are locked until it ends (``SELECT ... FOR UPDATE`` on
        PostgreSQL; SQLite has one writer at a time anyway), so that two daemons never change one
        game at once: a unit that may change a game locks it."""
        self.mail_from: str | None = None
        """The sender of the mail this unit handles (None: the clock or the command line): the mail it
        causes besides its reply is bounded (see :mod:`pbem.mail.outbound.notices`)."""
        self.mailed_others = 0
        """Mails queued in this unit, besides the reply, that count toward that bound."""
        self.held_back = 0
        """Mails not queued because the bound was reached."""
        self.news: list[Any] = []
        """What happened in this unit that people must hear of (deadlines moved for an absence, seats
        offered or handed over, rollbacks): handed to the service's ``on_news`` listeners before it commits."""
        self._games: dict[str, GameRow] = {}
        self._seats: dict[int | None, list[SeatRow]] = {}
        self._positions: dict[int | None, Position] = {}
        self._ready: dict[tuple[int | None, str, int], bool] = {}  # (game, seat, turn) -> READY, of what it stored
        self._loaded: dict[int, CachedGame] = {}  # games loaded at one version, as loaded: for the row cache
        self._written: set[int] = set()  # games whose rows (or seats' rows) it wrote through the ORM
        self.kinds: dict[str, str] = {}
        """The kinds of the games it looked up by name (:meth:`kind_of`), for the row cache once it committed."""
        session.info[_UNIT] = self

    def now(self) -> datetime:
        """The service's time now (UTC)."""
        return self.clock()

    def add(self, row: Any) -> None:
        """Have the transaction write ``row`` (new or changed)."""
        self.session.add(row)

    def game(self, name: str) -> GameRow:
        """Return the row of the game called ``name`` (any case). Raises UnknownGame quoting the name."""
        key = name.strip().lower()
        row = self._games.get(key)
        if row is None:
            row = queries.game_by_name(self.session, key, lock=self.lock) if self.rows is None else self._by_version(key)
            if row is None:
                guess = did_you_mean(key, queries.game_names(self.session))
                raise UnknownGame(f"no game named {name!r}" + (f"; {guess}" if guess else ""))
            self._games[key] = row
        return row

    def _by_version(self, key: str) -> GameRow | None:
        """The row of the game whose ``name_key`` is ``key`` (locked as :meth:`game` says), built from the row
        cache when it holds the game at the version read, else loaded with its seats; None when there is none."""
        assert self.rows is not None
        found = version_by_name(self.session, key, lock=self.lock)
        if found is None:
            return None
        game_id, version = found
        cached = self.rows.get(game_id, version)
        if cached is not None and not cached.is_in(self.session):
            row, seats = cached.rows(self.session)
            self._seats[game_id] = seats
            if cached.position is not None:
                self._positions[game_id] = cached.position
            return row
        if self._holds_rows_of(game_id):  # rows the unit read before (and may have changed): they count
            return queries.game_by_id(self.session, game_id)
        loaded = queries.game_by_id(self.session, game_id)
        if loaded is not None:
            seats = self._seats[game_id] = queries.seats_of(self.session, game_id)
            if version_of(self.session, game_id) == loaded.version:  # no write came between the two reads
                self._keep_loaded(game_id, CachedGame.of(loaded, seats))
        return loaded

    def _keep_loaded(self, game_id: int, cached: CachedGame | None) -> None:
        """Note ``cached`` as game ``game_id``'s rows for the row cache; None (rows not whole) drops any kept."""
        if cached is None:
            self._loaded.pop(game_id, None)
        else:
            self._loaded[game_id] = cached

    def _holds_rows_of(self, game_id: int) -> bool:
        """True when the session holds the row of game ``game_id`` or of one of its seats already."""
        return any(isinstance(row, GameRow) and row.id == game_id or isinstance(row, SeatRow)
                   and row.game_id == game_id for row in self.session.identity_map.values())

    def note_written(self, game_id: int | None) -> None:
        """Note that this unit wrote the row of game ``game_id`` or of one of its seats (see :func:`_flushed`)."""
        if game_id is not None:
            self._written.add(game_id)

    def read_at_versions(self) -> dict[int, CachedGame]:
        """The games this unit loaded as they stood at one version (before it changed them), and those it
        wrote through the ORM as they stand now at the version their writes gave them, each with the position
        it read from that state; for the row cache once the unit committed (call it just before)."""
        if self.rows is None:
            return self._loaded
        self.session.flush()  # as the commit would: what it wrote is noted (see _flushed)
        if self._written:
            for row in self._games.values():
                seats = self._seats.get(row.id)
                if row.id in self._written and seats is not None:
                    self._keep_loaded(row.id, CachedGame.of(row, seats, version=version_of(self.session, row.id)))
        for game_id, cached in self._loaded.items():
            position = self._positions.get(game_id)
            if position is not None and cached.holds_position(position):
                cached.position = position
        return self._loaded

    def kind_of(self, name: str) -> str | None:
        """The kind of the game called ``name`` (any case), or None when there is none; without a query when
        the row cache knows it (a game never changes its name or kind). Loads and locks nothing."""
        key = name.strip().lower()
        kind = self.kinds.get(key) or (self.rows.kind(key) if self.rows is not None else None)
        if kind is None:
            kind = queries.kind_of_game(self.session, key)
            if kind is not None:
                self.kinds[key] = kind
        return kind

    def claim(self, game_id: int, *, due_by: datetime | None = None, wait: bool = False) -> GameRow | None:
        """Lock and return the row of game ``game_id`` for this unit; None when it is gone, when (``due_by``
        given) the clock has nothing due for it by then, or when another daemon holds its lock (unless
        ``wait``: then wait for it)."""
        row = queries.claim_game(self.session, game_id, due_by=due_by, wait=wait)
        if row is not None:
            self._games[row.name_key] = row
        return row

    def seats(self, row: GameRow) -> list[SeatRow]:
        """Return a game's seats in turn order (a new list; the rows are the unit's).

        Seats are only ever added when a game is created, before anything loads them.
        """
        found = self._seats.get(row.id)
        if found is None:
            found = self._seats[row.id] = queries.seats_of(self.session, row.id)
        return list(found)

    def seat(self, row: GameRow, seat: str) -> SeatRow:
        """Return one seat of a game by name (any case). Raises UnknownSeat naming the seats there are."""
        seats = self.seats(row)
        for seat_row in seats:
            if seat_row.name.upper() == seat.strip().upper():
                return seat_row
        names = ", ".join(s.name for s in seats)
        raise UnknownSeat(f"game {row.name} has no seat {seat!r}; seats are {names}")

    def rng_state(self, row: GameRow) -> list[Any]:
        """The stored state of the game's random generator (empty before the game is set up)."""
        found = self.session.get(GameRngRow, row.id)
        return list(found.state) if found is not None else []

    def set_rng_state(self, row: GameRow, state: list[Any]) -> None:
        """Store the state of the game's random generator (kept apart from the game row)."""
        found = self.session.get(GameRngRow, row.id)
        if found is None:
            found = GameRngRow(game_id=row.id, state=state)
        else:
            found.state = state
        self.session.add(found)

    def snapshot(self, row: GameRow) -> GameInfo:
        """Return the game's snapshot as it stands in this unit now."""
        position = self._positions.get(row.id)
        if position is None or not position.holds_for(row):
            position = self._positions[row.id] = self.positions.read(row)
        return position.info(row, self.seats(row))

    def stored_submission(self, row: GameRow, seat: str, *, ready: bool) -> None:
        """Note that this unit stored the seat's newest submission for the turn awaiting orders, READY or not."""
        self._ready[(row.id, seat, row.turn)] = ready

    def all_ready(self, row: GameRow, seats: Sequence[str]) -> bool:
        """True when the newest submission of each of ``seats`` for the turn awaiting orders says READY.
        A submission this unit stored answers without a query, and one not READY answers at once."""
        known = [self._ready.get((row.id, seat, row.turn)) for seat in seats]
        if False in known:
            return False
        return all(ready or queries.is_ready(self.session, row, seat) for seat, ready in zip(seats, known))

    def info(self, name: str) -> GameInfo:
        """Return the snapshot of the game called ``name``. Raises UnknownGame."""
        return self.snapshot(self.game(name))


_UNIT = "pbem.unit"
"""The key of a session's :attr:`~sqlalchemy.orm.Session.info` that holds its unit of work."""


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context: Any) -> None:
    """Note in the session's unit the games whose rows, or seats' rows, the flush wrote."""
    unit = session.info.get(_UNIT)
    if unit is None or unit.rows is None:
        return
    for row in (*session.new, *session.dirty, *session.deleted):
        if isinstance(row, GameRow):
            unit.note_written(row.id)
        elif isinstance(row, SeatRow):
            unit.note_written(row.game_id)
