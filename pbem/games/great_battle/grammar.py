"""The lark transformer that builds The Great Battle orders from grammar.lark.

Only the game's ``transformer()`` imports this module, lazily, so the rules stay pure."""

from __future__ import annotations

from lark import Token

from pbem.core.transformer import OrdersTransformer
from pbem.games.great_battle.orders import Action, Attack, Move, Place, Sabotage, Spawn, Upgrade


def _words(children: list[Token]) -> list[str]:
    """The tokens of a line without its dashes, hexes and colours in lower case."""
    return [str(token).lower() for token in children if token.type != "DASH"]


class BattleTransformer(OrdersTransformer):
    """Turns a parse tree of grammar.lark into Great Battle orders (names in canonical case)."""

    def action(self, children: list[Token]) -> Action:
        """Return the order of an ``ACTION <space>`` line."""
        return Action(str(children[0]).upper())

    def move(self, children: list[Token]) -> Move:
        """Return the order of a ``MOVE b8-c6`` line."""
        return Move(*_words(children))

    def spawn(self, children: list[Token]) -> Spawn:
        """Return the order of a ``SPAWN red b8`` line."""
        return Spawn(*_words(children))

    def upgrade(self, children: list[Token]) -> Upgrade:
        """Return the order of an ``UPGRADE c7`` line."""
        return Upgrade(*_words(children))

    def sabotage(self, children: list[Token]) -> Sabotage:
        """Return the order of a ``SABOTAGE green`` line."""
        return Sabotage(*_words(children))

    def attack(self, children: list[Token]) -> Attack:
        """Return the order of an ``ATTACK c7-d5`` line."""
        return Attack(*_words(children))

    def place(self, children: list[Token]) -> Place:
        """Return the order of a ``PLACE red b8`` line."""
        return Place(*_words(children))
