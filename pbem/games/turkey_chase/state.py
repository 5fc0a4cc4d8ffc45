"""The Turkey Chase state: a frozen, compact value that stores itself as JSON (squares by name)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pbem.core import GameError
from pbem.core.grid import BadCellName, Cell, Fence, parse_fence
from pbem.games.turkey_chase.board import (
    CELLS,
    FENCE_NAME,
    GRID,
    NAME,
    SEATS,
    START_BIRDS,
    START_CORN,
    START_FARMERS,
    START_FENCES,
)

NMR_MODES: tuple[str, ...] = ("nothing", "feed")
"""What an NMR player does: ``nothing`` (the rule book) or ``feed`` (birds feed where they stand)."""


@dataclass(frozen=True)
class TurkeyState:
    """The whole game between two turns.

    ``turn`` is the turn the players are ordering now (1 at the start).
    ``corn`` holds the corn of every square by ``GRID.index`` (row * 11 + col).
    ``fences`` are the internal fences standing (the external fence is implicit).
    ``farmers`` and ``birds`` hold, per seat in ``SEATS`` order, the squares of
    that seat's farmers and live birds, sorted; a square appears once per piece.
    ``scores`` are exact fractions per seat. ``nmr`` is the creator's NMR mode.
    """

    turn: int
    corn: tuple[int, ...]
    fences: frozenset[Fence]
    farmers: tuple[tuple[Cell, ...], ...]
    birds: tuple[tuple[Cell, ...], ...]
    scores: tuple[Fraction, ...]
    nmr: str = "nothing"

    def corn_at(self, cell: Cell) -> int:
        """Return the corn on a square."""
        return self.corn[GRID.index(cell)]

    def has_birds(self, seat_index: int) -> bool:
        """True when the seat still has at least one bird."""
        return bool(self.birds[seat_index])

    def to_json(self) -> dict[str, Any]:
        """Return the state as JSON-compatible data: squares and fences by name, per seat,
        scores as ``"7/2"`` strings (the stored form of every Turkey Chase game)."""
        return {
            "turn": self.turn,
            "corn": list(self.corn),
            "fences": sorted(FENCE_NAME[f] for f in self.fences),
            "farmers": {seat: _names(cells) for seat, cells in zip(SEATS, self.farmers, strict=True)},
            "birds": {seat: _names(cells) for seat, cells in zip(SEATS, self.birds, strict=True)},
            "scores": {seat: str(score) for seat, score in zip(SEATS, self.scores, strict=True)},
            "nmr": self.nmr,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurkeyState:
        """Rebuild a state from :meth:`to_json` output.

        Raises :class:`GameError` when the data is not a Turkey Chase state.
        """
        try:
            corn = tuple(int(value) for value in data["corn"])
            if len(corn) != len(CELLS):
                raise GameError(f"a Turkey Chase state has {len(CELLS)} corn values, not {len(corn)}")
            return cls(
                turn=int(data["turn"]),
                corn=corn,
                fences=frozenset(parse_fence(GRID, name) for name in data["fences"]),
                farmers=tuple(_cells(data["farmers"][seat]) for seat in SEATS),
                birds=tuple(_cells(data["birds"][seat]) for seat in SEATS),
                scores=tuple(Fraction(data["scores"][seat]) for seat in SEATS),
                nmr=str(data.get("nmr", "nothing")),
            )
        except (KeyError, TypeError, ValueError, BadCellName) as error:
            raise GameError(f"not a Turkey Chase state: {error}") from error


def start_state(nmr: str = "nothing") -> TurkeyState:
    """Return the position of turn 1 (CLARIFICATIONS' decoded start)."""
    return TurkeyState(
        turn=1,
        corn=START_CORN,
        fences=START_FENCES,
        farmers=START_FARMERS,
        birds=START_BIRDS,
        scores=tuple(Fraction(0) for _ in SEATS),
        nmr=nmr,
    )


def _names(cells: Iterable[Cell]) -> list[str]:
    return [NAME[cell] for cell in cells]


def _cells(names: Iterable[str]) -> tuple[Cell, ...]:
    return tuple(sorted(GRID.parse(name) for name in names))

