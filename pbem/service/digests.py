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
is the one place that decides whether a reader is mailed now. The game row
keeps when the oldest turn some reader was not told of resolved
(``GameRow.news_since``), so the clock finds the games whose digests are due
through the game's wake-up time, never by reading every game's readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, select

from pbem.reports import ReportInput
from pbem.service import owing, queries, reporting
from pbem.service.observers import observers_of
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import AddressPreferenceRow, GameRow, ObserverRow, SeatRow, TurnRecordRow

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
    ``everyone`` (the GM ended the game) every reader gets one: for a reader who was told everything
    already, the game as it stands with no turn told again (:func:`~pbem.service.reporting.ended_report`)."""
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
            due.append(DueReport(reader.seat, reporting.told_report(unit, info, news), reader.observer))
        elif everyone:
            newest = newest or reporting.ended_report(unit, info)
            due.append(DueReport(reader.seat, newest, reader.observer))
    _mark_told(unit, info, readers, due)
    return due


def take_opening(unit: Unit, info: GameInfo) -> list[DueReport]:
    """The opening report of a game just started, to every reader (with the draws of the setup, and
    the turns the service played itself before anybody had a choice); the readers are marked as told."""
    report = reporting.told_report(unit, info, queries.history(unit.session, info.row), setup_draws=True)
    readers = _readers(unit, info)
    due = [DueReport(reader.seat, report, reader.observer) for reader in readers]
    _mark_told(unit, info, readers, due)
    return due


def news_due_at(row: GameRow) -> datetime:
    """When the oldest news a reader of the game of ``row`` was not told of (``row.news_since``, which must
    be set) will have waited the game's ``digest_hours``: the clock mails the digests due then."""
    assert row.news_since is not None
    return row.news_since + timedelta(hours=row.digest_hours)


def _readers(unit: Unit, info: GameInfo) -> list[_Reader]:
    """The readers of a game's reports with the last turn each was told of: the seats with an address,
    the GM (kept track of even without an address) and the observers."""
    readers = [_Reader(seat, None, seat.address, seat.last_reported_turn) for seat in info.seats if seat.address]
    readers.append(_Reader(None, None, info.row.gm_address, info.row.gm_reported_turn))
    return readers + [_Reader(None, observer, observer.address, observer.last_reported_turn)
                      for observer in observers_of(unit, info.row)]


def _mark_told(unit: Unit, info: GameInfo, readers: Sequence[_Reader], reports: Sequence[DueReport]) -> None:
    """Record that the readers of ``reports`` were told every turn resolved so far, and when the oldest
    turn a reader still waits for resolved (``news_since``)."""
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
    _note_news(unit, info, readers)


def _note_news(unit: Unit, info: GameInfo, readers: Sequence[_Reader]) -> None:
    """Set the game's ``news_since``: when the oldest turn one of ``readers`` (the game's readers, their
    last reported turns marked) was not told of yet resolved (None when every reader was told every turn)."""
    row = info.row
    oldest = min(reader.seat.last_reported_turn if reader.seat is not None
                 else reader.observer.last_reported_turn if reader.observer is not None
                 else row.gm_reported_turn for reader in readers)
    since = None
    if oldest < row.turn - 1:
        since = unit.session.exec(select(TurnRecordRow.resolved_at).where(
            TurnRecordRow.game_id == row.id, TurnRecordRow.turn == oldest + 1)).first()
    if since != row.news_since:
        row.news_since = since
        unit.add(row)
