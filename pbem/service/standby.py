"""Standby players: addresses on a game kind's standby list (STANDBY <kind>, STANDBY OFF) are
offered a seat whose player missed ``replace_after`` deadlines in a row or resigned, first come
first offered; on ACCEPT the seat is handed over once the GM confirms with REPLACE, or at once
under ``replace=auto``."""

from __future__ import annotations

from sqlmodel import select

from pbem.addresses import checked_address
from pbem.core import GameError
from pbem.games import find_game
from pbem.service import absences, audit, consent, players, seats
from pbem.service.news import OfferAccepted, SeatHandedOver, SeatOffered
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, SeatOfferRow, SeatStatus, StandbyRow

OPEN = ("open", "accepted")


def join_list(unit: Unit, address: str, kind: str) -> str:
    """Put ``address`` on the standby list of ``kind``; return the kind's name. The address asked for its
    offers (by mail its own STANDBY, on the command line the operator's word). Raises UnknownGame, and
    InvalidInput for an address pbem does not take (see :func:`~pbem.addresses.checked_address`)."""
    name = find_game(kind).name
    address = checked_address(address)
    consent.record_asked(unit, address)
    if unit.session.get(StandbyRow, (address, name)) is None:
        unit.add(StandbyRow(address=address, kind=name, since=unit.now()))
    return name


def leave_lists(unit: Unit, address: str) -> list[str]:
    """Take ``address`` off every standby list and withdraw its offers not yet accepted (it declines
    them: the seat goes to the next standby at its next missed deadline); return the kinds it was on."""
    rows = list(unit.session.exec(select(StandbyRow).where(StandbyRow.address == address.lower())))
    for row in rows:
        unit.session.delete(row)
    declined = select(SeatOfferRow).where(SeatOfferRow.address == address.lower(), SeatOfferRow.status == "open")
    for offer in unit.session.exec(declined):
        game = unit.session.get(GameRow, offer.game_id)
        assert game is not None
        withdraw(unit, game, offer, "declined (STANDBY OFF)")
    return sorted(row.kind for row in rows)


def open_offers(unit: Unit, row: GameRow, seat: str | None = None) -> list[SeatOfferRow]:
    """The game's offers that are open or accepted (of one seat when given)."""
    query = select(SeatOfferRow).where(SeatOfferRow.game_id == row.id,
                                       SeatOfferRow.status.in_(OPEN))  # type: ignore[attr-defined]
    return [offer for offer in unit.session.exec(query) if seat is None or offer.seat == seat]


def after_deadline(unit: Unit, row: GameRow, owing: list[str], nmr: list[str]) -> None:
    """Count each owing seat's missed deadlines in a row (not those in an announced absence or the day
    after it). A seat that missed this one and has an offer nobody answered since an earlier moment
    has that offer withdrawn and is offered to the next standby; a resigned seat, or one that reached
    ``replace_after``, with no offer pending is offered to the first."""
    now = unit.now()
    away = {a.seat for a in absences.absences_of(unit, row) if a.starts <= now <= a.ends + absences.AFTER_RETURN}
    for seat_row in unit.seats(row):
        if seat_row.name not in owing or seat_row.name in away:
            continue
        missed = seat_row.name in nmr
        seat_row.missed_deadlines = seat_row.missed_deadlines + 1 if missed else 0
        unit.add(seat_row)
        if not missed:
            continue
        pending = open_offers(unit, row, seat_row.name)
        lapsed = [offer for offer in pending if offer.status == "open" and offer.offered_at < now]
        for offer in lapsed:
            withdraw(unit, row, offer, "not accepted before the seat's next deadline")
        if len(lapsed) < len(pending):  # accepted (waiting for the GM), or offered just now
            continue
        if lapsed:
            offer_seat(unit, row, seat_row.name, "the standby offered it before did not accept")
        elif seat_row.status == SeatStatus.RESIGNED:
            offer_seat(unit, row, seat_row.name, "its player resigned")
        elif row.replace_after > 0 and seat_row.missed_deadlines >= row.replace_after:
            offer_seat(unit, row, seat_row.name, f"{seat_row.missed_deadlines} missed deadlines in a row")


def player_back(unit: Unit, row: GameRow, seat: str) -> None:
    """The player of ``seat`` sent orders again: the seat's offers nobody accepted yet are withdrawn (an
    accepted one waits for the GM, who decides)."""
    for offer in open_offers(unit, row, seat):
        if offer.status == "open":
            withdraw(unit, row, offer, "its player sent orders again")


def withdraw(unit: Unit, row: GameRow, offer: SeatOfferRow, why: str) -> None:
    """Withdraw an open offer, with a step in the game's log."""
    offer.status = "withdrawn"
    unit.add(offer)
    audit.record(unit, row, "OFFER", f"offer of seat {offer.seat} to standby {offer.address} withdrawn: {why}",
                 actor=audit.SERVICE)


def offer_seat(unit: Unit, row: GameRow, seat: str, reason: str) -> SeatOfferRow | None:
    """Offer ``seat`` to the most reliable standby of the game's kind (the longest waiting among
    equals; see :func:`pbem.service.players.most_reliable_first`) who holds no seat of it, has no
    offer of it pending, was not offered this seat before and meets the game's ``min_reliability``;
    None when there is nobody."""
    if row.status == GameStatus.FINISHED:
        return None
    holders = {s.address.lower() for s in unit.seats(row) if s.address}
    holders |= {o.address for o in open_offers(unit, row)}
    offered = {o.address for o in unit.session.exec(
        select(SeatOfferRow).where(SeatOfferRow.game_id == row.id, SeatOfferRow.seat == seat))}
    candidates = unit.session.exec(select(StandbyRow.address).where(StandbyRow.kind == row.kind)
                                   .order_by(StandbyRow.since))  # type: ignore[arg-type]
    free = [address for address in candidates if address not in holders | offered]
    ranked = players.most_reliable_first(unit.session, free, minimum=row.min_reliability)
    if not ranked:
        return None
    offer = SeatOfferRow(game_id=row.id, seat=seat, address=ranked[0], offered_at=unit.now())
    unit.add(offer)
    audit.record(unit, row, "OFFER", f"seat {seat} offered to standby {offer.address} ({reason})",
                 actor=audit.SERVICE)
    unit.news.append(SeatOffered(row.name, seat, offer.address, reason))
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
    row = unit.claim(offer.game_id, wait=True)  # another daemon may be handing the seat over
    assert row is not None
    unit.session.refresh(offer)
    if offer.status != "open":
        raise GameError(f"the offer of seat {offer.seat} to {address} was withdrawn or taken meanwhile")
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
