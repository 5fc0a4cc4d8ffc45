"""The lark transformer for the Epic Quest's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import (
    Action,
    Done,
    Escape,
    Give,
    Heal,
    Melee,
    Move,
    PolicyGuard,
    PolicyLose,
    Ranged,
    Rest,
    Ritual,
    Seal,
    Support,
    Take,
)
from .state import POTION

_ADVENTURER_KEYS = {"WARRIOR": "W", "KNIGHT": "K", "ARCHER": "A", "CLERIC": "C", "W": "W", "K": "K", "A": "A",
                    "C": "C"}


class _Verb:
    """A parsed verb waiting for its adventurer and slot: the order class and its arguments."""

    def __init__(self, kind: type[Action], *args: Any) -> None:
        self.kind = kind
        self.args = args


class QuestTransformer(OrdersTransformer):
    """Turns parse trees of the Epic Quest's orders into order dataclasses."""

    def adventurer(self, children: list[Token]) -> str:
        """Return the adventurer key (``W``, ``K``, ``A``, ``C``) a word names."""
        return _ADVENTURER_KEYS[str(children[0]).upper()]

    def actor(self, children: list[Token]) -> str:
        """Return the key of the adventurer an action line is for."""
        return self.adventurer(children)

    def target(self, children: list[Token]) -> str:
        """Return ``INVADER`` or ``MEANIE``."""
        return str(children[0]).upper()

    def colour(self, children: list[Token]) -> str:
        """Return a colour name in lower case."""
        return str(children[0]).lower()

    def item(self, children: list[Any]) -> str:
        """Return an item: ``potion`` (also written WHITE) or an upgrade's colour."""
        word = str(children[0]).lower()
        return POTION if word in ("potion", "white") else word

    def swap(self, children: list[str]) -> str:
        """Return the item of ``SWAP <item>``."""
        return children[0]

    def move(self, children: list[Token]) -> _Verb:
        return _Verb(Move, str(children[0]).lower())

    def heal(self, children: list[Any]) -> _Verb:
        return _Verb(Heal)

    def give(self, children: list[str]) -> _Verb:
        return _Verb(Give, children[0], children[1])

    def take(self, children: list[str]) -> _Verb:
        return _Verb(Take, children[0], children[1])

    def support(self, children: list[str]) -> _Verb:
        return _Verb(Support, children[0])

    def melee(self, children: list[str]) -> _Verb:
        return _Verb(Melee, children[0], children[1] if len(children) > 1 else "")

    def ranged(self, children: list[Any]) -> _Verb:
        return _Verb(Ranged, str(children[0]).lower(), children[1], children[2] if len(children) > 2 else "")

    def ritual(self, children: list[Any]) -> _Verb:
        return _Verb(Ritual)

    def seal(self, children: list[Any]) -> _Verb:
        return _Verb(Seal)

    def escape(self, children: list[Any]) -> _Verb:
        return _Verb(Escape)

    def rest(self, children: list[Any]) -> _Verb:
        return _Verb(Rest)

    def action(self, children: list[Any]) -> Action:
        """Return the order of an action line, with its ``@n`` slot when given."""
        slot = None
        if isinstance(children[0], Token) and children[0].type == "SLOT":
            slot = int(str(children[0])[1:])
            children = children[1:]
        key, verb = children
        return verb.kind(key, *verb.args, slot=slot)

    def done(self, children: list[Any]) -> Done:
        return Done()

    def policy_lose(self, children: list[str]) -> PolicyLose:
        return PolicyLose(children[0], tuple(children[1:]))

    def policy_guard(self, children: list[Any]) -> PolicyGuard:
        return PolicyGuard(tuple(c for c in children if isinstance(c, str) and not isinstance(c, Token)))
