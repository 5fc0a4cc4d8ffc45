"""Compacting finished games: the states and events of a finished game's turns, the bulk of its record (some
two thirds of a Turkey Chase game's bytes), go compressed together into one row of ``turn_archive``, about a
tenth of their size, and its turn records keep the rest (orders, nonces, draws, generator state, when and why).

Nothing is lost, and nothing a record hashes changes: :func:`restored` puts the states and events back into
the turn records read (``queries.history`` does it for every reader: the web archive, the reports of earlier
turns, ``pbem replay``, ``pbem verify``, ``pbem record``). A game is compacted once it has been finished for
the operator's ``pbem serve --compact-after-days`` (the daemon does it with the hourly retention purge), and
only when the compressed copy reads back exactly as what it replaces. States and events hold no address
(seats go by their names), so forgetting a player (``pbem forget``) has nothing to change in an archive.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import delete, exists, func
from sqlmodel import Session, select

from pbem.store import Database
from pbem.store.tables import GameRow, GameStatus, TurnArchiveRow, TurnRecordRow

_log = logging.getLogger(__name__)

ARCHIVE_VERSION = 1
"""The version of the compressed layout: ``{"v": 1, "turns": {"<turn>": {"state": ..., "events": [...]}}}``."""

COMPACT_BATCH = 50
"""Most games one call of :func:`compact_finished` compacts."""

DEFAULT_COMPACT_AFTER = timedelta(days=30)
"""How long a finished game keeps its turns' states and events uncompressed (``--compact-after-days``)."""


class ArchivedTurn(NamedTuple):
    """What compaction takes out of one turn record: its state and its rules' events."""

    state: dict[str, Any]
    events: list[dict[str, Any]]


def pack(records: Sequence[TurnRecordRow]) -> bytes:
    """The states and events of ``records`` as one compressed block (zlib of their canonical JSON)."""
    turns = {str(record.turn): {"state": record.state, "events": record.events} for record in records}
    text = json.dumps({"v": ARCHIVE_VERSION, "turns": turns}, sort_keys=True, separators=(",", ":"))
    return zlib.compress(text.encode("utf-8"), 9)


def unpack(data: bytes) -> dict[int, ArchivedTurn]:
    """The turns a block made by :func:`pack` holds, by turn number."""
    turns: Mapping[str, Mapping[str, Any]] = json.loads(zlib.decompress(data))["turns"]
    return {int(turn): ArchivedTurn(kept["state"], kept["events"]) for turn, kept in turns.items()}


def restored(session: Session, row: GameRow, records: Sequence[TurnRecordRow]) -> list[TurnRecordRow]:
    """``records`` (turn records of ``row``) with their states and events, taken from the game's archive when it
    was compacted: copies, not in the session (what is stored stays compacted). Records of a game not
    compacted come back as they are."""
    archive = session.get(TurnArchiveRow, row.id) if row.status == GameStatus.FINISHED and records else None
    if archive is None:
        return list(records)
    kept = unpack(archive.data)
    return [_copy(record, state=kept[record.turn].state, events=kept[record.turn].events) if record.turn in kept
            else record for record in records]


def _copy(record: TurnRecordRow, **changes: Any) -> TurnRecordRow:
    """A new turn record (not in any session) like ``record``, but for ``changes``."""
    columns = TurnRecordRow.__table__.columns  # type: ignore[attr-defined]
    return TurnRecordRow(**{**{column.name: getattr(record, column.name) for column in columns}, **changes})


def compact(session: Session, row: GameRow, now: datetime) -> bool:
    """Compact the finished game ``row``: its turns' states and events go into its archive, compressed, and its
    turn records keep neither. Return False (and change nothing) for a game not finished, compacted already,
    without turns, or whose compressed copy would not read back exactly."""
    if row.status != GameStatus.FINISHED or session.get(TurnArchiveRow, row.id) is not None:
        return False
    query = select(TurnRecordRow).where(TurnRecordRow.game_id == row.id).order_by(TurnRecordRow.turn)  # type: ignore[arg-type]
    records = list(session.exec(query))
    if not records:
        return False
    data = pack(records)
    if unpack(data) != {record.turn: ArchivedTurn(record.state, record.events) for record in records}:
        _log.warning("compaction: the compressed turns of %s do not read back as stored; left as they are", row.name)
        return False
    # Written anew rather than updated in place: SQLite keeps rows in the order of their ids, so rows that shrank
    # where they are would leave their pages nearly empty for good (no newer row ever goes there), while deleted
    # ones free those pages once every game in them is compacted, and the short rows fill pages of their own.
    session.execute(delete(TurnRecordRow).where(TurnRecordRow.game_id == row.id))  # type: ignore[arg-type]
    for record in records:
        session.expunge(record)
    session.add_all([_copy(record, id=None, state={}, events=[]) for record in records])
    session.add(TurnArchiveRow(game_id=row.id, data=data, compacted_at=now))
    return True


def compact_finished(db: Database, now: datetime, *, after: timedelta = DEFAULT_COMPACT_AFTER,
                     limit: int = COMPACT_BATCH) -> int:
    """Compact (:func:`compact`) up to ``limit`` finished games whose last turn was resolved more than ``after``
    before ``now``, each in a transaction of its own; return how many were compacted."""
    before = now - after
    last = (select(TurnRecordRow.game_id, func.max(TurnRecordRow.resolved_at).label("last"))
            .group_by(TurnRecordRow.game_id).subquery())
    due = (select(GameRow.id).join(last, last.c.game_id == GameRow.id)  # type: ignore[arg-type]
           .where(GameRow.status == GameStatus.FINISHED, last.c.last < before,
                  ~exists().where(TurnArchiveRow.game_id == GameRow.id))
           .order_by(GameRow.id).limit(limit))  # type: ignore[arg-type]
    with db.session() as session:
        game_ids = list(session.exec(due))
    compacted = 0
    for game_id in game_ids:
        with db.session() as session:
            row = session.exec(select(GameRow).where(GameRow.id == game_id).with_for_update()).one()
            compacted += compact(session, row, now)
    if compacted:
        _log.info("compaction: %d finished game(s) compacted", compacted)
    return compacted
