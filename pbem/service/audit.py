"""The audit log of a game: every GM action and every decision the service takes by itself
(resolutions, extensions, pauses, replacements, rollbacks, absences), each with its time and
its actor, written in the unit of work that did it (so an action and its entry commit together).

The actor comes from the unit (:attr:`Unit.actor <pbem.service.unit.Unit.actor>`): ``gm
<address>`` for a GM's mail, ``seat B <address>`` for a seat's, ``command line`` for ``pbem``,
``service`` for the clock and the service's own decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import select

from pbem.clock import format_utc
from pbem.service.unit import Unit
from pbem.core import UnknownGame
from pbem.store.tables import AuditEntryRow, GameRow, LeagueRow

SERVICE = "service"
"""The actor of the service's own decisions."""


@dataclass(frozen=True)
class AuditEntry:
    """One step of a game's log as it is shown."""

    at: datetime
    actor: str
    action: str
    text: str

    def line(self) -> str:
        """The entry as one line: time, actor, action word and what happened."""
        return f"{format_utc(self.at)}  {self.actor}  {self.action}  {self.text}"


def record(unit: Unit, row: GameRow, action: str, text: str, *, actor: str | None = None,
           data: Mapping[str, Any] | None = None) -> None:
    """Add a step to the game's log, by ``actor`` (the unit's actor when None), at the unit's time now."""
    unit.add(AuditEntryRow(game_id=row.id, at=unit.now(), actor=actor or unit.actor, action=action, text=text,
                           data=dict(data or {})))


def record_league(unit: Unit, league: LeagueRow, action: str, text: str, *, actor: str | None = None) -> None:
    """Add a step to the log of a league, by ``actor`` (the unit's actor when None), at the unit's time now."""
    unit.add(AuditEntryRow(league_id=league.id, at=unit.now(), actor=actor or unit.actor, action=action, text=text))


def entries(unit: Unit, name: str, *, last: int | None = None) -> list[AuditEntry]:
    """The log of the game called ``name``, or else of the league called so, oldest first (only the
    ``last`` newest when given). Raises UnknownGame when there is neither."""
    unit.session.flush()
    try:
        where = AuditEntryRow.game_id == unit.game(name).id
    except UnknownGame:
        league = unit.session.exec(select(LeagueRow).where(LeagueRow.name_key == name.strip().lower())).first()
        if league is None:
            raise UnknownGame(f"no game or league named {name!r}") from None
        where = AuditEntryRow.league_id == league.id
    query = select(AuditEntryRow).where(where).order_by(AuditEntryRow.id.desc())  # type: ignore[union-attr,arg-type]
    if last is not None:
        query = query.limit(last)
    found = [AuditEntry(e.at, e.actor, e.action, e.text) for e in unit.session.exec(query)]
    return found[::-1]
