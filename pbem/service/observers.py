"""Observers: addresses that follow a game's public reports (never a seat's secrets), as long as
the game's GM allows it (the service option ``observers=yes|no``)."""

from __future__ import annotations

from sqlmodel import select

from pbem.addresses import checked_address
from pbem.core import GameError
from pbem.service import audit, consent
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, ObserverRow


MAX_OBSERVERS = 100
"""Most observers of one game: each report goes to every one (and a From can be forged)."""


def observe(unit: Unit, name: str, address: str) -> GameRow:
    """Have ``address`` follow the game's public reports; it asked for them (by mail its own OBSERVE, on
    the command line the operator's word: :mod:`pbem.service.consent`). Raises GameError when the GM
    forbids observers, the game is over or has :data:`MAX_OBSERVERS`, InvalidInput for an address that is
    no mail address."""
    row = unit.game(name)
    address = checked_address(address)
    if row.observers != "yes":
        raise GameError(f"the GM of {row.name} does not allow observers")
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {row.name} is finished")
    if unit.session.get(ObserverRow, (row.id, address)) is None:
        if len(observers_of(unit, row)) >= MAX_OBSERVERS:
            raise GameError(f"game {row.name} has {MAX_OBSERVERS} observers, the most a game takes")
        # told nothing before it came: its first report is the next one
        unit.add(ObserverRow(game_id=row.id, address=address, since=unit.now(), last_reported_turn=max(row.turn - 1, 0)))
        audit.record(unit, row, "OBSERVE", f"{address} observes the game")
    consent.record_asked(unit, address)
    return row


def unobserve(unit: Unit, name: str, address: str) -> bool:
    """Stop ``address`` following the game; False when it did not."""
    row = unit.game(name)
    found = unit.session.get(ObserverRow, (row.id, address.strip().lower()))
    if found is None:
        return False
    unit.session.delete(found)
    audit.record(unit, row, "UNOBSERVE", f"{found.address} no longer observes the game")
    return True


def observers_of(unit: Unit, row: GameRow) -> list[ObserverRow]:
    """The observers of the game, with the last turn each was told of (while the GM forbids observers
    they are kept, and get nothing: :func:`allowed`)."""
    query = select(ObserverRow).where(ObserverRow.game_id == row.id).order_by(ObserverRow.since)  # type: ignore[arg-type]
    return list(unit.session.exec(query))


def allowed(row: GameRow) -> bool:
    """Whether the game's observers get its public reports now (the GM may forbid it)."""
    return row.observers == "yes"
