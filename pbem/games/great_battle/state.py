"""The state of a Great Battle game: the units on the island, the supplies, the discs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.bag import Bag
from pbem.core.hexgrid import HexCell
from pbem.games.great_battle.board import GRID, SIDE_COLOURS, SIDES, hex_name, side_of

TURN_LIMIT = 60
"""Actions at most (option ``turn_limit``), 30 for each general."""

SETUP = "setup"
ACTIONS = "action"

SETUP_UNITS = (2, 3)
"""Units the first and the second player place in the setup."""


@dataclass(frozen=True)
class Unit:
    """A stack of ``level`` cubes of ``colour`` on ``cell`` (its owner follows from the colour)."""

    cell: HexCell
    colour: str
    level: int = 1

    @property
    def side(self) -> int:
        """The seat index of the owner: 0 Minutians, 1 Meanies."""
        return side_of(self.colour)


def in_reading_order(units: Iterable[Unit]) -> tuple[Unit, ...]:
    """Return ``units`` sorted by the reading order of their hexes (row by row, left to right)."""
    return tuple(sorted(units, key=lambda unit: (unit.cell[1], unit.cell[0])))


@dataclass(frozen=True)
class BattleState:
    """Everything about a game in progress or finished.

    ``units`` are the units on the island in reading order of their hexes;
    ``supply[i]`` the cubes seat ``seats[i]`` may still bring into play.
    ``stage`` is ``setup`` or ``action``; ``turns`` counts the turns taken in
    the stage, so the seat to play is ``seats[(first + turns) % 2]``. ``discs``
    holds each general's action space (``""`` before his first action).
    ``winners`` and ``drawn`` say how it ended, ``end_reason`` why.
    """

    seats: tuple[str, ...]
    first: int
    stage: str
    turns: int
    units: tuple[Unit, ...]
    supply: tuple[Bag, ...]
    discs: tuple[str, ...] = ("", "")
    turn_limit: int = TURN_LIMIT
    winners: tuple[str, ...] = ()
    drawn: bool = False
    end_reason: str = ""

    @property
    def is_over(self) -> bool:
        """True once a general won or the battle ended in a draw."""
        return bool(self.winners) or self.drawn

    @property
    def mover(self) -> int:
        """The seat index of the general to play."""
        return (self.first + self.turns) % len(self.seats)

    @property
    def to_play(self) -> str:
        """The seat of the general to play."""
        return self.seats[self.mover]

    def side_name(self, index: int, *, capital: bool = False) -> str:
        """Return ``seat 1 (Minutians)`` for a seat index (``Seat 1 ...`` with ``capital``)."""
        return f"{'Seat' if capital else 'seat'} {self.seats[index]} ({SIDES[index]})"

    def units_of(self, index: int) -> tuple[Unit, ...]:
        """Return the units on the island of the army of seat index ``index``."""
        return tuple(unit for unit in self.units if unit.side == index)

    def strength(self, index: int) -> int:
        """Return the total level of the units of seat index ``index`` on the island."""
        return sum(unit.level for unit in self.units_of(index))

    def colours(self, index: int) -> tuple[str, str]:
        """Return the unit colours of seat index ``index``."""
        return SIDE_COLOURS[index]


def dump_state(state: BattleState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "first": state.first,
        "stage": state.stage,
        "turns": state.turns,
        "units": [[hex_name(u.cell), u.colour, u.level] for u in state.units],
        "supply": [bag.to_json() for bag in state.supply],
        "discs": list(state.discs),
        "turn_limit": state.turn_limit,
        "winners": list(state.winners),
        "drawn": state.drawn,
        "end_reason": state.end_reason,
    }


def load_state(data: Mapping[str, Any]) -> BattleState:
    """Rebuild a state from :func:`dump_state` output (KeyError on a missing field)."""
    return BattleState(
        seats=tuple(data["seats"]),
        first=int(data["first"]),
        stage=str(data["stage"]),
        turns=int(data["turns"]),
        units=in_reading_order(Unit(GRID.parse(cell), str(colour), int(level)) for cell, colour, level in data["units"]),
        supply=tuple(Bag.from_json(bag) for bag in data["supply"]),
        discs=tuple(str(d) for d in data["discs"]),
        turn_limit=int(data["turn_limit"]),
        winners=tuple(data["winners"]),
        drawn=bool(data["drawn"]),
        end_reason=str(data["end_reason"]),
    )
