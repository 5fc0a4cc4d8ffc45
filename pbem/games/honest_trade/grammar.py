"""The lark transformer for An Honest Trade's grammar.lark (imported lazily by the game)."""

from __future__ import annotations

from typing import Any

from lark import Token

from pbem.core.transformer import OrdersTransformer

from .orders import (
    CUBE,
    CUBES,
    DISC,
    DISCS,
    RANDOM,
    Accuse,
    Act,
    Discard,
    Pass,
    React,
    Target,
)


def _tokens(children: list[Any]) -> list[str]:
    return [str(c) for c in children if isinstance(c, Token)]


def _plural(goods: str) -> str:
    """CUBES or DISCS, whichever ``goods`` names (singular or plural, any case)."""
    return CUBES if goods.lower().startswith("cube") else DISCS


class TradeTransformer(OrdersTransformer):
    """Turns the order lines into orders; goods may be written singular or plural."""

    def act_red(self, children: list[Any]) -> Act:
        """Return the order of an ``ACT RED`` line."""
        return Act("red")

    def act_white(self, children: list[Any]) -> Act:
        """Return the order of an ``ACT WHITE`` line."""
        return Act("white")

    def act_yellow(self, children: list[Any]) -> Act:
        """Return the order of an ``ACT YELLOW CUBES|DISCS`` line."""
        (goods,) = _tokens(children)
        return Act("yellow", _plural(goods))

    def act_green(self, children: list[Any]) -> Act:
        """Return the order of an ``ACT GREEN <seat> CUBES|DISCS`` line."""
        seat, goods = _tokens(children)
        return Act("green", _plural(goods), str(int(seat)))

    def act_blue(self, children: list[Any]) -> Act:
        """Return the order of an ``ACT BLUE CUBE|DISC`` line."""
        (goods,) = _tokens(children)
        return Act("blue", CUBE if _plural(goods) == CUBES else DISC)

    def target(self, children: list[Any]) -> Target:
        """Return the order of a ``TARGET <seat>`` line."""
        (seat,) = _tokens(children)
        return Target(str(int(seat)))

    def pass_(self, children: list[Any]) -> Pass:
        """Return the order of a ``PASS`` line."""
        return Pass()

    def accuse(self, children: list[Any]) -> Accuse:
        """Return the order of an ``ACCUSE [PAY <colour>]`` line."""
        pay = _tokens(children)
        return Accuse(pay[0].lower() if pay else "")

    def react(self, children: list[Any]) -> React:
        """Return the order of a ``REACT`` line."""
        return React()

    def discard(self, children: list[Any]) -> Discard:
        """Return the order of a ``DISCARD <colour>|RANDOM`` line."""
        (colour,) = _tokens(children)
        return Discard(colour.lower() if colour.lower() != RANDOM else RANDOM)
