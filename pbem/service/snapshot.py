"""A game as stored, read back through its rules: :class:`GameInfo`."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.core import Game, Outcome, Phase, UnknownSeat
from pbem.games import find_game
from pbem.service.endings import agreed_outcome
from pbem.store.tables import GameRow, GameStatus, SeatRow


@dataclass(frozen=True)
class GameInfo:
    """A snapshot of a game: its row, its rules, its state and what it waits for.

    ``state``, ``phase`` and ``outcome`` are None while the game is forming;
    ``phase`` is None once it has an outcome.
    """

    row: GameRow
    rules: Game[Any, Any]
    state: Any
    seats: list[SeatRow]
    phase: Phase | None
    outcome: Outcome | None

    @property
    def name(self) -> str:
        """The game's name."""
        return self.row.name

    @property
    def seat_names(self) -> list[str]:
        """Seat names in turn order."""
        return [seat.name for seat in self.seats]

    def seat_name(self, seat: str) -> str:
        """Return the game's spelling of ``seat`` (any case). Raises UnknownSeat naming the seats there are."""
        for name in self.seat_names:
            if name.upper() == seat.strip().upper():
                return name
        raise UnknownSeat(f"game {self.name} has no seat {seat!r}; seats are {', '.join(self.seat_names)}")


@dataclass(frozen=True)
class Position:
    """A game's stored state read through its rules (:func:`read_position`): the state, the outcome and
    the phase awaited, with what of the row they were read from."""

    source: Any  # the row's ``state`` object they were read from
    status: GameStatus
    ended_by_gm: bool
    agreed_end: dict[str, Any] | None
    rules: Game[Any, Any]
    state: Any
    phase: Phase | None
    outcome: Outcome | None

    def holds_for(self, row: GameRow) -> bool:
        """True when ``row`` still has the state (the same object: states are replaced, never changed in
        place), status and end it was read from."""
        return self.read_from(row.state, row.status, row.ended_by_gm, row.agreed_end)

    def read_from(self, state: Any, status: GameStatus, ended_by_gm: bool, agreed_end: dict[str, Any] | None) -> bool:
        """True when it was read from ``state`` (the same object), ``status`` and that end."""
        return (self.source is state and self.status == status and self.ended_by_gm == ended_by_gm
                and self.agreed_end == agreed_end)

    def is_ended_as(self, row: GameRow) -> bool:
        """True when ``row`` has the end it was read from: by the GM or not, agreed or not."""
        return self.ended_by_gm == row.ended_by_gm and self.agreed_end == row.agreed_end

    def info(self, row: GameRow, seats: Sequence[SeatRow]) -> GameInfo:
        """The snapshot of the game of ``row`` (which :meth:`holds_for`) with ``seats``."""
        return GameInfo(row, self.rules, self.state, list(seats), self.phase, self.outcome)


def read_position(row: GameRow) -> Position:
    """Read a game's stored state: loaded by its rules, outcome (a game the GM ended is ranked by its own
    rules; a game its seats ended by agreement has the outcome they agreed) and phase computed; state,
    phase and outcome are None while the game is forming."""
    rules = find_game(row.kind)
    agreed = dict(row.agreed_end) if row.agreed_end else None
    if row.status == GameStatus.FORMING:
        return Position(row.state, row.status, row.ended_by_gm, agreed, rules, None, None, None)
    state = rules.load(row.state)
    outcome = rules.outcome(state)
    if outcome is None and agreed is not None:
        outcome = agreed_outcome(agreed)
    elif outcome is None and row.ended_by_gm:
        outcome = leaders_win(rules, state)
    phase = None if outcome is not None else rules.phase(state)
    return Position(row.state, row.status, row.ended_by_gm, agreed, rules, state, phase, outcome)


class PositionCache:
    """Games' states read through their rules (:func:`read_position`), kept from one unit of work to the
    next: a daemon reads the same games mail after mail, and reading a state through its rules costs
    several times comparing it. An entry serves a row only when the row, as read in the unit asking,
    has the same kind, status, end and an equal state (compared by value) as the row it was read from,
    so a change by any other unit, daemon or program is always seen. Holds at most ``size`` games (the
    oldest read goes first), and only games still being played: a finished game's position (read now and
    then, by the archive or a late mail) is read afresh each time, so that a daemon that runs for a year does
    not keep the last ``size`` games that ended. Safe to share between threads."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._entries: dict[int, tuple[str, Position]] = {}
        self._lock = threading.Lock()

    def read(self, row: GameRow) -> Position:
        """The position of ``row`` as :func:`read_position` reads it, from the cache when it holds one
        read from an equal row (its ``source`` is then ``row.state``)."""
        with self._lock:
            found = self._entries.get(row.id) if row.id is not None else None
        if found is not None:
            kind, position = found
            if (kind == row.kind and position.status == row.status and position.is_ended_as(row)
                    and position.source == row.state):
                return replace(position, source=row.state)
        position = read_position(row)
        if row.id is not None:
            with self._lock:
                self._entries.pop(row.id, None)
                if position.outcome is not None:
                    return position
                if len(self._entries) >= self.size:
                    del self._entries[next(iter(self._entries))]
                self._entries[row.id] = (row.kind, position)
        return position


def leaders_win(rules: Game[Any, Any], state: Any) -> Outcome:
    """The outcome of a game the GM ended: the game's own ranking of the position as it stands, tie-breaks
    included (:meth:`~pbem.core.Game.standing_outcome`)."""
    standing = rules.standing_outcome(state)
    return replace(standing, reason=f"The GM ended the game; by the rules as the game stands: {standing.reason}"
                   if standing.reason else "The GM ended the game; by the rules as the game stands.")


def rules_version_of(rules: Game[Any, Any]) -> int:
    """Return the rules version a game's code implements (``rules_version`` on the game
    class; 1 when it declares none). Bump it whenever a rules change alters outcomes."""
    return int(getattr(rules, "rules_version", 1))
