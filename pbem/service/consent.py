"""Whom pbem may write to: only addresses that asked.

An address has asked when it wrote to pbem itself (any mail read as from it: JOIN, a reply to its
invitation, a command) or when the operator seated it from the command line (the operator runs the
service: that is the operator's word). An address seated by mail (SEAT, REPLACE) that never wrote
gets one invitation for that game and nothing else until it asks; its seat counts as open for the GM:
START waits for it (refused, naming it), and REPLACE may hand it to someone else. STOP withdraws the
consent until the address writes again. A GM address may invite :data:`MAX_INVITATIONS_PER_DAY` new
addresses in 24 hours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import bindparam, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, select

from pbem.core import GameError
from pbem.service import audit, queries, seats
from pbem.service.news import AddressStopped, AddressUndeliverable
from pbem.service.unit import Unit
from pbem.store.driver_path import DriverStatement
from pbem.store.tables import AddressConsentRow, GameRow, GameStatus, InvitationRow, SeatRow

MAX_INVITATIONS_PER_DAY = 20
"""New addresses (ones that never wrote to pbem) one GM address may invite in 24 hours."""

_CONSENT = AddressConsentRow.__table__  # type: ignore[attr-defined]
_MAY_MAIL = DriverStatement(sa_select(_CONSENT.c.asked_at, _CONSENT.c.stopped_at, _CONSENT.c.undeliverable_at).where(
    _CONSENT.c.address == bindparam("address")))


class InvitationLimit(GameError):
    """A GM address invited as many new addresses as it may within 24 hours."""


class StoppedAddress(GameError):
    """An address that said STOP: it cannot be seated (nothing would reach it) until it writes again."""


@dataclass(frozen=True)
class Invited:
    """An invitation to send: the game, the seat, the address and who seated it."""

    game: str
    seat: str
    address: str
    invited_by: str


def may_mail(session: Session, address: str) -> bool:
    """True when pbem may write to ``address``: it asked, and has neither said STOP nor had mail come back
    as undeliverable since."""
    session.flush()  # a consent recorded earlier in the same unit counts
    row = _MAY_MAIL.first(session.connection(), {"address": address.lower()})
    if row is None:
        return False
    asked_at, stopped_at, undeliverable_at = row
    return asked_at is not None and stopped_at is None and undeliverable_at is None


def is_stopped(session: Session, address: str) -> bool:
    """True when ``address`` said STOP and has not written since."""
    row = session.get(AddressConsentRow, address.lower())
    return row is not None and row.stopped_at is not None


def record_asked(unit: Unit, address: str) -> bool:
    """Record that ``address`` asked for pbem's mail (it wrote, or the operator seated it), ending a
    STOP; return True when it had not asked before (or had stopped), False when nothing changed."""
    key = address.lower()
    if may_mail(unit.session, key):  # every mail asks this: one compiled read, no ORM object
        return False
    row = unit.session.get(AddressConsentRow, key) or AddressConsentRow(address=key)
    row.asked_at, row.stopped_at = unit.now(), None
    row.undeliverable_at = row.undeliverable_reason = None  # it wrote: it works again
    unit.add(row)
    return True


def stop(unit: Unit, address: str) -> list[tuple[GameRow, SeatRow]]:
    """STOP: pbem writes nothing more to ``address`` until it writes again. Its seats of games not started
    yet are open again (the GMs hear of it). Return the seats it holds in games under way: their GMs hear
    of it (an :class:`~pbem.service.news.AddressStopped` each), and the seats go silent, handled by the
    game's absence settings."""
    key = address.lower()
    row = unit.session.get(AddressConsentRow, key) or AddressConsentRow(address=key)
    row.stopped_at = unit.now()
    unit.add(row)
    return _silenced_seats(unit, key, lambda game, seat: AddressStopped(game.name, seat.name, key), "STOP",
                           "sent STOP: pbem no longer mails it", "sent STOP")


def mark_undeliverable(unit: Unit, address: str, reason: str) -> list[tuple[GameRow, SeatRow]]:
    """Mail to ``address`` came back for good (``reason``: what the mail server said): pbem writes nothing
    more to it until it writes again. As after STOP, its seats of games not started yet are open again;
    return the seats it holds in games under way: their GMs hear of it (an
    :class:`~pbem.service.news.AddressUndeliverable` each) and the seats go silent, handled by the
    game's absence settings. Nothing changes (and nobody is told again) for an
    address already marked."""
    key = address.lower()
    row = unit.session.get(AddressConsentRow, key) or AddressConsentRow(address=key)
    if row.undeliverable_at is not None:
        return []
    row.undeliverable_at, row.undeliverable_reason = unit.now(), " ".join(reason.split())[:300]
    unit.add(row)
    said = row.undeliverable_reason
    return _silenced_seats(unit, key, lambda game, seat: AddressUndeliverable(game.name, seat.name, key, said),
                           "BOUNCE", f"cannot be reached ({said}): pbem no longer mails it",
                           f"cannot be reached ({said})")


def _silenced_seats(unit: Unit, key: str, news: Callable[[GameRow, SeatRow], object], action: str,
                    what: str, left: str) -> list[tuple[GameRow, SeatRow]]:
    """The seats ``key`` holds in games under way, each with its ``news`` and an audit entry. Its seats of
    games not started yet are opened again (:func:`~pbem.service.seats.free`: its holder ``left``), since
    nothing would reach it at START."""
    held = []
    for game in queries.games_of_address(unit.session, key):
        if game.status == GameStatus.FINISHED:
            continue
        for seat in unit.seats(game):
            if not seat.address or seat.address.lower() != key:
                continue
            if game.status == GameStatus.FORMING:
                seats.free(unit, game, seat, left, action)
                continue
            held.append((game, seat))
            unit.news.append(news(game, seat))
            audit.record(unit, game, action, f"{key}, the holder of seat {seat.name}, {what}")
    return held


def invite(unit: Unit, row: GameRow, seat: str, address: str, *, by: str) -> Invited | None:
    """The invitation to send when ``by`` (a GM address) seats ``address`` by mail, or None when none
    goes: the address asked already, or had its invitation for this game.

    Raises :class:`StoppedAddress` for an address that said STOP, :class:`InvitationLimit` when ``by``
    invited :data:`MAX_INVITATIONS_PER_DAY` new addresses within 24 hours (nothing is recorded then)."""
    key = address.lower()
    if is_stopped(unit.session, key):
        raise StoppedAddress(f"{key} asked pbem for no more mail (STOP); it can be seated once it writes again")
    if may_mail(unit.session, key):
        return None
    known = unit.session.exec(select(InvitationRow.id).where(  # type: ignore[call-overload]
        InvitationRow.game_id == row.id, InvitationRow.address == key)).first()
    if known is not None:
        return None
    since = unit.now() - timedelta(days=1)
    count = unit.session.exec(select(func.count()).select_from(InvitationRow).where(  # type: ignore[call-overload]
        InvitationRow.invited_by == by.lower(), InvitationRow.invited_at > since)).one()
    if count >= MAX_INVITATIONS_PER_DAY:
        raise InvitationLimit(f"{by} invited {MAX_INVITATIONS_PER_DAY} new addresses within 24 hours, as many as "
                              f"one address may; {key} was not seated. Ask them to send JOIN {row.name} themselves")
    unit.add(InvitationRow(game_id=row.id, address=key, seat=seat, invited_by=by.lower(), invited_at=unit.now()))
    audit.record(unit, row, "INVITE", f"{key} invited to seat {seat} by {by.lower()}")
    return Invited(row.name, seat, key, by.lower())


def unaccepted(unit: Unit, row: GameRow) -> list[SeatRow]:
    """The seats of ``row`` whose holders have not asked for pbem's mail (counted as open by START)."""
    return [seat for seat in unit.seats(row) if seat.address and not may_mail(unit.session, seat.address)]


def invitations_of(unit: Unit, address: str) -> list[tuple[GameRow, SeatRow]]:
    """The seats ``address`` was invited to and still holds, in games that are not over."""
    key = address.lower()
    held = []
    for invitation in unit.session.exec(select(InvitationRow).where(InvitationRow.address == key)):
        game = unit.session.get(GameRow, invitation.game_id)
        if game is None or game.status == GameStatus.FINISHED:
            continue
        seat = next((s for s in unit.seats(game) if s.name == invitation.seat and s.address == key), None)
        if seat is not None:
            held.append((unit.game(game.name), seat))
    return held
