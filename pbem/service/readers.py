"""Who reads a game's reports, and as whom: a seat's holder its seat's own report, the GM and the
observers the public one. REPORT by mail sends a reader the report it reads, and nobody else's."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core import PbemError
from pbem.service import observers, seats
from pbem.service.unit import Unit
from pbem.store.tables import GameStatus, ObserverRow, SeatRow


class NotAReader(PbemError):
    """An address that holds no seat of a game, is not its GM and does not observe it."""


@dataclass(frozen=True)
class Reader:
    """A reader of a game's reports: ``seat`` (its own report) or None (the public report), and the address
    the reports go to."""

    seat: SeatRow | None
    address: str


def reader_of(unit: Unit, name: str, address: str) -> Reader:
    """The reader ``address`` is in the game called ``name``: the holder of a seat (that seat), else its GM
    or an observer while observers are allowed (the public report). Raises :class:`NotAReader` (also for a
    game not started: it has no report yet), UnknownGame."""
    row = unit.game(name)
    if row.status == GameStatus.FORMING:
        raise NotAReader(f"game {row.name} has not started: it has no report yet")
    seat = seats.seat_of_address(unit, row.name, address)
    if seat is not None:
        return Reader(seat, seat.address or address)
    if row.gm_address and row.gm_address.lower() == address.lower():
        return Reader(None, row.gm_address)
    if observers.allowed(row) and unit.session.get(ObserverRow, (row.id, address.strip().lower())) is not None:
        return Reader(None, address)
    raise NotAReader(f"{address} holds no seat of game {row.name}, is not its GM and does not observe it, so it "
                     "has no report of it to be sent again")
