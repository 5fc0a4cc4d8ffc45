"""The state of a Resource Rich game: the hidden hands and kept piles, the die and the direction discs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.bag import Bag

COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "red")
"""The four resources in the NMR order (CLARIFICATIONS): pearls, shells, gems, volcanic rock."""

RESOURCES: Mapping[str, str] = {"blue": "pearls", "yellow": "shells", "green": "gems", "red": "volcanic rock"}
"""What each colour stands for."""

CUBES_PER_COLOUR = 10

DEAL: Mapping[int, int] = {2: 20, 3: 13, 4: 10}
"""Cubes dealt to each player, by player count [R]; with 3 the 40th cube is revealed and unused."""

DIRECTIONS: tuple[str, ...] = ("cw", "ccw")
"""Clockwise passes to the next seat (seat 1 to 2), counter-clockwise to the one before."""

DEFAULT_DIRECTIONS: tuple[str, ...] = ("cw", "ccw", "cw")
"""The three direction spaces from top to bottom (the plan's decision; option ``directions``)."""


def full_bag() -> Bag:
    """Return the 40 cubes of the game: 10 of each colour."""
    return Bag.filled(COLOURS, CUBES_PER_COLOUR)


def to_keep(roll: int) -> int:
    """Return how many cubes each player keeps on a die of 1..5 [R]."""
    return 1 if roll <= 2 else 2


def gives(roll: int) -> bool:
    """True when a die of ``roll`` makes each player give a cube (4 or 5) [R]."""
    return roll in (4, 5)


def ordered(bag: Bag) -> tuple[str, ...]:
    """Return the cubes of ``bag`` in the NMR colour order blue, yellow, green, red."""
    return tuple(c for c in COLOURS for _ in range(bag.count(c)))


@dataclass(frozen=True)
class RichState:
    """Everything about a game in progress or finished.

    ``hands[i]`` and ``kept[i]`` are the hidden hand and the kept pile (under
    the cover card) of ``seats[i]``. ``roll`` is the die the players answer now
    (1..5); ``sixes`` how many sixes were rolled in a row just before it;
    ``discs`` how many direction spaces are covered. ``unused`` is the revealed,
    unused 40th cube of a 3-player game. Once ``finished`` the hands are
    discarded unseen and ``end_reason`` says why the game ended.
    """

    seats: tuple[str, ...]
    side: str
    directions: tuple[str, ...]
    hands: tuple[Bag, ...]
    kept: tuple[Bag, ...]
    roll: int = 0
    round: int = 0
    sixes: int = 0
    discs: int = 0
    unused: tuple[str, ...] = ()
    finished: bool = False
    end_reason: str = ""

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats`."""
        return self.seats.index(seat)

    def hand(self, seat: str) -> Bag:
        """Return the hidden hand of ``seat``."""
        return self.hands[self.index(seat)]

    def pile(self, seat: str) -> Bag:
        """Return the kept pile of ``seat``."""
        return self.kept[self.index(seat)]

    @property
    def hand_size(self) -> int:
        """The size of every hand (they are always equal)."""
        return self.hands[0].size

    @property
    def direction(self) -> str:
        """The direction of play: the topmost uncovered direction space (the last once all are covered)."""
        return self.directions[min(self.discs, len(self.directions) - 1)]

    def passes_to(self, seat: str) -> str:
        """Return the seat that receives ``seat``'s hand (in the direction of play)."""
        step = 1 if self.direction == "cw" else -1
        return self.seats[(self.index(seat) + step) % len(self.seats)]

    def gives_to(self, seat: str) -> str:
        """Return the seat that receives ``seat``'s given cube (against the direction of play)."""
        step = -1 if self.direction == "cw" else 1
        return self.seats[(self.index(seat) + step) % len(self.seats)]


def dump_state(state: RichState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "side": state.side,
        "directions": list(state.directions),
        "hands": [h.to_json() for h in state.hands],
        "kept": [k.to_json() for k in state.kept],
        "roll": state.roll,
        "round": state.round,
        "sixes": state.sixes,
        "discs": state.discs,
        "unused": list(state.unused),
        "finished": state.finished,
        "end_reason": state.end_reason,
    }


def load_state(data: Mapping[str, Any]) -> RichState:
    """Rebuild a state from :func:`dump_state` output (KeyError on missing fields)."""
    return RichState(
        seats=tuple(data["seats"]),
        side=str(data["side"]),
        directions=tuple(data["directions"]),
        hands=tuple(Bag.from_json(h) for h in data["hands"]),
        kept=tuple(Bag.from_json(k) for k in data["kept"]),
        roll=int(data["roll"]),
        round=int(data["round"]),
        sixes=int(data["sixes"]),
        discs=int(data["discs"]),
        unused=tuple(data["unused"]),
        finished=bool(data["finished"]),
        end_reason=str(data["end_reason"]),
    )
