"""The Kentucksea Derby's race: the speed column and table, moving the racers, the final order, scoring.

Card data from CLARIFICATIONS: a lap is 24 spaces; the speed table gives, by
row of the speed column (top first) and die, how far a racer moves; the final
order table gives the points and the rival multipliers for places 1..6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.core.track import Ring

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "white")
"""The six racers; seat 1..6 rides red, blue, green, yellow, black, white (plan §3)."""

LAP = Ring(24)
"""One lap of the race track; the racers start on the line (space 0)."""

SPEED_TABLE: tuple[tuple[int, ...], ...] = (
    (6, 5, 5, 4, 6, 4),
    (5, 4, 5, 5, 4, 4),
    (4, 3, 4, 4, 4, 5),
    (3, 6, 4, 3, 3, 4),
    (2, 6, 3, 3, 2, 3),
    (1, 2, 2, 2, 2, 1),
)
"""``SPEED_TABLE[row][die - 1]``: spaces moved by the racer on ``row`` (0 = top) for a die of 1..6."""

PLACE_POINTS: tuple[int, ...] = (60, 45, 30, 20, 10, 5)
MULTIPLIERS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
"""The final order table: points for places 1..6, and the bet multiplier when the rival takes that place."""


def speed(row: int, die: int) -> int:
    """Return how far the racer on ``row`` (0 = top of the speed column) moves on a roll of ``die``."""
    return SPEED_TABLE[row][die - 1]


def rival_of(column: Sequence[str], colour: str) -> str:
    """Return the racer above ``colour`` in the speed column; the top racer's rival is the bottom one."""
    row = column.index(colour)
    return column[row - 1] if row > 0 else column[-1]


def moved_to(column: Sequence[str], colour: str, row: int) -> tuple[str, ...]:
    """Return the column with ``colour`` taken out and put back on ``row`` (1 = top), the others keeping
    their relative order."""
    rest = [c for c in column if c != colour]
    rest.insert(row - 1, colour)
    return tuple(rest)


@dataclass(frozen=True)
class Roll:
    """One die of phase 3: every running racer's move in column order, and who crossed the line."""

    die: int
    moves: tuple[tuple[str, int], ...]
    laps_done: tuple[tuple[str, int], ...]
    finished: tuple[str, ...]


def roll_racers(column: Sequence[str], progress: Mapping[str, int], finished: Sequence[str], laps: int,
                die: int) -> tuple[dict[str, int], Roll]:
    """Move every racer not yet finished by the speed table, top of the column first.

    Returns the new progress (spaces from the start, by colour) and the :class:`Roll`: a racer whose
    progress reaches ``laps`` laps crosses the line on its final lap and finishes, in the order moved.
    """
    after = dict(progress)
    moves: list[tuple[str, int]] = []
    laps_done: list[tuple[str, int]] = []
    crossed: list[str] = []
    for row, colour in enumerate(column):
        if colour in finished:
            continue
        steps = speed(row, die)
        before = after[colour]
        after[colour] = before + steps
        moves.append((colour, steps))
        lap = (before + steps) // LAP.size
        if lap > before // LAP.size:
            if lap >= laps:
                crossed.append(colour)
            else:
                laps_done.append((colour, lap))
    return after, Roll(die, tuple(moves), tuple(laps_done), tuple(crossed))


def final_order(column: Sequence[str], progress: Mapping[str, int], finished: Sequence[str]) -> tuple[str, ...]:
    """Return the racers in their final places: the finishers in order, then the others by progress,
    ties by the speed column (higher first)."""
    running = sorted((c for c in column if c not in finished), key=lambda c: (-progress[c], column.index(c)))
    return (*finished, *running)


def player_score(place: int, rival_place: int, bet: int, shells: int) -> int:
    """Return a player's score: his racer's place points, his bet times his rival's multiplier, his shells
    (places 0-based)."""
    return PLACE_POINTS[place] + bet * MULTIPLIERS[rival_place] + shells
