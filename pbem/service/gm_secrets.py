"""The GM's look at the secrets (SECRETS): every seat's view of the current turn, the full state as
the seats see it. Everything else the GM gets is the public report; this look is recorded in the
game's audit log (LOG, ``pbem log``), and refused for a game that shows some secrets to nobody, the GM included."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core import GameError
from pbem.reports import ReportInput
from pbem.service import audit, reporting
from pbem.service.unit import Unit
from pbem.store.tables import GameStatus


class SecretsWithheld(GameError):
    """SECRETS for a game whose secrets nobody is shown, the GM included; the message says why."""


@dataclass(frozen=True)
class SeatViews:
    """Every seat's newest report (its own view, with its secrets), for the GM."""

    game: str
    turn: int
    reports: list[tuple[str, ReportInput]]


def seat_views(unit: Unit, name: str) -> SeatViews:
    """Return every seat's view of the game's current turn (each seat's newest report as that seat reads
    it) and record the look in the game's audit log (action ``SECRETS``, by the unit's actor). Raises
    SecretsWithheld for a game whose kind withholds its secrets from the GM too, GameError before the
    start, UnknownGame."""
    info = unit.info(name)
    withheld = getattr(info.rules, "secrets_withheld", "")
    if withheld:
        raise SecretsWithheld(f"SECRETS is refused for {info.rules.title}: {withheld}")
    if info.row.status == GameStatus.FORMING:
        raise GameError(f"game {info.name} has not started; there are no views yet")
    report = reporting.last_report(unit, name)
    audit.record(unit, info.row, "SECRETS", f"every seat's view of turn {info.row.turn}, secrets included, "
                 "mailed to the GM's address")
    return SeatViews(info.name, info.row.turn, [(seat, report) for seat in info.seat_names])
