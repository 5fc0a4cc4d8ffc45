"""Parsing The Kentucksea Derby orders (CLARIFICATIONS: BET n, BID n, SPEED <colour> <row>; plan: SPEED PASS)."""

from __future__ import annotations

import pytest
from kentucksea_derby_builders import GAME

from pbem.games.kentucksea_derby.orders import Bet, Bid, Speed, SpeedPass
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(("text", "orders"), [
    ("BET 15", [Bet(15)]),
    ("bid 3   # to go first", [Bid(3)]),
    ("Speed BLUE 6", [Speed("blue", 6)]),
    ("speed pass", [SpeedPass()]),
    ("\n\nSPEED red 1\n", [Speed("red", 1)]),
])
def test_good_lines_parse_in_any_case(parser: OrderParser, text: str, orders: list[object]) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == orders


@pytest.mark.parametrize("order", [Bet(0), Bet(40), Bid(5), Speed("white", 3), SpeedPass()])
def test_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]


def test_the_canonical_text_is_the_plan_notation() -> None:
    assert [str(o) for o in (Bet(15), Bid(3), Speed("red", 1), SpeedPass())] == [
        "BET 15", "BID 3", "SPEED red 1", "SPEED PASS"]


@pytest.mark.parametrize(("text", "column", "message"), [
    ("BID", 4, "expected a number of shells such as 3"),
    ("BID x", 5, "expected a number of shells such as 3"),
    ("SPEED red 7", 11, "expected a row of the speed column, 1 (top) to 6"),
    ("SPEED purple 2", 7, "a racer colour (red, blue, green, yellow, black or white)"),
    ("SPEED red", 10, "expected a row of the speed column, 1 (top) to 6"),
    ("BET 10 20", 8, 'expected nothing more on this line, found "20"'),
])
def test_a_bad_line_gives_its_column_and_the_expected_words(
    parser: OrderParser, text: str, column: int, message: str
) -> None:
    parsed = parser.parse("BID 1\n" + text)
    assert parsed.orders == [Bid(1)]
    bad = parsed.lines[1]
    assert bad.problem is not None
    assert bad.problem.column == column, bad.problem
    assert message in bad.problem.message, bad.problem.message
