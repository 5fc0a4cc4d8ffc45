"""Parsing Festival of Statues orders with the game's grammar (CLARIFICATIONS: ``ADD r,c`` and
``MOVE r,c-r,c``, any letter case, ``#`` comments)."""

from __future__ import annotations

import pytest
from festival_builders import GAME

from pbem.games.festival_of_statues.orders import Add, Move
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(("text", "order"), [
    ("ADD 3,4", Add(3, 4)),
    ("add 3, 4   # next to the fountain", Add(3, 4)),
    ("MOVE 3,4-5,6", Move(3, 4, 5, 6)),
    ("Move 1,1 - 6,6", Move(1, 1, 6, 6)),
])
def test_every_order_form_parses_in_any_case(parser: OrderParser, text: str, order: object) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]


@pytest.mark.parametrize("order", [Add(1, 6), Move(6, 1, 2, 5)])
def test_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(("text", "column", "message"), [
    ("ADD 7,2", 5, 'expected a row or column number from 1 to 6, found "7"'),
    ("ADD 3,47", 7, 'expected a row or column number from 1 to 6, found "47"'),
    ("ADD 3", 6, 'expected a comma, as in "3,4" (row 3, column 4), found the end of the line'),
    ("MOVE 3,4 5,6", 10, 'expected a dash, as in "MOVE 3,4-5,6"'),
    ("PASS", 1, 'expected ADD or MOVE, or nothing more on this line'),
    ("ADDD 3,4", 1, "did you mean ADD?"),
])
def test_a_bad_line_gives_its_column_and_the_expected_words(parser: OrderParser, text: str, column: int,
                                                             message: str) -> None:
    parsed = parser.parse("ADD 1,1\n" + text)
    assert parsed.orders == [Add(1, 1)]
    problem = parsed.lines[1].problem
    assert problem is not None and problem.column == column
    assert message in problem.message
