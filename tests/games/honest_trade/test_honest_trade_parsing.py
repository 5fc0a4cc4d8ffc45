"""Parsing An Honest Trade's orders with the game's grammar (plan 4.18 "Orders")."""

from __future__ import annotations

import pytest
from trade_builders import PARSER

from pbem.games.honest_trade.orders import (
    CUBE,
    CUBES,
    DISC,
    DISCS,
    RANDOM,
    Accuse,
    Act,
    Discard,
    Pass,
    React,
    Target,
)


@pytest.mark.parametrize(("text", "order"), [
    ("ACT RED", Act("red")),
    ("act White", Act("white")),
    ("ACT YELLOW CUBES", Act("yellow", CUBES)),
    ("ACT YELLOW disc  # singular is fine", Act("yellow", DISCS)),
    ("ACT GREEN 3 DISCS", Act("green", DISCS, "3")),
    ("ACT GREEN 03 cube", Act("green", CUBES, "3")),
    ("ACT BLUE CUBE", Act("blue", CUBE)),
    ("act blue discs", Act("blue", DISC)),
    ("TARGET 4", Target("4")),
    ("PASS", Pass()),
    ("ACCUSE", Accuse()),
    ("accuse pay Green", Accuse("green")),
    ("REACT", React()),
    ("DISCARD yellow", Discard("yellow")),
    ("discard Random", Discard(RANDOM)),
])
def test_every_order_parses_in_any_case_with_comments(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert not parsed.has_problems and parsed.orders == [order]


@pytest.mark.parametrize("order", [Act("red"), Act("yellow", DISCS), Act("green", CUBES, "2"), Act("blue", DISC),
                                   Target("3"), Pass(), Accuse(), Accuse("white"), React(), Discard("blue"),
                                   Discard(RANDOM)])
def test_the_canonical_text_round_trips(order: object) -> None:
    assert PARSER.parse(str(order)).orders == [order]


def test_the_canonical_texts_are_those_of_the_plan() -> None:
    assert [str(o) for o in (Act("green", DISCS, "3"), Act("blue", CUBE), Accuse("red"), Discard(RANDOM))] == [
        "ACT GREEN 3 DISCS", "ACT BLUE CUBE", "ACCUSE PAY RED", "DISCARD RANDOM"]


def test_an_action_and_a_target_go_in_one_mail() -> None:
    parsed = PARSER.parse("ACT YELLOW CUBES\nTARGET 2\n")
    assert parsed.orders == [Act("yellow", CUBES), Target("2")]


@pytest.mark.parametrize(("text", "message"), [
    ("ACT PURPLE", 'expected BLUE, GREEN, RED, WHITE or YELLOW, found "PURPLE"'),
    ("ACT YELLOW", "expected CUBES or DISCS, found the end of the line"),
    ("ACT GREEN CUBES", 'expected a seat number such as 2, found "CUBES"'),
    ("ACT RED CUBES", 'expected nothing more on this line, found "CUBES"'),
    ("ACCUSE PAY", "expected an action colour (red, white, yellow, green or blue), found the end of the line"),
    ("ACCUSE PAY black", 'expected an action colour (red, white, yellow, green or blue), found "black"'),
    ("DISCARD", "found the end of the line"),
    ("TARGET", "expected a seat number such as 2, found the end of the line"),
    ("STEAL 2", 'expected ACCUSE'),
])
def test_a_bad_line_says_what_was_expected(text: str, message: str) -> None:
    problem = PARSER.parse(text).lines[0].problem
    assert problem is not None and message in problem.message, problem
