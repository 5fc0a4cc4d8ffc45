"""Parsing The Great Golden Egg's orders with the game's grammar: the plan's notation, any letter case,
comments, and clear messages for bad lines."""

from __future__ import annotations

import pytest
from golden_egg_builders import PARSER

from pbem.games.golden_egg.orders import Add, Move, Pass, Plan, Target, Vote


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("TARGET d", Target("d")),
        ("target F  # the Golden Egg", Target("f")),
        ("VOTE YES", Vote(True)),
        ("vote no", Vote(False)),
        ("ADD", Add()),
        ("add c", Add("c")),
        ("MOVE b-e", Move("b", "e")),
        ("Move B - E", Move("b", "e")),
        ("PASS", Pass()),
        ("IF YES ADD", Plan(True, Add())),
        ("if no move a-d", Plan(False, Move("a", "d"))),
        ("IF NO ADD b", Plan(False, Add("b"))),
        ("IF NO PASS", Plan(False, Pass())),
    ],
)
def test_every_order_of_the_plan_parses_in_any_case(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert not parsed.has_problems and parsed.orders == [order]


@pytest.mark.parametrize("order", [Target("e"), Vote(True), Vote(False), Add(), Add("a"), Move("d", "f"), Pass(),
                                   Plan(True, Move("b", "d")), Plan(False, Add("c"))])
def test_the_canonical_text_round_trips(order: object) -> None:
    assert PARSER.parse(str(order)).orders == [order]


def test_a_guide_can_send_his_target_with_both_actions_in_one_mail() -> None:
    parsed = PARSER.parse("TARGET d\n  IF YES ADD\nIF NO MOVE b-e  # if they both refuse\n")
    assert parsed.orders == [Target("d"), Plan(True, Add()), Plan(False, Move("b", "e"))]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("TARGET g", 'expected a cliff (a to f), found "g"'),
        ("TARGET", "expected a cliff (a to f), found the end of the line"),
        ("VOTE MAYBE", 'expected YES or NO, found "MAYBE"'),
        ("MOVE b", "found the end of the line"),
        ("MOVE b-", "expected a cliff (a to f), found the end of the line"),
        ("IF YES", "found the end of the line"),
        ("ADD ab", 'found "ab"'),
    ],
)
def test_a_bad_line_says_what_was_expected(text: str, message: str) -> None:
    parsed = PARSER.parse(text)
    problem = parsed.lines[0].problem
    assert problem is not None and message in problem.message, problem
