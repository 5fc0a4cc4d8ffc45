"""Compacting finished games: everything a finished game keeps per turn (its turn records with their states and
events, the submissions its seats sent, the lines of its record's chain) goes compressed into one row of
``turn_archive`` (one document, LZMA of its canonical JSON), and the rows it came from are deleted. A Turkey Chase
game so takes some a fifth of its bytes.

Nothing is lost, and nothing a record hashes changes: :func:`archive_of` reads a compacted game's rows back whole,
and the readers go through it (``queries.history`` for the turn records: the web archive, the reports of earlier
turns, ``pbem replay``, ``pbem verify``, ``pbem record``; ``record.entries`` for the record's chain;
``record_check`` for the submissions). A game is compacted once it has been finished for the operator's
``pbem serve --compact-after-days`` (the daemon does it with the hourly retention purge), and only when the
compressed copy reads back exactly as what it replaces. Submission texts may quote an address: forgetting it
(``pbem forget``) rewrites the archives that hold it (:func:`rewrite_archives`).
"""

from __future__ import annotations

import json
import logging
import lzma
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Column, DateTime, Table, TypeDecorator, delete, exists, func
from sqlmodel import Session, SQLModel, select

from pbem.store import Database
from pbem.store.tables import GameRow, GameStatus, RecordEntryRow, SubmissionRow, TurnArchiveRow, TurnRecordRow

_log = logging.getLogger(__name__)

ARCHIVE_VERSION = 2
"""The version of the compressed layout: ``{"v": 2, "tables": {"<table>": [{"<column>": value, ...}, ...]}}``,
every column of each archived row but its game (times as ISO texts), compressed by :data:`_FILTERS`. Version 1
(migration 0028, zlib) held only the turns' states and events; migration 0029 rewrites such archives as version 2."""

_FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 2**18}]
"""LZMA2 without a container (no header to store a thousand times): a fifth smaller than zlib's best on a game's
rows. Its window is 256 KB (what a turn repeats of the turns before it lies well within it), where the preset's
64 MB would make every compression take some 70 MB of memory that the process then keeps; with it, about 1 MB."""

ARCHIVED: tuple[type[SQLModel], ...] = (TurnRecordRow, SubmissionRow, RecordEntryRow)
"""The tables whose rows of a compacted game live in its archive (and nowhere else)."""

COMPACT_BATCH = 50
"""Most games one call of :func:`compact_finished` compacts."""

DEFAULT_COMPACT_AFTER = timedelta(days=30)
"""How long a finished game keeps its rows uncompressed (``--compact-after-days``)."""


class UnknownArchiveVersion(ValueError):
    """A ``turn_archive`` block of a layout this code does not read."""


Rows = dict[str, list[dict[str, Any]]]
"""Rows by table name, each a dict of its columns."""


@dataclass(frozen=True)
class Archive:
    """A compacted game's rows read back: copies, in no session (what is stored stays compacted)."""

    records: list[TurnRecordRow]  # by turn
    submissions: list[SubmissionRow]  # by id (the order they were received in)
    chain: list[RecordEntryRow]  # by seq


def pack(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> bytes:
    """``rows`` (by table name; the game's own column left out) as one compressed block."""
    tables = {name: [{column: _plain(value) for column, value in row.items()} for row in table_rows]
              for name, table_rows in rows.items()}
    text = json.dumps({"v": ARCHIVE_VERSION, "tables": tables}, sort_keys=True, separators=(",", ":"))
    return lzma.compress(text.encode("utf-8"), format=lzma.FORMAT_RAW, filters=_FILTERS)


def _text(data: bytes) -> str:
    """The JSON text of a block made by :func:`pack`."""
    return lzma.decompress(data, format=lzma.FORMAT_RAW, filters=_FILTERS).decode("utf-8")


def unpack(data: bytes, tables: Mapping[str, Table]) -> Rows:
    """The rows a block made by :func:`pack` holds, by table name, their times read back by the columns of
    ``tables`` (by name). Raise :class:`UnknownArchiveVersion` for a block of another layout."""
    document = json.loads(_text(data))
    if document.get("v") != ARCHIVE_VERSION:
        raise UnknownArchiveVersion(f"turn_archive layout v{document.get('v')}; this code reads v{ARCHIVE_VERSION}")
    return {name: [_typed(tables[name], row) for row in table_rows] for name, table_rows in document["tables"].items()}


def _plain(value: Any) -> Any:
    """``value`` as JSON holds it: a time as its ISO text (a naive time, as a bare table gives it, is UTC)."""
    if isinstance(value, datetime):
        return (value if value.tzinfo is not None else value.replace(tzinfo=UTC)).isoformat()
    return value


def _typed(table: Table, row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` (as :func:`pack` wrote it) with the texts of ``table``'s time columns read back as times."""
    return {name: datetime.fromisoformat(value) if value is not None and _is_time(table.c[name]) else value
            for name, value in row.items()}


def _is_time(column: Column[Any]) -> bool:
    """True for a column of times (also behind a type decorator, as sqlmodel's are)."""
    kind = column.type.impl if isinstance(column.type, TypeDecorator) else column.type
    return isinstance(kind, DateTime)


def _table(model: type[SQLModel]) -> Table:
    return model.__table__  # type: ignore[attr-defined,no-any-return]


_TABLES = {_table(model).name: _table(model) for model in ARCHIVED}


def archive_of(session: Session, row: GameRow) -> Archive | None:
    """The rows of the compacted game ``row`` read back from its archive; None for a game not compacted (its rows
    are in their tables)."""
    stored = session.get(TurnArchiveRow, row.id) if row.status == GameStatus.FINISHED else None
    if stored is None:
        return None
    rows = unpack(stored.data, _TABLES)

    def built(model: type[SQLModel]) -> list[Any]:
        return [model(game_id=row.id, **kept) for kept in rows.get(_table(model).name, [])]
    return Archive(records=sorted(built(TurnRecordRow), key=lambda record: record.turn),
                   submissions=sorted(built(SubmissionRow), key=lambda sent: sent.id),
                   chain=sorted(built(RecordEntryRow), key=lambda entry: entry.seq))


def game_rows(session: Session, game_id: int) -> Rows:
    """Every row of :data:`ARCHIVED` that the game ``game_id`` has in its tables, by table name, each a dict of its
    columns but the game's."""
    rows: Rows = {}
    for model in ARCHIVED:
        table = _table(model)
        found = session.execute(table.select().where(table.c.game_id == game_id).order_by(table.c.id)).mappings()
        rows[table.name] = [{name: value for name, value in kept.items() if name != "game_id"} for kept in found]
    return rows


def compact(session: Session, row: GameRow, now: datetime) -> bool:
    """Compact the finished game ``row``: its rows of :data:`ARCHIVED` go into its archive, compressed, and are
    deleted from their tables. Return False (and change nothing) for a game not finished, compacted already,
    without turns, or whose compressed copy would not read back exactly."""
    if row.status != GameStatus.FINISHED or session.get(TurnArchiveRow, row.id) is not None:
        return False
    session.flush()
    rows = game_rows(session, row.id)
    if not rows[_table(TurnRecordRow).name]:
        return False
    data = pack(rows)
    if unpack(data, _TABLES) != rows:
        _log.warning("compaction: the compressed rows of %s do not read back as stored; left as they are", row.name)
        return False
    for model in ARCHIVED:
        table = _table(model)
        session.execute(delete(table).where(table.c.game_id == row.id))
    session.expire_all()
    session.add(TurnArchiveRow(game_id=row.id, data=data, compacted_at=now, addresses=quoted_addresses(rows)))
    return True


_ADDRESS = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+")
"""A mail address as a text may quote one (letters of any script, as pbem takes addresses)."""


def quoted_addresses(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """The mail addresses the texts of ``rows`` (by table name) quote, in lower case, each once, sorted and each
    between spaces (``" ann@example.org bob@example.org "``): what ``turn_archive.addresses`` keeps, so that
    forgetting an address reads only the archives that quote it."""
    found = {address.lower() for text in _texts(rows) for address in _ADDRESS.findall(text)}
    return f" {' '.join(sorted(found))} " if found else ""


def _texts(value: Any) -> Iterator[str]:
    """Every text in ``value`` (texts, and dicts and lists of them, keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def rewrite_archives(session: Session, needle: str, change: Callable[[Any], Any]) -> int:
    """Rewrite every archive whose rows hold ``needle`` (in lower case) in a text: each row goes through ``change``
    (a dict of columns in, the same out, changed). Return the archives rewritten."""
    rewritten = 0
    for stored in list(archives_holding(session, needle)):
        rows = unpack(stored.data, _TABLES)
        changed = {name: [change(kept) for kept in table_rows] for name, table_rows in rows.items()}
        stored.data, stored.addresses = pack(changed), quoted_addresses(changed)
        session.add(stored)
        rewritten += 1
    return rewritten


def archives_holding(session: Session, address: str) -> Iterator[TurnArchiveRow]:
    """The archives whose rows quote the mail address ``address`` (in lower case) in a text: only those whose
    ``addresses`` name it are read and decompressed (a look through one short column, however many games were
    compacted)."""
    query = (select(TurnArchiveRow).where(TurnArchiveRow.addresses.contains(f" {address} ", autoescape=True))  # type: ignore[attr-defined]
             .execution_options(yield_per=100))
    yield from session.exec(query)


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
