"""Parsing All in a Day's Work orders (plan 4.19: ``PLACE <space> [HUT <cell> | SHOP <shop>]``)."""

from __future__ import annotations

import pytest
from days_work_builders import GAME

from pbem.games.days_work.orders import Place
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(("text", "order"), [
    ("PLACE RED", Place("RED")),
    ("place feast  # hungry", Place("FEAST")),
    ("Place Temple", Place("TEMPLE")),
    ("PLACE BUILD1 HUT b1", Place("BUILD1", hut="b1")),
    ("place build1 hut B1", Place("BUILD1", hut="b1")),
    ("PLACE BUILD2 SHOP MARKET", Place("BUILD2", shop="MARKET")),
    ("PLACE build3 shop jewels", Place("BUILD3", shop="JEWELS")),
])
def test_every_order_form_parses_in_any_case(parser: OrderParser, text: str, order: Place) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]


@pytest.mark.parametrize("order", [Place("BLUE"), Place("BUILD3", hut="d3"), Place("BUILD1", shop="FISH")])
def test_canonical_text_round_trips(parser: OrderParser, order: Place) -> None:
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(("text", "column", "message"), [
    ("PLACE BUILD4", 7, ('expected an action space (BUILD1, BUILD2, BUILD3, TEMPLE, FEAST, RED, YELLOW, GREEN '
                         'or BLUE), found "BUILD4"')),
    ("PLACE BUILD1 HUT e1", 18, 'expected a village cell a1 to d3, found "e1"'),
    ("PLACE BUILD1 SHOP BAKERY", 19, 'expected a shop (FISH, MARKET or JEWELS), found "BAKERY"'),
    ("PLACE BUILD1 HUT", 17, "expected a village cell a1 to d3, found the end of the line"),
    ("PLAEC RED", 1, "did you mean PLACE?"),
])
def test_a_bad_line_gives_its_column_and_the_expected_words(parser: OrderParser, text: str, column: int,
                                                             message: str) -> None:
    parsed = parser.parse("PLACE RED\n" + text)
    assert parsed.orders == [Place("RED")]
    problem = parsed.lines[1].problem
    assert problem is not None and problem.column == column
    assert message in problem.message
