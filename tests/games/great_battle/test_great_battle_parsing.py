"""Parsing The Great Battle orders (plan 4.15: ``ACTION <space>`` and its lines, ``PLACE`` in setup)."""

from __future__ import annotations

import pytest
from great_battle_builders import PARSER

from pbem.games.great_battle.orders import Action, Attack, Move, Place, Sabotage, Spawn, Upgrade


@pytest.mark.parametrize(("text", "order"), [
    ("ACTION MOVE3", Action("MOVE3")),
    ("action move1x2", Action("MOVE1X2")),
    ("MOVE b8-c6", Move("b8", "c6")),
    ("move B8 - C6  # round the lake", Move("b8", "c6")),
    ("SPAWN Red b8", Spawn("red", "b8")),
    ("UPGRADE c7", Upgrade("c7")),
    ("SABOTAGE GREEN", Sabotage("green")),
    ("ATTACK c7-d5", Attack("c7", "d5")),
    ("PLACE blue e8", Place("blue", "e8")),
])
def test_every_order_form_parses_in_any_case(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]


def test_a_whole_turn_parses_in_line_order() -> None:
    parsed = PARSER.parse("ACTION ATTACK\nATTACK c7-d5\n\nATTACK c7-d4\n")
    assert parsed.orders == [Action("ATTACK"), Attack("c7", "d5"), Attack("c7", "d4")]


@pytest.mark.parametrize("order", [Action("SABOTAGE"), Move("a8", "i2"), Spawn("yellow", "f1"), Upgrade("e5"),
                                   Sabotage("blue"), Attack("d5", "c7"), Place("green", "h2")])
def test_canonical_text_round_trips(order: object) -> None:
    assert PARSER.parse(str(order)).orders == [order]


@pytest.mark.parametrize(("text", "column", "message"), [
    ("ACTION MOVE4", 8, "expected an action space (MOVE3, MOVE1X2, SPAWN, UPGRADE, SABOTAGE or ATTACK)"),
    ("MOVE b8 c6", 9, 'expected a dash, as in "b8-c6"'),
    ("UPGRADE z1", 9, 'expected a hex such as b8, found "z1"'),
    ("UPGRADE b10", 9, 'expected a hex such as b8, found "b10"'),
    ("SABOTAGE purple", 10, "expected a colour (red, blue, green or yellow)"),
    ("ATACK c7-d5", 1, "did you mean ATTACK?"),
])
def test_a_bad_line_gives_its_column_and_the_expected_words(text: str, column: int, message: str) -> None:
    parsed = PARSER.parse("ACTION ATTACK\n" + text)
    assert parsed.orders == [Action("ATTACK")]
    problem = parsed.lines[1].problem
    assert problem is not None and problem.column == column
    assert message in problem.message
