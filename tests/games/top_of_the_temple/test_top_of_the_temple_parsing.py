"""Parsing The Top of the Temple's orders with the game's grammar."""

from __future__ import annotations

import pytest
from temple_builders import GAME, offer

from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("OFFER blue green red black yellow", offer("blue green red black yellow")),
        ("offer Red BLUE green yellow black  # the NMR order", offer("red blue green yellow black")),
        ("  Offer black yellow green blue red", offer("black yellow green blue red")),
    ],
)
def test_an_offer_parses_in_any_case_with_comments(parser: OrderParser, text: str, order: object) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems and parsed.orders == [order]


def test_the_canonical_text_round_trips(parser: OrderParser) -> None:
    order = offer("yellow black red green blue")
    assert str(order) == "OFFER yellow black red green blue"
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("OFFER blue green red black", "expected a colour (red, blue, green, yellow or black), found the end of the line"),
        ("OFFER blue green red black white", 'expected a colour (red, blue, green, yellow or black), found "white"'),
        ("OFFER blue green red black yellow red", 'expected nothing more on this line, found "red"'),
        ("PLACE blue green red black yellow", 'expected OFFER'),
    ],
)
def test_a_bad_line_says_what_was_expected(parser: OrderParser, text: str, message: str) -> None:
    parsed = parser.parse(text)
    problem = parsed.lines[0].problem
    assert problem is not None and message in problem.message, problem
