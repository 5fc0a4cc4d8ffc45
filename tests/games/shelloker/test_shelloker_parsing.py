"""Parsing Shelloker's orders with the game's grammar (CHECK is an order word here, as the
rule book and CLARIFICATIONS have it)."""

from __future__ import annotations

import pytest
from shelloker_builders import GAME

from pbem.games.shelloker.orders import Call, Check, Fold, Raise
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(
    ("text", "order"),
    [("CHECK", Check()), ("check  # wait and see", Check()), ("RAISE 6", Raise(6)), ("raise 12", Raise(12)),
     ("Call", Call()), ("FOLD", Fold())],
)
def test_every_action_parses_in_any_case(parser: OrderParser, text: str, order: object) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems and parsed.orders == [order]


@pytest.mark.parametrize("order", [Check(), Raise(7), Call(), Fold()])
def test_the_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(
    ("text", "message"),
    [("RAISE", "expected a bet space from 2 to 12, found the end of the line"),
     ("RAISE six", 'expected a bet space from 2 to 12, found "six"'),
     ("CALL 5", 'expected nothing more on this line, found "5"'),
     ("BET 5", 'found "BET"')],
)
def test_a_bad_line_says_what_was_expected(parser: OrderParser, text: str, message: str) -> None:
    problem = parser.parse(text).lines[0].problem
    assert problem is not None and message in problem.message, problem


def test_check_is_declared_as_the_one_command_word_used_as_an_order() -> None:
    """The conformance test allows exactly the declared command words among the order words."""
    assert GAME.command_words_as_orders == frozenset({"CHECK"})
    assert "a mail (or reply) whose only order line is CHECK sends\nthe CHECK order" in GAME.help()
