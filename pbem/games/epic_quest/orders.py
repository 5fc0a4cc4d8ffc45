"""The Epic Quest's orders (the transformer that builds them is in grammar.py).

An action line is ``[@n] <adventurer> <verb> [args]``; ``str()`` gives the
canonical text, e.g. ``@1 WARRIOR MOVE b1`` or ``ARCHER RANGED b1 INVADER SWAP POTION``.
``DONE`` and the ``POLICY`` lines belong to the controller, not to an adventurer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .state import NAMES

INVADER = "INVADER"
MEANIE = "MEANIE"
TARGETS = (INVADER, MEANIE)


def adventurer_word(key: str) -> str:
    """Return an adventurer's order word: ``WARRIOR``, ``KNIGHT``, ``ARCHER`` or ``CLERIC``."""
    return NAMES[key].upper()


@dataclass(frozen=True)
class Action:
    """An action of one adventurer, optionally in step slot ``slot`` (``@n``)."""

    adventurer: str
    slot: int | None = field(default=None, kw_only=True)

    verb = ""
    costs_action = True
    """False for a free order (ESCAPE)."""

    def arguments(self) -> str:
        """The words after the verb (override)."""
        return ""

    def __str__(self) -> str:
        slot = f"@{self.slot} " if self.slot is not None else ""
        rest = self.arguments()
        return f"{slot}{adventurer_word(self.adventurer)} {self.verb}{' ' + rest if rest else ''}"


@dataclass(frozen=True)
class Move(Action):
    """``MOVE <card>``: step onto a neighbouring card."""

    card: str
    verb = "MOVE"

    def arguments(self) -> str:
        return self.card


@dataclass(frozen=True)
class Heal(Action):
    """``HEAL``: drink a potion and get every life cube back."""

    verb = "HEAL"


@dataclass(frozen=True)
class Give(Action):
    """``GIVE <item> TO <adventurer>``: hand an item to an adventurer on the same card."""

    item: str
    other: str
    verb = "GIVE"

    def arguments(self) -> str:
        return f"{self.item.upper()} TO {adventurer_word(self.other)}"


@dataclass(frozen=True)
class Take(Action):
    """``TAKE <item> FROM <adventurer>``: take an item from an adventurer on the same card."""

    item: str
    other: str
    verb = "TAKE"

    def arguments(self) -> str:
        return f"{self.item.upper()} FROM {adventurer_word(self.other)}"


@dataclass(frozen=True)
class Support(Action):
    """``SUPPORT <adventurer>``: add this adventurer's cubes to the other's next check in this step."""

    other: str
    verb = "SUPPORT"

    def arguments(self) -> str:
        return adventurer_word(self.other)


def _swap_words(swap: str) -> str:
    return f" SWAP {swap.upper()}" if swap else ""


@dataclass(frozen=True)
class Melee(Action):
    """``MELEE INVADER|MEANIE [SWAP <item>]``: a red check against an enemy on the same card.
    ``swap`` is the item put back into the bag for a reward when the backpack is full
    (``""``: keep the backpack and forfeit the reward)."""

    target: str
    swap: str = ""
    verb = "MELEE"

    def arguments(self) -> str:
        return f"{self.target}{_swap_words(self.swap)}"


@dataclass(frozen=True)
class Ranged(Action):
    """``RANGED <card> INVADER|MEANIE [SWAP <item>]``: a green check against an enemy on a
    neighbouring card (``swap`` as for :class:`Melee`)."""

    card: str
    target: str
    swap: str = ""
    verb = "RANGED"

    def arguments(self) -> str:
        return f"{self.card} {self.target}{_swap_words(self.swap)}"


Attack = Melee | Ranged


@dataclass(frozen=True)
class Ritual(Action):
    """``RITUAL``: a yellow check against the Magic Meanie, wherever he is."""

    verb = "RITUAL"


@dataclass(frozen=True)
class Seal(Action):
    """``SEAL``: a portal check against the portal on the adventurer's card."""

    verb = "SEAL"


@dataclass(frozen=True)
class Escape(Action):
    """``ESCAPE``: leave through the entrance once every portal is sealed (free)."""

    verb = "ESCAPE"
    costs_action = False


@dataclass(frozen=True)
class Rest(Action):
    """``REST``: spend an action doing nothing."""

    verb = "REST"


@dataclass(frozen=True)
class Done:
    """``DONE``: the controller's adventurers forfeit their remaining actions this round."""

    def __str__(self) -> str:
        return "DONE"


@dataclass(frozen=True)
class PolicyLose:
    """``POLICY LOSE <adventurer> <c1> <c2> <c3>``: the order in which it loses life cubes."""

    adventurer: str
    colours: tuple[str, ...]

    def __str__(self) -> str:
        return f"POLICY LOSE {adventurer_word(self.adventurer)} {' '.join(c.upper() for c in self.colours)}"


@dataclass(frozen=True)
class PolicyGuard:
    """``POLICY GUARD <adventurer> ...``: who takes invader attacks first on a shared card;
    no adventurer (``POLICY GUARD DEFAULT``) goes back to the default rule."""

    order: tuple[str, ...]

    def __str__(self) -> str:
        return "POLICY GUARD " + (" ".join(adventurer_word(k) for k in self.order) if self.order else "DEFAULT")


QuestOrder = Action | Done | PolicyLose | PolicyGuard
