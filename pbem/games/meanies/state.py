"""The state of a Meanies in our Midst game: the secret factions, the counters, the round's dice and team,
the mission hands while a mission runs, and the public record of every mission."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.bag import Bag

COLOURS: tuple[str, ...] = ("white", "black", "blue", "yellow")
"""The mission cube colours, in the order hands are listed and the NMR default takes them [C; D the order]."""

CUBES_PER_COLOUR = 10
HAND_SIZE = 4
"""Mission cubes each member of a mission draws [R]."""
CONTRIBUTION = 2
"""Mission cubes each member keeps (the guide) or gives (an explorer) [R]."""
GOAL = 3
"""The last space of both counter tracks [C]."""

MISSION_TABLE: Mapping[int, tuple[str, str]] = {
    1: ("blue", "yellow"), 2: ("white", "black"), 3: ("blue", "white"),
    4: ("yellow", "black"), 5: ("white", "yellow"), 6: ("blue", "black"),
}
"""The mission cubes a die result requires (CLARIFICATIONS)."""

MINUTIAN = "minutian"
MEANIE = "meanie"
FACTION_CUBES: Mapping[str, str] = {MINUTIAN: "green", MEANIE: "red"}

FACTIONS_BY_PLAYERS: Mapping[int, tuple[int, int]] = {4: (3, 1), 5: (4, 1), 6: (4, 2), 7: (5, 2), 8: (6, 2), 9: (6, 3)}
"""Green (Minutian) and red (Meanie) faction cubes by player count [R]."""
DICE_BY_PLAYERS: Mapping[int, int] = {4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 9: 4}
"""Die rolls for the guide by player count [R]."""
EXPLORERS_BY_PLAYERS: Mapping[int, int] = {4: 2, 5: 2, 6: 4, 7: 4, 8: 5, 9: 5}
"""Explorers the guide chooses by player count [R]."""

STAGE_CHOOSE = "choose"
STAGE_MISSION = "mission"
STAGE_NEXT_GUIDE = "next-guide"
STAGE_OVER = "over"


def full_bag() -> Bag:
    """Return the 40 mission cubes: 10 each of white, black, blue and yellow."""
    return Bag.filled(COLOURS, CUBES_PER_COLOUR)


def requirement(dice: Sequence[int]) -> Bag:
    """Return the mission cubes the dice require: the pairs of the mission table, repeats added up [R]."""
    return Bag.of(colour for die in dice for colour in MISSION_TABLE[die])


def listed(cubes: Bag) -> tuple[str, ...]:
    """Return cubes in the colour order white, black, blue, yellow."""
    return cubes.ordered(COLOURS)


def describe(cubes: Bag) -> str:
    """Return cubes counted in colour order, e.g. ``"2 white, 1 blue"`` (``"nothing"`` when empty)."""
    return cubes.describe(empty="nothing", order=COLOURS)


@dataclass(frozen=True)
class Mission:
    """The public record of one finished mission: who went, what was needed and what was collected."""

    round: int
    guide: str
    explorers: tuple[str, ...]
    dice: tuple[int, ...]
    collected: Bag
    success: bool


@dataclass(frozen=True)
class MeaniesState:
    """A whole game. Indexes follow ``seats`` (seat order is clockwise).

    Secret: ``factions[i]`` (minutian or meanie) until the game ends, and while a mission runs
    ``hands[i]``, the 4 cubes mission member i drew (empty for everyone else), and so the ``bag``'s
    content. Who kept or gave which cubes is never stored: a mission leaves only what it collected.
    ``dice`` are the guide's rolls of the round, ``explorers`` the seats he chose. ``minutians`` and
    ``meanies`` are the counters; ``missions`` the record of the finished missions; ``winner`` the
    faction that reached the goal.
    """

    seats: tuple[str, ...]
    factions: tuple[str, ...]
    guide: int
    dice: tuple[int, ...]
    bag: Bag
    hands: tuple[Bag, ...]
    stage: str = STAGE_CHOOSE
    round: int = 1
    explorers: tuple[int, ...] = ()
    minutians: int = 0
    meanies: int = 0
    missions: tuple[Mission, ...] = ()
    winner: str = ""

    @property
    def is_over(self) -> bool:
        """True once a faction has reached the end of its track."""
        return self.stage == STAGE_OVER

    @property
    def members(self) -> tuple[int, ...]:
        """The mission's members: the guide, then the explorers in seat order from the guide's left."""
        n = len(self.seats)
        return (self.guide, *sorted(self.explorers, key=lambda i: (i - self.guide) % n))

    @property
    def needed(self) -> Bag:
        """The mission cubes this round's dice require."""
        return requirement(self.dice)

    def index(self, seat: str) -> int:
        """Return the position of ``seat`` in :attr:`seats`."""
        return self.seats.index(seat)


def dump_state(state: MeaniesState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "factions": list(state.factions),
        "guide": state.guide,
        "dice": list(state.dice),
        "bag": state.bag.to_json(),
        "hands": [hand.to_json() for hand in state.hands],
        "stage": state.stage,
        "round": state.round,
        "explorers": list(state.explorers),
        "minutians": state.minutians,
        "meanies": state.meanies,
        "missions": [
            {"round": m.round, "guide": m.guide, "explorers": list(m.explorers), "dice": list(m.dice),
             "collected": m.collected.to_json(), "success": m.success}
            for m in state.missions
        ],
        "winner": state.winner,
    }


def load_state(data: Mapping[str, Any]) -> MeaniesState:
    """Rebuild a state from :func:`dump_state` output (KeyError on missing fields)."""
    return MeaniesState(
        seats=tuple(data["seats"]),
        factions=tuple(data["factions"]),
        guide=int(data["guide"]),
        dice=tuple(int(d) for d in data["dice"]),
        bag=Bag.from_json(data["bag"]),
        hands=tuple(Bag.from_json(hand) for hand in data["hands"]),
        stage=str(data["stage"]),
        round=int(data["round"]),
        explorers=tuple(int(i) for i in data["explorers"]),
        minutians=int(data["minutians"]),
        meanies=int(data["meanies"]),
        missions=tuple(
            Mission(int(m["round"]), str(m["guide"]), tuple(m["explorers"]), tuple(int(d) for d in m["dice"]),
                    Bag.from_json(m["collected"]), bool(m["success"]))
            for m in data["missions"]
        ),
        winner=str(data["winner"]),
    )
