"""Who is mailed a report now, and what it tells: a report after every step, or digests.

Whether a reader reads digests is decided per reader: the address's own
``SET DIGEST ON|OFF`` when it gave one (:class:`~pbem.store.tables.AddressPreferenceRow`),
else the game's service option ``reports=each|digest`` (whose default is the
game's :attr:`~pbem.core.game.BaseGame.default_reports`). A reader that does
not read digests gets a report after every resolution. A digest reader is
mailed only when it owes orders in the new step, when the game is over, or
when the game's ``digest_hours`` passed since the first turn it was not told
of (the clock looks for those); then one mail tells every turn since its
last report. The public copies (the GM's, and the observers' with it) are one
reader, following the GM address's preference, else the game's option.

Each reader's last reported turn is kept (``SeatRow.last_reported_turn``,
``GameRow.gm_reported_turn``) and moved in the unit that queues the mail, so
no turn is ever lost from a reader's mail, nor told twice. :func:`mailed_now`
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
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import AddressPreferenceRow, GameRow, GameStatus, SeatRow, TurnRecordRow

EACH = "each"
DIGEST = "digest"


@dataclass(frozen=True)
class DueReport:
    """A report to mail now: to ``seat`` (its own view), or with ``seat`` None the public copies (the
    GM's and the observers')."""

    seat: SeatRow | None
    report: ReportInput


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
    """The reports due now to the readers of a game (each seat with an address, and the public copies),
    each telling every turn since the reader's last report; those readers are marked as told. With
    ``everyone`` (the GM ended the game) every reader gets one, the newest report again for a reader
    who was told everything already."""
    row = info.row
    readers = _readers(info)
    since = min(reported for _, reported in readers)
    records = queries.history(unit.session, row, since=since + 1)
    choosing = set(owing.choosing_seats(info)) if info.phase is not None and info.outcome is None else set()
    now = unit.now()
    due: list[DueReport] = []
    newest: ReportInput | None = None
    for seat, reported in readers:
        news = [record for record in records if record.turn > reported]
        address = seat.address if seat is not None else row.gm_address
        if news and (everyone or mailed_now(digest=reads_digest(unit.session, address, row),
                                            owes=seat is not None and seat.name in choosing,
                                            over=info.outcome is not None, waiting_since=news[0].resolved_at,
                                            digest_hours=row.digest_hours, now=now)):
            due.append(DueReport(seat, reporting.records_report(info, news)))
        elif everyone:
            newest = newest or reporting.last_report(unit, row.name)
            due.append(DueReport(seat, newest))
    _mark_told(unit, info, [report.seat for report in due])
    return due


def take_opening(unit: Unit, info: GameInfo) -> list[DueReport]:
    """The opening report of a game just started, to every reader (with the draws of the setup, and
    the turns the service played itself before anybody had a choice); the readers are marked as told."""
    report = reporting.records_report(info, queries.history(unit.session, info.row), setup_draws=True)
    due = [DueReport(seat, report) for seat, _ in _readers(info)]
    _mark_told(unit, info, [report.seat for report in due])
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


def _readers(info: GameInfo) -> list[tuple[SeatRow | None, int]]:
    """The readers of a game's reports with the last turn each was told of: the seats with an address,
    then the public copies (None), which are kept track of even while nobody receives them."""
    readers: list[tuple[SeatRow | None, int]] = [(seat, seat.last_reported_turn) for seat in info.seats
                                                 if seat.address]
    return readers + [(None, info.row.gm_reported_turn)]


def _mark_told(unit: Unit, info: GameInfo, readers: Sequence[SeatRow | None]) -> None:
    """Record that ``readers`` were told every turn resolved so far."""
    told = info.row.turn - 1
    for seat in readers:
        if seat is None:
            info.row.gm_reported_turn = told
            unit.add(info.row)
        else:
            seat.last_reported_turn = told
            unit.add(seat)
