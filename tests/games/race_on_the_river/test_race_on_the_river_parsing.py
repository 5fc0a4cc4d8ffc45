"""Parsing Race on the River orders with the game's grammar."""

from __future__ import annotations

import pytest
from race_on_the_river_builders import GAME

from pbem.games.race_on_the_river.orders import Bid
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(("text", "order"), [("BID 3", Bid(3)), ("bid 0", Bid(0)), ("  Bid\t12  # all in", Bid(12))])
def test_bid_parses_in_any_case(parser: OrderParser, text: str, order: Bid) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]


@pytest.mark.parametrize("cubes", [0, 1, 9, 30])
def test_canonical_text_round_trips(parser: OrderParser, cubes: int) -> None:
    order = Bid(cubes)
    assert str(order) == f"BID {cubes}"
    assert parser.parse(str(order)).orders == [order]


def test_comments_and_blank_lines_are_ignored(parser: OrderParser) -> None:
    parsed = parser.parse("# my bid\n\nBID 2\n")
    assert parsed.orders == [Bid(2)]
    assert parsed.lines[0].number == 3


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("BID x", 5, 'expected a number of stamina cubes such as 3, found "x"'),
        ("BID", 4, "expected a number of stamina cubes such as 3, found the end of the line"),
        ("BID 3x", 5, "expected a number of stamina cubes such as 3"),
        ("BID 3 4", 7, 'expected nothing more on this line, found "4"'),
    ],
)
def test_a_bad_line_gives_its_column_and_the_expected_words(
    parser: OrderParser, text: str, column: int, message: str
) -> None:
    parsed = parser.parse("BID 1\n" + text)
    assert parsed.orders == [Bid(1)]
    bad = parsed.lines[1]
    assert bad.number == 2
    assert bad.problem is not None
    assert bad.problem.column == column
    assert bad.problem.message.startswith(message)


def test_an_unknown_keyword_is_a_syntax_error(parser: OrderParser) -> None:
    bad = parser.parse("MOVE 3").lines[0]
    assert bad.problem is not None
    assert bad.problem.column == 1
    assert bad.problem.message == 'expected BID, or nothing more on this line, found "MOVE"'
