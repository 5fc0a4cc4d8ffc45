"""Parsing Harvest Day's orders with the game's grammar."""

from __future__ import annotations

import pytest
from harvest_builders import GAME

from pbem.games.harvest_day.orders import Move, Reveal
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(
    ("text", "order"),
    [("REVEAL 3", Reveal(3)), ("reveal 0  # a closed fist", Reveal(0)), ("MOVE 1-0", Move(1, 0)),
     ("move 5 - 4", Move(5, 4)), ("Move 2-3", Move(2, 3))],
)
def test_orders_parse_in_any_case_with_comments(parser: OrderParser, text: str, order: object) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems and parsed.orders == [order]


@pytest.mark.parametrize("order", [Reveal(4), Move(3, 2)])
def test_the_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(
    ("text", "message"),
    [("REVEAL", "expected a territory number from 0 to 5, found the end of the line"),
     ("REVEAL three", 'expected a territory number from 0 to 5, found "three"'),
     ("MOVE 1 0", 'expected "-", found "0"'),
     ("PLACE 3", 'expected MOVE or REVEAL, or nothing more on this line, found "PLACE"')],
)
def test_a_bad_line_says_what_was_expected(parser: OrderParser, text: str, message: str) -> None:
    problem = parser.parse(text).lines[0].problem
    assert problem is not None and message in problem.message, problem
