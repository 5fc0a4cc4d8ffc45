"""Parsing Feaster Island orders with the game's grammar (plan §4.11: PLACE red:1 yellow:3, TAKE 3, PASS)."""

from __future__ import annotations

import pytest
from feaster_island_builders import GAME

from pbem.games.feaster_island.orders import Pass, Place, Take
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(("text", "orders"), [
    ("PLACE red:1 yellow:3\nTAKE 3", [Place((("red", 1), ("yellow", 3))), Take(3)]),
    ("place RED : 1   Yellow:3  # two cubes\ntake 3", [Place((("red", 1), ("yellow", 3))), Take(3)]),
    ("Pass", [Pass()]),
    ("PLACE white:6\nPLACE blue:2\n\nTAKE 6\n", [Place((("white", 6),)), Place((("blue", 2),)), Take(6)]),
])
def test_good_lines_parse_in_any_case(parser: OrderParser, text: str, orders: list[object]) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == orders


@pytest.mark.parametrize("order", [Place((("black", 4), ("green", 5), ("white", 6))), Take(1), Pass()])
def test_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]


def test_the_canonical_text_is_the_plan_notation() -> None:
    assert str(Place((("red", 1), ("yellow", 3)))) == "PLACE red:1 yellow:3"
    assert str(Take(3)) == "TAKE 3"
    assert str(Pass()) == "PASS"


@pytest.mark.parametrize(("text", "column", "message"), [
    ("PLACE red:7", 11, "expected a table column from 1 to 6"),
    ("PLACE purple:1", 7, "expected a dish colour (red, blue, green, yellow, black or white)"),
    ("PLACE red 1", 11, 'expected ":"'),
    ("PLACE", 6, "expected a dish colour"),
    ("TAKE 0", 6, "expected a table column from 1 to 6"),
    ("TAKE 12", 6, "expected a table column from 1 to 6"),
    ("TAKE 3 4", 8, 'expected nothing more on this line, found "4"'),
])
def test_a_bad_line_gives_its_column_and_the_expected_words(
    parser: OrderParser, text: str, column: int, message: str
) -> None:
    parsed = parser.parse("TAKE 1\n" + text)
    assert parsed.orders == [Take(1)]
    bad = parsed.lines[1]
    assert bad.problem is not None
    assert bad.problem.column == column, bad.problem
    assert message in bad.problem.message, bad.problem.message


def test_an_unknown_word_is_a_syntax_error(parser: OrderParser) -> None:
    bad = parser.parse("EAT 3").lines[0]
    assert bad.problem is not None and bad.problem.column == 1
