"""A game's rows kept across units of work: :class:`RowCache`, keyed by the game's id and version.

A daemon reads the same games mail after mail. Every write of a game's row or of one of its seats raises the
game's version (the database does it: migration 0026), so a unit reads one number, the version, and when the
cache holds the game at that version it builds the game's and seats' rows from what it holds instead of
loading them (and takes the game's position read through its rules too). The rows a unit is given are its
own: it may change them as it changes any row it loaded.

What a unit loads goes into the cache only once the unit committed (:meth:`RowCache.keep`), and only rows
read as they stood at one version (the version read again after the seats, or the game locked): a unit
that rolls back leaves nothing, and a write by any other unit, daemon or program raises the version, so the
next unit misses and loads the rows afresh. JSON values (the state, the options) are shared between the
cache and the rows built from it: they are replaced, never changed in place (as :class:`Position` assumes).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.orm.attributes import instance_state
from sqlmodel import Session

from pbem.service.snapshot import Position
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import GameRow, GameStatus, SeatRow

_GAME = GameRow.__table__  # type: ignore[attr-defined]
_GAME_COLUMNS = tuple(column.key for column in _GAME.columns)
_SEAT_COLUMNS = tuple(column.key for column in SeatRow.__table__.columns)  # type: ignore[attr-defined]
_VERSION_BY_NAME = select(_GAME.c.id, _GAME.c.version).where(_GAME.c.name_key == bindparam("key"))
_VERSION_BY_NAME_FREE = DriverStatement(_VERSION_BY_NAME)
_VERSION_BY_NAME_LOCKED = DriverStatement(_VERSION_BY_NAME.with_for_update())
_VERSION_BY_ID = DriverStatement(select(_GAME.c.version).where(_GAME.c.id == bindparam("game_id")))


def _whole(values: dict[str, Any], columns: tuple[str, ...]) -> bool:
    """True when ``values`` (a row's loaded attributes) hold every one of ``columns``."""
    return all(column in values for column in columns)


def version_by_name(session: Session, key: str, *, lock: bool) -> tuple[int, int] | None:
    """The id and version of the game whose ``name_key`` is ``key``, or None; with ``lock``, the game's row is
    locked until the transaction ends (as :func:`pbem.service.queries.game_by_name` locks it)."""
    found = (_VERSION_BY_NAME_LOCKED if lock else _VERSION_BY_NAME_FREE).first(session.connection(), {"key": key})
    return (found[0], found[1]) if found is not None else None


def version_of(session: Session, game_id: int) -> int | None:
    """The version of game ``game_id`` as the session sees it now, or None when there is no such game."""
    found = _VERSION_BY_ID.first(session.connection(), {"game_id": game_id})
    return found[0] if found is not None else None


@dataclass
class CachedGame:
    """A game's rows as they stood at ``version``: the column values of its row and of its seats (in turn
    order), and its position read through its rules from that state (None until a unit read it)."""

    version: int
    game: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    identities: tuple[Any, ...]
    """The identity keys of the rows (a session holds each row under its key)."""
    position: Position | None = field(default=None)

    @classmethod
    def of(cls, row: GameRow, seats: list[SeatRow], *, version: int | None = None) -> CachedGame | None:
        """The values of ``row`` and ``seats`` as they are now: as loaded (``version``: the row's), or as the
        unit wrote them (``version``: the one the database gave its writes); None when a row's values are not
        all at hand (a bulk write expired them, or the row was deleted): such a game is not kept."""
        values = row.__dict__
        if not _whole(values, _GAME_COLUMNS) or not all(_whole(seat.__dict__, _SEAT_COLUMNS) for seat in seats):
            return None
        return cls(values["version"] if version is None else version, {key: values[key] for key in _GAME_COLUMNS},
                   tuple({key: seat.__dict__[key] for key in _SEAT_COLUMNS} for seat in seats),
                   tuple(inspect(loaded).key for loaded in (row, *seats)))

    def rows(self, session: Session) -> tuple[GameRow, list[SeatRow]]:
        """New rows of the game and its seats with the values held, attached to ``session`` as rows it
        loaded (unchanged: a change made to them is written at the flush, as to any row)."""
        keys = iter(self.identities)
        game = _attach(session, GameRow, self.game, next(keys))
        return game, [_attach(session, SeatRow, values, key) for values, key in zip(self.seats, keys, strict=True)]

    def is_in(self, session: Session) -> bool:
        """True when ``session`` holds the row of the game or of one of its seats already (the unit's own
        rows then count: new ones cannot be attached beside them)."""
        held = session.identity_map
        return any(key in held for key in self.identities)

    def holds_position(self, position: Position) -> bool:
        """True when ``position`` was read from the state, status and end held here."""
        game = self.game
        return position.read_from(game["state"], game["status"], game["ended_by_gm"], game["agreed_end"])


def _attach(session: Session, table: type[Any], values: dict[str, Any], key: Any) -> Any:
    """A new row of ``table`` with ``values`` (every column), persistent in ``session`` under identity ``key``
    and clean, as the ORM builds a row it loads: its values set past the attributes' instrumentation (no history),
    its identity set, then attached as ``Session.add`` attaches a detached row (identity map, attach events),
    without ``make_transient_to_detached``'s look for unloaded attributes (there are none) and the save cascade
    (these tables have no relationships). Half the CPU of those two public calls, some 120 us a mail
    (bench/bench_handler.py); tests/service/test_game_version.py holds the rows to behave as loaded ones."""
    row = table._sa_class_manager.new_instance()  # noqa: SLF001 - as the ORM builds the rows it loads
    row.__dict__.update(values)
    state = instance_state(row)
    state.key = key
    session._update_impl(state)  # noqa: SLF001 - Session.add's step for a detached row, past its cascade
    return row


class RowCache:
    """Games' rows (:class:`CachedGame`) kept between units of work, by game id; at most ``size`` games (the
    oldest kept goes first), and only games not finished (a finished game is read now and then, by the
    archive or a late mail, and need not stay). Safe to share between threads."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._entries: dict[int, CachedGame] = {}
        self._kinds: dict[str, str] = {}  # name_key -> kind: a game keeps its name and kind for good
        self._lock = threading.Lock()

    def kind(self, key: str) -> str | None:
        """The kind of the game whose ``name_key`` is ``key``, when known."""
        return self._kinds.get(key)

    def keep_kinds(self, kinds: dict[str, str]) -> None:
        """Keep the kinds of games (by ``name_key``) a unit that committed read; at most ``size`` of them."""
        with self._lock:
            for key, kind in kinds.items():
                if key not in self._kinds and len(self._kinds) >= self.size:
                    del self._kinds[next(iter(self._kinds))]
                self._kinds[key] = kind

    def get(self, game_id: int, version: int) -> CachedGame | None:
        """The game's rows as they stood at ``version``, when held."""
        with self._lock:
            found = self._entries.get(game_id)
        return found if found is not None and found.version == version else None

    def keep(self, entries: dict[int, CachedGame]) -> None:
        """Keep ``entries`` (by game id): what a unit that committed read at their versions (and their games'
        kinds by name, as :meth:`keep_kinds`)."""
        self.keep_kinds({entry.game["name_key"]: entry.game["kind"] for entry in entries.values()})
        with self._lock:
            for game_id, entry in entries.items():
                held = self._entries.pop(game_id, None)
                if held is not None and held.version > entry.version:  # kept meanwhile by a later unit
                    self._entries[game_id] = held
                    continue
                if entry.game["status"] == GameStatus.FINISHED:
                    continue
                if len(self._entries) >= self.size:
                    del self._entries[next(iter(self._entries))]
                self._entries[game_id] = entry
