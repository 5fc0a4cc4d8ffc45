"""The service's reads of the database, each one query; the statements of the hot paths
are built once (building one costs more than running it on SQLite, and SQLAlchemy then
also keeps their cache keys)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, func, insert
from sqlmodel import Session, select

from pbem.service import compaction
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import GameRow, GameStatus, SeatRow, SubmissionRow, TurnRecordRow

_SUBMISSIONS = SubmissionRow.__table__  # type: ignore[attr-defined]
INSERT_SUBMISSION = DriverStatement(insert(_SUBMISSIONS))
"""Stores one submission as one INSERT on the session's connection, in its transaction (what the
session reads next comes from the database): no ORM object to build and flush."""
_LATEST_VERSION = DriverStatement(select(func.max(_SUBMISSIONS.c.version)).where(
    _SUBMISSIONS.c.game_id == bindparam("game_id"), _SUBMISSIONS.c.seat == bindparam("seat"),
    _SUBMISSIONS.c.turn == bindparam("turn"),
))
_NEWEST_READY = select(_SUBMISSIONS.c.ready).where(
    _SUBMISSIONS.c.game_id == bindparam("game_id"), _SUBMISSIONS.c.seat == bindparam("seat"),
    _SUBMISSIONS.c.turn == bindparam("turn"), _SUBMISSIONS.c.rolled_back == False,  # noqa: E712
).order_by(_SUBMISSIONS.c.version.desc()).limit(1)
_GAME_BY_NAME = select(GameRow).where(GameRow.name_key == bindparam("key"))
_GAME_BY_NAME_LOCKED = _GAME_BY_NAME.with_for_update()
_GAME_BY_ID = select(GameRow).where(GameRow.id == bindparam("game_id"))
_CLAIM = _GAME_BY_ID.with_for_update(skip_locked=True)
_CLAIM_WAITING = _GAME_BY_ID.with_for_update()
_CLAIM_DUE = _GAME_BY_ID.where(GameRow.wake_at <= bindparam("due_by")).with_for_update(  # type: ignore[operator]
    skip_locked=True)
_SEATS_OF_GAME = select(SeatRow).where(SeatRow.game_id == bindparam("game_id")).order_by(
    SeatRow.position  # type: ignore[arg-type]
)
_CURRENT_SUBMISSION = (
    select(SubmissionRow)
    .where(SubmissionRow.game_id == bindparam("game_id"), SubmissionRow.seat == bindparam("seat"),
           SubmissionRow.turn == bindparam("turn"), SubmissionRow.rolled_back == False)  # noqa: E712
    .order_by(SubmissionRow.version.desc())  # type: ignore[attr-defined]
)


_KIND_BY_NAME = select(GameRow.kind).where(GameRow.name_key == bindparam("key"))


def kind_of_game(session: Session, name: str) -> str | None:
    """The kind of the game called ``name`` (any case), or None when there is none: one column read, no row
    built (the mail's script asks it before the game's row is loaded, and locked, for its commands)."""
    return session.connection().execute(_KIND_BY_NAME, {"key": name.strip().lower()}).scalar()


def game_by_name(session: Session, name: str, *, lock: bool = False) -> GameRow | None:
    """The row of the game called ``name`` (any case), or None; with ``lock``, locked until the
    transaction ends (waiting for another transaction that holds it)."""
    query = _GAME_BY_NAME_LOCKED if lock else _GAME_BY_NAME
    return session.execute(query, {"key": name.strip().lower()}).scalars().first()


NAMES_LOOKED_AT = 1000
"""The newest games whose names a mistyped game name is compared with ("did you mean")."""
_GAME_NAMES = select(GameRow.name).order_by(GameRow.id.desc()).limit(NAMES_LOOKED_AT)  # type: ignore[union-attr]


def game_names(session: Session) -> list[str]:
    """The names of the newest :data:`NAMES_LOOKED_AT` games, newest first."""
    return list(session.execute(_GAME_NAMES).scalars())


def game_by_id(session: Session, game_id: int) -> GameRow | None:
    """The row of game ``game_id``, or None."""
    return session.execute(_GAME_BY_ID, {"game_id": game_id}).scalars().first()


def claim_game(session: Session, game_id: int, *, due_by: datetime | None = None,
               wait: bool = False) -> GameRow | None:
    """The row of game ``game_id``, locked until the transaction ends; None when there is none, when
    another transaction holds its lock (``SKIP LOCKED``; with ``wait``, waits instead) or, with
    ``due_by``, when its ``wake_at`` is later than that or unset."""
    if due_by is not None:
        found = session.execute(_CLAIM_DUE, {"game_id": game_id, "due_by": due_by})
    else:
        found = session.execute(_CLAIM_WAITING if wait else _CLAIM, {"game_id": game_id})
    return found.scalars().first()


def seats_of(session: Session, game_id: int | None) -> list[SeatRow]:
    """A game's seats in turn order."""
    return list(session.execute(_SEATS_OF_GAME, {"game_id": game_id}).scalars())


def latest_version(session: Session, row: GameRow, seat: str) -> int:
    """The highest version of the seat's submissions for the turn awaiting orders (0: none)."""
    found = _LATEST_VERSION.first(session.connection(), {"game_id": row.id, "seat": seat, "turn": row.turn})
    assert found is not None  # an aggregate has one row
    return found[0] or 0


def current_submission(session: Session, row: GameRow, seat: str) -> SubmissionRow | None:
    """The seat's newest submission for the turn awaiting orders, or None."""
    found = session.execute(_CURRENT_SUBMISSION, {"game_id": row.id, "seat": seat, "turn": row.turn})
    return found.scalars().first()


def is_ready(session: Session, row: GameRow, seat: str) -> bool:
    """True when the seat's newest submission for the turn awaiting orders says READY (one column of
    one row: no ORM object to build)."""
    found = session.connection().execute(_NEWEST_READY, {"game_id": row.id, "seat": seat, "turn": row.turn})
    return bool(found.scalar())


_RECEIVED_THIS_TURN = (
    select(SubmissionRow.seat, func.max(SubmissionRow.received_at))
    .where(SubmissionRow.game_id == bindparam("game_id"), SubmissionRow.turn == bindparam("turn"),
           SubmissionRow.rolled_back == False)  # noqa: E712
    .group_by(SubmissionRow.seat)
)


def received_this_turn(session: Session, row: GameRow) -> dict[str, datetime]:
    """The seats that sent a submission for the game's turn awaiting orders, with when the newest
    one arrived (one query on the game's own submissions)."""
    found = session.execute(_RECEIVED_THIS_TURN, {"game_id": row.id, "turn": row.turn})
    return {seat: last for seat, last in found}


def history(session: Session, row: GameRow, *, since: int = 1, until: int | None = None) -> list[TurnRecordRow]:
    """Every resolved turn of a game from turn ``since`` on (up to ``until`` when given), in order, each whole
    (a compacted game's read back from its archive: :func:`pbem.service.compaction.archive_of`)."""
    archive = compaction.archive_of(session, row)
    if archive is not None:
        return [record for record in archive.records if record.turn >= since and (until is None or record.turn <= until)]
    query = select(TurnRecordRow).where(TurnRecordRow.game_id == row.id, TurnRecordRow.turn >= since)
    if until is not None:
        query = query.where(TurnRecordRow.turn <= until)
    return list(session.exec(query.order_by(TurnRecordRow.turn)))  # type: ignore[arg-type]


def last_turn(session: Session, row: GameRow) -> int:
    """The newest turn the game resolved (0: none yet), compacted or not."""
    archive = compaction.archive_of(session, row)
    if archive is not None:
        return max((record.turn for record in archive.records), default=0)
    return int(session.exec(select(func.max(TurnRecordRow.turn)).where(TurnRecordRow.game_id == row.id)).one() or 0)


def all_games(session: Session) -> list[GameRow]:
    """Every game, oldest first."""
    return list(session.exec(select(GameRow).order_by(GameRow.id)))  # type: ignore[arg-type]


def games_with_status(session: Session, status: GameStatus) -> list[GameRow]:
    """The games with ``status``, oldest first."""
    return list(session.exec(select(GameRow).where(GameRow.status == status).order_by(GameRow.id)))  # type: ignore[arg-type]


def games_created_since(session: Session, gm_address: str, since: datetime) -> int:
    """How many games ``gm_address`` created from ``since`` on."""
    query = select(func.count()).select_from(GameRow).where(
        GameRow.gm_address == gm_address, GameRow.created_at >= since)  # type: ignore[arg-type]
    return int(session.exec(query).one())


def games_of_address(session: Session, address: str) -> list[GameRow]:
    """The games in which ``address`` (lower case) holds a seat, oldest first."""
    query = (select(GameRow).where(GameRow.id.in_(  # type: ignore[union-attr]
        select(SeatRow.game_id).where(func.lower(SeatRow.address) == address)))  # type: ignore[arg-type]
        .order_by(GameRow.id))  # type: ignore[arg-type]
    return list(session.exec(query))
