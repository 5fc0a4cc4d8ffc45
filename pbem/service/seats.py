"""Who holds the seats of a game: joining, the GM seating and replacing players,
resigning, and the passwords each seat gets."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select

from pbem.core import GameError
from pbem.passwords import hash_password, new_password
from pbem.service import agreed_endings, audit, players, queries
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.service.news import SeatFreed
from pbem.store.tables import AbsenceRow, GameRow, GameStatus, SeatRow, SeatStatus


@dataclass(frozen=True)
class Joined:
    """A seat taken (JOIN) or handed over (REPLACE): the game, the seat, its password (shown once),
    and the game as it stands now."""

    game: str
    seat: str
    password: str
    info: GameInfo

    @property
    def open_seats(self) -> list[str]:
        """The seats of the game nobody holds yet."""
        return [s.name for s in self.info.seats if not s.address]


def join(unit: Unit, name: str, address: str, seat: str | None = None) -> Joined:
    """Give ``address`` an open seat of a forming game (the named one, or the first open).

    Raises GameError when the game is not forming, the seat is taken, or the
    address holds a seat of this game already; TooUnreliable when the game's ``min_reliability`` is
    above the address's known reliability.
    """
    row = unit.game(name)
    if row.status != GameStatus.FORMING:
        raise GameError(f"game {name} is not open for joining (it is {row.status})")
    seats = unit.seats(row)
    if any(s.address == address for s in seats):
        raise GameError(f"{address} holds a seat of {name} already")
    players.check_may_join(unit.session, row, address)
    if seat is None:
        open_seats = [s for s in seats if not s.address]
        if not open_seats:
            raise GameError(f"game {name} has no open seat")
        target = open_seats[0]
    else:
        target = unit.seat(row, seat)
        if target.address:
            raise GameError(f"seat {target.name} of {name} is taken")
    password = new_password()
    target.address = address
    target.password_hash = hash_password(password)
    unit.add(target)
    audit.record(unit, row, "JOIN", f"{address} joined as seat {target.name}")
    return Joined(row.name, target.name, password, unit.snapshot(row))


def assign(unit: Unit, name: str, seat: str, address: str) -> SeatRow:
    """Give a seat of a forming game to ``address`` (the GM's SEAT); its password comes at START.

    Raises GameError once the game has started or when the seat is taken.
    """
    row = unit.game(name)
    seat_row = unit.seat(row, seat)
    if row.status != GameStatus.FORMING:
        raise GameError(f"SEAT works only before START; use REPLACE {seat} {address}")
    if seat_row.address:
        raise GameError(f"seat {seat_row.name} of {name} is taken by {seat_row.address}")
    seat_row.address = address.lower()
    unit.add(seat_row)
    audit.record(unit, row, "SEAT", f"seat {seat_row.name} assigned to {seat_row.address}")
    return seat_row


def decline(unit: Unit, name: str, address: str) -> SeatRow:
    """DECLINE: ``address`` leaves the seat it holds (by invitation or JOIN) of a game not started yet;
    the seat is open again and the GM hears of it. Return the seat. Raises GameError when the game has
    started (RESIGN leaves it then) or the address holds no seat of it."""
    row = unit.game(name)
    key = address.lower()
    held = next((s for s in unit.seats(row) if s.address and s.address.lower() == key), None)
    if held is None:
        raise GameError(f"{key} holds no seat of {row.name}")
    if row.status != GameStatus.FORMING:
        raise GameError(f"game {row.name} is {row.status}: only a seat of a game not started yet can be declined; "
                        "RESIGN (after SIGNON) leaves a game under way")
    free(unit, row, held, "declined the invitation", "DECLINE")
    return held


def free(unit: Unit, row: GameRow, seat: SeatRow, why: str, action: str) -> None:
    """Open ``seat`` of the forming game ``row`` again: its holder ``why`` (audit ``action``); the GM hears
    of it (:class:`~pbem.service.news.SeatFreed`)."""
    address = seat.address or ""
    seat.address, seat.password_hash = None, None
    unit.add(seat)
    audit.record(unit, row, action, f"{address}, the holder of seat {seat.name}, {why}: the seat is open again")
    unit.news.append(SeatFreed(row.name, seat.name, address, why))


def issue_passwords(unit: Unit, name: str) -> dict[str, str]:
    """Give every seat that has an address but no password a fresh one; return them (shown once)."""
    issued: dict[str, str] = {}
    for seat in unit.seats(unit.game(name)):
        if seat.address and not seat.password_hash:
            issued[seat.name] = new_password()
            seat.password_hash = hash_password(issued[seat.name])
            unit.add(seat)
    return issued


def renew_password(unit: Unit, seat: SeatRow) -> str:
    """Give ``seat`` a fresh password (the one given before no longer works); return it (shown once)."""
    password = new_password()
    seat.password_hash = hash_password(password)
    unit.add(seat)
    return password


def replace(unit: Unit, name: str, seat: str, address: str) -> Joined:
    """Give a seat to a new address: new password, old reply addresses void, absence cleared. A new
    player starts with a clean record: no missed deadlines, the old holder's absences ended, the
    whole ``absence_days`` allowance. Raises GameError for a finished game."""
    row = unit.game(name)
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {name} is finished")
    seat_row = unit.seat(row, seat)
    if seat_row.address and seat_row.address.lower() != address.lower():
        players.note_left(unit, row, seat_row, "replaced")
    password = new_password()
    old = seat_row.address
    seat_row.address = address
    seat_row.password_hash = hash_password(password)
    seat_row.key_version += 1
    seat_row.status = SeatStatus.ACTIVE
    seat_row.absent_since, seat_row.absence_reported = None, False
    if (old or "").lower() != address.lower():
        seat_row.missed_deadlines, seat_row.absence_used_hours = 0, 0.0
        for absence in unit.session.exec(select(AbsenceRow).where(AbsenceRow.game_id == row.id,
                                                                  AbsenceRow.seat == seat_row.name)):
            if absence.ends > unit.now():
                absence.ends = max(absence.starts, unit.now())
                unit.add(absence)
    unit.add(seat_row)
    agreed_endings.drop_vote(unit, row, seat_row.name)
    audit.record(unit, row, "REPLACE", f"seat {seat_row.name} handed from {old or 'nobody'} to {address}")
    # Imported here: standby hands seats over through this module.
    from pbem.service.standby import open_offers, withdraw

    for offer in open_offers(unit, row):
        if offer.seat == seat_row.name:  # the seat is taken: by the standby, or someone else
            offer.status = "taken" if offer.address == address.lower() else "withdrawn"
            unit.add(offer)
        elif offer.address == address.lower():  # the new holder plays this game now: no second seat
            withdraw(unit, row, offer, f"it holds seat {seat_row.name} now")
    return Joined(row.name, seat_row.name, password, unit.snapshot(row))


def resign(unit: Unit, name: str, seat: str) -> None:
    """Mark a seat resigned: it gets NMR defaults until the GM replaces it."""
    row = unit.game(name)
    seat_row = unit.seat(row, seat)
    players.note_left(unit, row, seat_row, "resigned")
    seat_row.status = SeatStatus.RESIGNED
    unit.add(seat_row)
    audit.record(unit, row, "RESIGN", f"seat {seat_row.name} ({seat_row.address}) resigned")
    if row.status != GameStatus.FINISHED:
        from pbem.service.standby import offer_seat, open_offers  # standby hands seats over through this module

        if not open_offers(unit, row, seat_row.name):
            offer_seat(unit, row, seat_row.name, "its player resigned")


def seat_of_address(unit: Unit, name: str, address: str) -> SeatRow | None:
    """Return the seat of ``name`` that ``address`` holds, if any."""
    for seat in unit.seats(unit.game(name)):
        if seat.address and seat.address.lower() == address.lower():
            return seat
    return None


def forming_seats_of(unit: Unit, address: str, game: str | None = None) -> list[tuple[GameInfo, SeatRow]]:
    """The seats ``address`` holds in forming games (only in the game called ``game`` when given)."""
    held = []
    for row in queries.games_with_status(unit.session, GameStatus.FORMING):
        if game is not None and row.name.lower() != game.lower():
            continue
        for seat in unit.seats(row):
            if seat.address == address:
                held.append((unit.snapshot(row), seat))
    return held
