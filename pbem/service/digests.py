"""Who is mailed a report now, and what it tells: a report after every step, or digests.

Whether a reader reads digests is decided per reader: the address's own
``SET DIGEST ON|OFF`` when it gave one (:class:`~pbem.store.tables.AddressPreferenceRow`),
else the game's service option ``reports=each|digest`` (whose default is the
game's :attr:`~pbem.core.game.BaseGame.default_reports`). A reader that does
not read digests gets a report after every resolution. A digest reader is
mailed only when it owes orders in the new step, when the game is over, or
when the game's ``digest_hours`` passed since the first turn it was not told
of (the clock looks for those); then one mail tells every turn since its
last report. The readers are the seats (each its own view), the GM and each
observer (the public report).

Each reader's last reported turn is kept (``SeatRow.last_reported_turn``,
``GameRow.gm_reported_turn``, ``ObserverRow.last_reported_turn``) and moved
in the unit that queues the mail, so no turn is ever lost from a reader's
mail, nor told twice. :func:`mailed_now`
is the one place that decides whether a reader is mailed now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, func, or_
from sqlmodel import Session, select

from pbem.reports import ReportInput
from pbem.service import owing, queries, reporting
from pbem.service.observers import observers_of
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import AddressPreferenceRow, GameRow, GameStatus, ObserverRow, SeatRow, TurnRecordRow

EACH = "each"
DIGEST = "digest"


@dataclass(frozen=True)
class DueReport:
    """A report to mail now: to ``seat`` (its own view), to ``observer`` (the public report), or with
    neither the GM's public copy."""

    seat: SeatRow | None
    report: ReportInput
    observer: ObserverRow | None = None


@dataclass(frozen=True)
class _Reader:
    """Somebody the game's reports go to, with the last turn it was told of."""

    seat: SeatRow | None
    observer: ObserverRow | None
    address: str | None
    told: int


def reads_digest(session: Session, address: str | None, row: GameRow) -> bool:
    """Whether reports to ``address`` in the game of ``row`` come as digests: the address's own SET DIGEST
    ON|OFF when it gave one, else the game's ``reports`` option."""
    preference = session.get(AddressPreferenceRow, address.lower()) if address else None
    if preference is not None and preference.digest is not None:
        return preference.digest
    return row.reports == DIGEST


def mailed_now(*, digest: bool, owes: bool, over: bool, waiting_since: datetime | None, digest_hours: float,
               now: datetime) -> bool:
    """True when a reader with news waiting (its first unreported turn resolved at ``waiting_since``) is
    mailed now: always when it does not read digests; else when it owes orders, the game is over, or
    ``digest_hours`` passed since ``waiting_since``."""
    if not digest or owes or over:
        return True
    return waiting_since is not None and now >= waiting_since + timedelta(hours=digest_hours)


def take_reports(unit: Unit, info: GameInfo, *, everyone: bool = False) -> list[DueReport]:
    """The reports due now to the readers of a game (each seat with an address, the GM, each observer),
    each telling every turn since the reader's last report; those readers are marked as told. With
    ``everyone`` (the GM ended the game) every reader gets one, the newest report again for a reader
    who was told everything already."""
    row = info.row
    readers = _readers(unit, info)
    records = queries.history(unit.session, row, since=min(reader.told for reader in readers) + 1)
    choosing = set(owing.choosing_seats(info)) if info.phase is not None and info.outcome is None else set()
    now = unit.now()
    due: list[DueReport] = []
    newest: ReportInput | None = None
    for reader in readers:
        news = [record for record in records if record.turn > reader.told]
        if news and (everyone or mailed_now(digest=reads_digest(unit.session, reader.address, row),
                                            owes=reader.seat is not None and reader.seat.name in choosing,
                                            over=info.outcome is not None, waiting_since=news[0].resolved_at,
                                            digest_hours=row.digest_hours, now=now)):
            due.append(DueReport(reader.seat, reporting.records_report(info, news), reader.observer))
        elif everyone:
            newest = newest or reporting.last_report(unit, row.name)
            due.append(DueReport(reader.seat, newest, reader.observer))
    _mark_told(unit, info, due)
    return due


def take_opening(unit: Unit, info: GameInfo) -> list[DueReport]:
    """The opening report of a game just started, to every reader (with the draws of the setup, and
    the turns the service played itself before anybody had a choice); the readers are marked as told."""
    report = reporting.records_report(info, queries.history(unit.session, info.row), setup_draws=True)
    due = [DueReport(reader.seat, report, reader.observer) for reader in _readers(unit, info)]
    _mark_told(unit, info, due)
    return due


def games_with_digests_due(session: Session, now: datetime) -> list[str]:
    """The running games in which a reader's news waited ``digest_hours`` (only digest readers ever
    wait): from light queries (the readers' last reported turns, one turn record per game)."""
    games = session.exec(
        select(GameRow.id, GameRow.name, GameRow.turn, GameRow.digest_hours, GameRow.gm_reported_turn)
        .where(GameRow.status.in_([GameStatus.ACTIVE, GameStatus.PAUSED]))  # type: ignore[attr-defined]
    ).all()
    if not games:
        return []
    told: dict[int, int] = {game_id: gm_turn for game_id, _, _, _, gm_turn in games}
    for game_id, seats_told in session.exec(
        select(SeatRow.game_id, func.min(SeatRow.last_reported_turn))
        .where(SeatRow.game_id.in_(list(told)), SeatRow.address.is_not(None))  # type: ignore[attr-defined,union-attr]
        .group_by(SeatRow.game_id)
    ):
        told[game_id] = min(seats_told, told[game_id])
    for game_id, observers_told in session.exec(
        select(ObserverRow.game_id, func.min(ObserverRow.last_reported_turn))
        .where(ObserverRow.game_id.in_(list(told)))  # type: ignore[attr-defined]
        .group_by(ObserverRow.game_id)
    ):
        told[game_id] = min(observers_told, told[game_id])
    waiting = {game_id: told[game_id] + 1 for game_id, _, turn, _, _ in games if told[game_id] < turn - 1}
    if not waiting:
        return []
    since = dict(session.exec(
        select(TurnRecordRow.game_id, TurnRecordRow.resolved_at)
        .where(or_(*(and_(TurnRecordRow.game_id == game_id, TurnRecordRow.turn == turn)  # type: ignore[arg-type]
                     for game_id, turn in waiting.items())))
    ).all())
    return sorted(name for game_id, name, _, hours, _ in games
                  if game_id in since and now >= since[game_id] + timedelta(hours=hours))


def _readers(unit: Unit, info: GameInfo) -> list[_Reader]:
    """The readers of a game's reports with the last turn each was told of: the seats with an address,
    the GM (kept track of even without an address) and the observers."""
    readers = [_Reader(seat, None, seat.address, seat.last_reported_turn) for seat in info.seats if seat.address]
    readers.append(_Reader(None, None, info.row.gm_address, info.row.gm_reported_turn))
    return readers + [_Reader(None, observer, observer.address, observer.last_reported_turn)
                      for observer in observers_of(unit, info.row)]


def _mark_told(unit: Unit, info: GameInfo, reports: Sequence[DueReport]) -> None:
    """Record that the readers of ``reports`` were told every turn resolved so far."""
    told = info.row.turn - 1
    for due in reports:
        if due.observer is not None:
            due.observer.last_reported_turn = told
            unit.add(due.observer)
        elif due.seat is not None:
            due.seat.last_reported_turn = told
            unit.add(due.seat)
        else:
            info.row.gm_reported_turn = told
            unit.add(info.row)
