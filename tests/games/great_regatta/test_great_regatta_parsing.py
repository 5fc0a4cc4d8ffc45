"""Parsing The Great Regatta orders (CLARIFICATIONS: NEW, ADVANCE 7, ROLL, STOP, ROLL UNTIL 15)."""

from __future__ import annotations

import pytest
from great_regatta_builders import GAME

from pbem.games.great_regatta.orders import Advance, New, Roll, RollUntil, Stop
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(("text", "orders"), [
    ("NEW\nROLL UNTIL 15", [New(), RollUntil(15)]),
    ("advance 7\nstop", [Advance(7), Stop()]),
    ("  Roll   until\t12  # as far as 12", [RollUntil(12)]),
    ("ROLL", [Roll()]),
    ("new\n\nroll\n", [New(), Roll()]),
])
def test_good_lines_parse_in_any_case(parser: OrderParser, text: str, orders: list[object]) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == orders


@pytest.mark.parametrize("order", [New(), Advance(18), Roll(), Stop(), RollUntil(9)])
def test_canonical_text_round_trips(parser: OrderParser, order: object) -> None:
    assert parser.parse(str(order)).orders == [order]
    assert str(order) in ("NEW", "ADVANCE 18", "ROLL", "STOP", "ROLL UNTIL 9")


@pytest.mark.parametrize(("text", "column", "message"), [
    ("ADVANCE", 8, "expected a space of the course, 0 to 18"),
    ("ADVANCE x", 9, "expected a space of the course, 0 to 18"),
    ("ROLL UNTIL", 11, "expected a space of the course, 0 to 18"),
    ("ROLL UNTIL 150", 12, "expected a space of the course, 0 to 18"),
    ("STOP 3", 6, 'expected nothing more on this line, found "3"'),
    ("ROLL 3", 6, 'expected UNTIL, or nothing more on this line, found "3"'),
    ("ROLL UNTILL 4", 6, "did you mean UNTIL?"),
])
def test_a_bad_line_gives_its_column_and_the_expected_words(
    parser: OrderParser, text: str, column: int, message: str
) -> None:
    parsed = parser.parse("NEW\n" + text)
    assert parsed.orders == [New()]
    bad = parsed.lines[1]
    assert bad.problem is not None
    assert bad.problem.column == column, bad.problem
    assert message in bad.problem.message, bad.problem.message
