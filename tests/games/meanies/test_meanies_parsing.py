"""Parsing Meanies in our Midst's orders with the game's grammar: the plan's notation, any letter case,
comments, and clear messages for bad lines."""

from __future__ import annotations

import pytest
from meanies_builders import PARSER

from pbem.games.meanies.orders import Choose, Give, Guide, Keep


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("CHOOSE 2 5", Choose(("2", "5"))),
        ("choose 2, 5, 7  # my team", Choose(("2", "5", "7"))),
        ("KEEP white blue", Keep(("white", "blue"))),
        ("keep WHITE Blue", Keep(("white", "blue"))),
        ("GIVE black black", Give(("black", "black"))),
        ("GUIDE 4", Guide("4")),
    ],
)
def test_every_order_of_the_plan_parses_in_any_case(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert not parsed.has_problems and parsed.orders == [order]


@pytest.mark.parametrize("order", [Choose(("3", "1")), Keep(("yellow", "white")), Give(("blue", "blue")),
                                   Guide("9")])
def test_the_canonical_text_round_trips(order: object) -> None:
    assert PARSER.parse(str(order)).orders == [order]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("GIVE black", "expected a mission cube colour (white, black, blue or yellow), found the end of the line"),
        ("GIVE black red", 'expected a mission cube colour (white, black, blue or yellow), found "red"'),
        ("KEEP white blue yellow", 'expected nothing more on this line, found "yellow"'),
        ("CHOOSE", "expected a seat number, found the end of the line"),
        ("CHOOSE 10", 'expected a seat number, found "10"'),
        ("GUIDE", "expected a seat number, found the end of the line"),
        ("VOTE YES", 'expected CHOOSE, GIVE, GUIDE or KEEP, or nothing more on this line, found "VOTE"'),
    ],
)
def test_a_bad_line_says_what_was_expected(text: str, message: str) -> None:
    parsed = PARSER.parse(text)
    problem = parsed.lines[0].problem
    assert problem is not None and message in problem.message, problem
