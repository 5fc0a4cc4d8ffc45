"""The lark transformer for The Great Golden Egg's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import ActionOrder, Add, Move, Pass, Plan, Target, Vote


def _words(children: list[Any]) -> list[str]:
    return [str(child).lower() for child in children if isinstance(child, Token)]


class GoldenEggTransformer(OrdersTransformer):
    """Turns the lines of a submission into orders."""

    def target(self, children: list[Any]) -> Target:
        """Return the order of a ``TARGET d`` line."""
        (cliff,) = _words(children)
        return Target(cliff)

    def vote(self, children: list[Any]) -> Vote:
        """Return the order of a ``VOTE YES`` or ``VOTE NO`` line."""
        (answer,) = _words(children)
        return Vote(answer == "yes")

    def plan(self, children: list[Any]) -> Plan:
        """Return the order of an ``IF YES <action>`` or ``IF NO <action>`` line."""
        (answer,) = _words(children)
        action: ActionOrder = next(child for child in children if not isinstance(child, Token))
        return Plan(answer == "yes", action)

    def add(self, children: list[Any]) -> Add:
        """Return the order of an ``ADD`` or ``ADD b`` line."""
        cliffs = _words(children)
        return Add(cliffs[0] if cliffs else None)

    def move(self, children: list[Any]) -> Move:
        """Return the order of a ``MOVE b-e`` line."""
        source, dest = _words(children)
        return Move(source, dest)

    def pass_(self, children: list[Any]) -> Pass:
        """Return the order of a ``PASS`` line."""
        return Pass()
