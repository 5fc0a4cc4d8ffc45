"""Parsing Resource Rich's orders with the game's grammar."""

from __future__ import annotations

import pytest
from rich_builders import GAME, give, keep

from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(
    ("text", "orders"),
    [("KEEP blue green\nGIVE red", [keep("blue green"), give("red")]),
     ("keep Yellow  # a shell", [keep("yellow")]),
     ("KEEP gem gems\ngive ROCK", [keep("green green"), give("red")]),
     ("KEEP pearl shells", [keep("blue yellow")])],
)
def test_orders_parse_in_any_case_and_by_resource_name(parser: OrderParser, text: str, orders: list[object]) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems and parsed.orders == orders


@pytest.mark.parametrize("order", [keep("blue"), keep("red red"), give("yellow")])
def test_the_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(
    ("text", "message"),
    [("KEEP", "expected a colour (blue, yellow, green or red) or resource (pearl, shell, gem, rock), found the end"),
     ("KEEP 2 blue", 'found "2"'),
     ("GIVE red blue", 'expected nothing more on this line, found "blue"'),
     ("PASS blue", 'expected GIVE or KEEP, or nothing more on this line, found "PASS"')],
)
def test_a_bad_line_says_what_was_expected(parser: OrderParser, text: str, message: str) -> None:
    problem = parser.parse(text).lines[0].problem
    assert problem is not None and message in problem.message, problem
