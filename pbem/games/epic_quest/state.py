"""The state of an Epic Quest game: the adventurers, the enemies, the portals and the equipment bag.

Everything is public (the game is cooperative and has no secrets). Places are
card names such as ``c1`` on the game's map (see :mod:`.questmap`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pbem.core.bag import Bag

ADVENTURERS: tuple[str, ...] = ("W", "K", "A", "C")
"""The four adventurers, in the order the rules settle ties and run a step's actions."""

NAMES: Mapping[str, str] = {"W": "Warrior", "K": "Knight", "A": "Archer", "C": "Cleric"}

LIFE_COLOURS: Mapping[str, tuple[str, str, str]] = {
    "W": ("red", "blue", "green"),
    "K": ("blue", "red", "yellow"),
    "A": ("green", "yellow", "blue"),
    "C": ("yellow", "green", "red"),
}
"""Each adventurer's life colours: the main one (3 cubes), the second (2) and the third (1)."""

LIFE_COUNTS: tuple[int, int, int] = (3, 2, 1)

TOKEN_COLOURS: Mapping[str, str] = {"W": "red", "K": "blue", "A": "green", "C": "yellow"}
"""The colour of each adventurer's cube on the map."""

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
"""The skill colours: red melee, green ranged, yellow ritual, blue defence (and the portals' colours)."""

POTION = "potion"
"""A healing potion (the white cube); the other items are upgrades named by their colour."""

ITEMS: tuple[str, ...] = (POTION, *COLOURS)

BAG_POTIONS = 8
BAG_UPGRADES_PER_COLOUR = 2
BACKPACK_SIZE = 4
ACTIONS_PER_ROUND = 2
INVADERS = 10
MEANIE_LIFE = 4
MEANIE_SPACES: tuple[str, ...] = ("1", "2", "3+")
"""The Magic Meanie's status track; from the last space he enters the forest."""

PORTALS: tuple[str, ...] = ("G", "B", "Y")
PORTAL_COLOURS: Mapping[str, str] = {"G": "green", "B": "blue", "Y": "yellow"}
PORTAL_TRACK: tuple[tuple[int, int | None], ...] = ((12, 8), (11, 7), (10, 6), (9, None))
"""Each portal's track of (main goal, secondary goal); the disc starts on the first space."""

SEALED = len(PORTAL_TRACK)
"""The track position of a sealed portal."""

CHECK_GOAL = 6
"""A skill check succeeds at this total (die plus cubes); a die of 1 always fails."""

DEFAULT_MAX_ROUNDS = 30


def starting_life(key: str) -> Bag:
    """Return an adventurer's six life cubes at the start: 3 main, 2 second, 1 third colour."""
    return Bag.from_counts(dict(zip(LIFE_COLOURS[key], LIFE_COUNTS, strict=True)))


def default_lose_order(key: str) -> tuple[str, str, str]:
    """Return the default order in which an adventurer loses life cubes: third, second, main colour."""
    main, second, third = LIFE_COLOURS[key]
    return (third, second, main)


def full_equipment_bag() -> Bag:
    """Return the equipment bag of the start: 8 potions and 2 upgrades of each colour."""
    return Bag.from_counts({POTION: BAG_POTIONS, **{colour: BAG_UPGRADES_PER_COLOUR for colour in COLOURS}})


def item_text(item: str) -> str:
    """Return an item as words: ``a potion``, ``a red upgrade``."""
    return "a potion" if item == POTION else f"a {item} upgrade"


@dataclass(frozen=True)
class Adventurer:
    """One adventurer: where it stands (``None`` once escaped), its life cubes, its
    backpack, the actions it has left this round and its POLICY LOSE order."""

    key: str
    card: str | None
    life: Bag
    backpack: Bag
    actions: int
    lose: tuple[str, ...]

    @property
    def name(self) -> str:
        """``Warrior``, ``Knight``, ``Archer`` or ``Cleric``."""
        return NAMES[self.key]

    @property
    def escaped(self) -> bool:
        """True once the adventurer has left the forest through the entrance."""
        return self.card is None

    @property
    def is_dead(self) -> bool:
        """True when the adventurer has lost his last life cube."""
        return self.life.is_empty

    def cubes(self, colour: str) -> int:
        """Return the cubes a check of ``colour`` counts: life cubes and upgrades of that colour."""
        return self.life.count(colour) + self.backpack.count(colour)

    @property
    def is_hurt(self) -> bool:
        """True when the adventurer has lost a life cube (a potion would help)."""
        return self.life != starting_life(self.key)

    @property
    def room(self) -> int:
        """How many more items fit into the backpack."""
        return BACKPACK_SIZE - self.backpack.size


@dataclass(frozen=True)
class Meanie:
    """The Magic Meanie: his life discs, his space on the status track while he is not on
    the map (``card`` None), and how often he was defeated."""

    life: int = MEANIE_LIFE
    space: int = 0
    card: str | None = None
    defeats: int = 0

    @property
    def space_name(self) -> str:
        """The status space he waits on (``1``, ``2``, ``3+``), or ``""`` on the map."""
        return "" if self.card is not None else MEANIE_SPACES[self.space]


@dataclass(frozen=True)
class QuestState:
    """Everything about a game in progress or finished.

    ``controllers[i]`` is the seat that plays ``ADVENTURERS[i]``. ``step``
    counts the action steps of the round's adventurers' phase. ``invaders``
    are ``(card, count)`` pairs in map order; ``portals`` the track position
    of the green, blue and yellow portal (:data:`SEALED` once sealed).
    ``guard`` is the POLICY GUARD order (empty: the default rule). ``result``
    is ``""`` while the quest goes on, then ``victory`` or ``defeat``.
    """

    seats: tuple[str, ...]
    controllers: tuple[str, ...]
    map_text: str
    round: int
    step: int
    adventurers: tuple[Adventurer, ...]
    invaders: tuple[tuple[str, int], ...]
    meanie: Meanie
    portals: tuple[int, ...]
    bag: Bag
    guard: tuple[str, ...] = ()
    max_rounds: int = DEFAULT_MAX_ROUNDS
    result: str = ""
    end_reason: str = ""

    @property
    def is_over(self) -> bool:
        """True once the quest is won or lost."""
        return bool(self.result)

    def adventurer(self, key: str) -> Adventurer:
        """Return the adventurer ``W``, ``K``, ``A`` or ``C``."""
        return self.adventurers[ADVENTURERS.index(key)]

    def with_adventurer(self, changed: Adventurer) -> QuestState:
        """Return the state with one adventurer replaced."""
        index = ADVENTURERS.index(changed.key)
        return replace(self, adventurers=self.adventurers[:index] + (changed,) + self.adventurers[index + 1:])

    def controller(self, key: str) -> str:
        """Return the seat that plays adventurer ``key``."""
        return self.controllers[ADVENTURERS.index(key)]

    def controlled_by(self, seat: str) -> tuple[str, ...]:
        """Return the adventurers ``seat`` plays, in adventurer order."""
        return tuple(key for key, owner in zip(ADVENTURERS, self.controllers, strict=True) if owner == seat)

    def active(self) -> tuple[Adventurer, ...]:
        """Return the adventurers still in the forest."""
        return tuple(a for a in self.adventurers if not a.escaped)

    def adventurers_on(self, card: str) -> tuple[Adventurer, ...]:
        """Return the adventurers standing on ``card``, in adventurer order."""
        return tuple(a for a in self.adventurers if a.card == card)

    def invaders_on(self, card: str) -> int:
        """Return how many invaders stand on ``card``."""
        return dict(self.invaders).get(card, 0)

    @property
    def invaders_on_map(self) -> int:
        """The invaders on the map."""
        return sum(count for _, count in self.invaders)

    @property
    def supply(self) -> int:
        """The invaders left in the supply."""
        return INVADERS - self.invaders_on_map

    def is_sealed(self, portal: str) -> bool:
        """True when the portal ``G``, ``B`` or ``Y`` is sealed."""
        return self.portals[PORTALS.index(portal)] >= SEALED

    @property
    def sealed_count(self) -> int:
        """How many portals are sealed."""
        return sum(1 for position in self.portals if position >= SEALED)

    @property
    def all_sealed(self) -> bool:
        """True when all three portals are sealed."""
        return self.sealed_count == len(PORTALS)


def dump_state(state: QuestState) -> dict[str, Any]:
    """Return ``state`` as JSON-compatible data (see :func:`load_state`)."""
    return {
        "seats": list(state.seats),
        "controllers": list(state.controllers),
        "map": state.map_text,
        "round": state.round,
        "step": state.step,
        "adventurers": [
            {"key": a.key, "card": a.card, "life": a.life.to_json(), "backpack": a.backpack.to_json(),
             "actions": a.actions, "lose": list(a.lose)}
            for a in state.adventurers
        ],
        "invaders": [[card, count] for card, count in state.invaders],
        "meanie": {"life": state.meanie.life, "space": state.meanie.space, "card": state.meanie.card,
                   "defeats": state.meanie.defeats},
        "portals": list(state.portals),
        "bag": state.bag.to_json(),
        "guard": list(state.guard),
        "max_rounds": state.max_rounds,
        "result": state.result,
        "end_reason": state.end_reason,
    }


def load_state(data: Mapping[str, Any]) -> QuestState:
    """Rebuild a state from :func:`dump_state` output (KeyError or ValueError on bad data)."""
    meanie = data["meanie"]
    return QuestState(
        seats=tuple(data["seats"]),
        controllers=tuple(data["controllers"]),
        map_text=str(data["map"]),
        round=int(data["round"]),
        step=int(data["step"]),
        adventurers=tuple(
            Adventurer(key=str(a["key"]), card=a["card"], life=Bag.from_json(a["life"]),
                       backpack=Bag.from_json(a["backpack"]), actions=int(a["actions"]), lose=tuple(a["lose"]))
            for a in data["adventurers"]
        ),
        invaders=tuple((str(card), int(count)) for card, count in data["invaders"]),
        meanie=Meanie(life=int(meanie["life"]), space=int(meanie["space"]), card=meanie["card"],
                      defeats=int(meanie["defeats"])),
        portals=tuple(int(p) for p in data["portals"]),
        bag=Bag.from_json(data["bag"]),
        guard=tuple(data["guard"]),
        max_rounds=int(data["max_rounds"]),
        result=str(data["result"]),
        end_reason=str(data["end_reason"]),
    )
