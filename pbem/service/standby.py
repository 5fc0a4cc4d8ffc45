"""Standby players: addresses on a game kind's standby list (STANDBY <kind>, STANDBY OFF) are
offered a seat whose player missed ``replace_after`` deadlines in a row or resigned, first come
first offered; on ACCEPT the seat is handed over once the GM confirms with REPLACE, or at once
under ``replace=auto``."""

from __future__ import annotations

from sqlmodel import select

from pbem.core import GameError
from pbem.games import find_game
from pbem.service import absences, audit, seats
from pbem.service.news import OfferAccepted, SeatHandedOver, SeatOffered
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, SeatOfferRow, StandbyRow

OPEN = ("open", "accepted")


def join_list(unit: Unit, address: str, kind: str) -> str:
    """Put ``address`` on the standby list of ``kind``; return the kind's name. Raises UnknownGame."""
    name = find_game(kind).name
    if unit.session.get(StandbyRow, (address.lower(), name)) is None:
        unit.add(StandbyRow(address=address.lower(), kind=name, since=unit.now()))
    return name


def leave_lists(unit: Unit, address: str) -> list[str]:
    """Take ``address`` off every standby list; return the kinds it was on."""
    rows = list(unit.session.exec(select(StandbyRow).where(StandbyRow.address == address.lower())))
    for row in rows:
        unit.session.delete(row)
    return sorted(row.kind for row in rows)


def open_offers(unit: Unit, row: GameRow, seat: str | None = None) -> list[SeatOfferRow]:
    """The game's offers that are open or accepted (of one seat when given)."""
    query = select(SeatOfferRow).where(SeatOfferRow.game_id == row.id,
                                       SeatOfferRow.status.in_(OPEN))  # type: ignore[attr-defined]
    return [offer for offer in unit.session.exec(query) if seat is None or offer.seat == seat]


def after_deadline(unit: Unit, row: GameRow, owing: list[str], nmr: list[str]) -> None:
    """Count each owing seat's missed deadlines in a row (not those in an announced absence or the day
    after it), and offer the seats that reached ``replace_after`` (and have no offer open) to the next
    standby."""
    now = unit.now()
    away = {a.seat for a in absences.absences_of(unit, row) if a.starts <= now <= a.ends + absences.AFTER_RETURN}
    for seat_row in unit.seats(row):
        if seat_row.name not in owing or seat_row.name in away:
            continue
        seat_row.missed_deadlines = seat_row.missed_deadlines + 1 if seat_row.name in nmr else 0
        unit.add(seat_row)
        if row.replace_after > 0 and seat_row.missed_deadlines >= row.replace_after and not open_offers(
                unit, row, seat_row.name):
            offer_seat(unit, row, seat_row.name, f"{seat_row.missed_deadlines} missed deadlines in a row")


def offer_seat(unit: Unit, row: GameRow, seat: str, reason: str) -> SeatOfferRow | None:
    """Offer ``seat`` to the first standby of the game's kind who holds no seat of it and was not
    offered this seat before; None when there is nobody."""
    if row.status == GameStatus.FINISHED:
        return None
    holders = {s.address for s in unit.seats(row) if s.address}
    offered = {o.address for o in unit.session.exec(
        select(SeatOfferRow).where(SeatOfferRow.game_id == row.id, SeatOfferRow.seat == seat))}
    candidates = unit.session.exec(select(StandbyRow).where(StandbyRow.kind == row.kind)
                                   .order_by(StandbyRow.since))  # type: ignore[arg-type]
    standby = next((c for c in candidates if c.address not in holders | offered), None)
    if standby is None:
        return None
    offer = SeatOfferRow(game_id=row.id, seat=seat, address=standby.address, offered_at=unit.now())
    unit.add(offer)
    audit.record(unit, row, "OFFER", f"seat {seat} offered to standby {standby.address} ({reason})",
                 actor=audit.SERVICE)
    unit.news.append(SeatOffered(row.name, seat, standby.address, reason))
    return offer


def accept(unit: Unit, address: str, game: str | None) -> SeatOfferRow:
    """ACCEPT by ``address``: its open offer (in ``game`` when given) is accepted; under
    ``replace=auto`` the seat is handed over at once. Raises GameError without exactly one such offer."""
    query = select(SeatOfferRow).where(SeatOfferRow.address == address.lower(), SeatOfferRow.status == "open")
    offers = list(unit.session.exec(query))
    if game is not None:
        offers = [o for o in offers if o.game_id == unit.game(game).id]
    if len(offers) != 1:
        where = f"of game {game}" if game else "(name the game: ACCEPT <game>)" if offers else ""
        raise GameError(f"{address} has {'no' if not offers else 'several'} open seat offers {where}".rstrip())
    offer = offers[0]
    row = unit.session.get(GameRow, offer.game_id)
    assert row is not None
    offer.status, offer.accepted_at = "accepted", unit.now()
    unit.add(offer)
    audit.record(unit, row, "ACCEPT", f"{address} accepted seat {offer.seat}")
    if row.replace_mode == "auto":
        old = unit.seat(row, offer.seat).address
        unit.actor = audit.SERVICE
        joined = seats.replace(unit, row.name, offer.seat, offer.address)
        unit.news.append(SeatHandedOver(row.name, offer.seat, offer.address, old, joined.password))
    else:
        unit.news.append(OfferAccepted(row.name, offer.seat, offer.address))
    return offer
