"""Parsing Epic Quest orders: the plan's notation, any letter case, abbreviations, canonical text, and
bad lines answered with what was expected."""

from __future__ import annotations

import pytest

from pbem.games.epic_quest.orders import (
    Done,
    Escape,
    Give,
    Heal,
    Melee,
    Move,
    PolicyGuard,
    PolicyLose,
    Ranged,
    Rest,
    Ritual,
    Seal,
    Support,
    Take,
)
from pbem.orders import parser_for

PARSER = parser_for("epic-quest")

GOOD = [
    ("WARRIOR MOVE b1", Move("W", "b1"), "WARRIOR MOVE b1"),
    ("@2 w move B1", Move("W", "b1", slot=2), "@2 WARRIOR MOVE b1"),
    ("a move a1", Move("A", "a1"), "ARCHER MOVE a1"),
    ("Knight heal", Heal("K"), "KNIGHT HEAL"),
    ("ARCHER GIVE POTION TO CLERIC", Give("A", "potion", "C"), "ARCHER GIVE POTION TO CLERIC"),
    ("A GIVE WHITE TO C", Give("A", "potion", "C"), "ARCHER GIVE POTION TO CLERIC"),
    ("CLERIC TAKE RED FROM WARRIOR", Take("C", "red", "W"), "CLERIC TAKE RED FROM WARRIOR"),
    ("ARCHER SUPPORT CLERIC", Support("A", "C"), "ARCHER SUPPORT CLERIC"),
    ("WARRIOR MELEE INVADER", Melee("W", "INVADER"), "WARRIOR MELEE INVADER"),
    ("K MELEE meanie", Melee("K", "MEANIE"), "KNIGHT MELEE MEANIE"),
    ("W MELEE INVADER SWAP blue", Melee("W", "INVADER", "blue"), "WARRIOR MELEE INVADER SWAP BLUE"),
    ("ARCHER RANGED b2 INVADER", Ranged("A", "b2", "INVADER"), "ARCHER RANGED b2 INVADER"),
    ("@1 A RANGED C2 MEANIE", Ranged("A", "c2", "MEANIE", slot=1), "@1 ARCHER RANGED c2 MEANIE"),
    ("A RANGED b2 INVADER SWAP POTION", Ranged("A", "b2", "INVADER", "potion"), "ARCHER RANGED b2 INVADER SWAP POTION"),
    ("CLERIC RITUAL", Ritual("C"), "CLERIC RITUAL"),
    ("CLERIC SEAL", Seal("C"), "CLERIC SEAL"),
    ("WARRIOR ESCAPE", Escape("W"), "WARRIOR ESCAPE"),
    ("KNIGHT REST", Rest("K"), "KNIGHT REST"),
    ("done", Done(), "DONE"),
    ("POLICY LOSE WARRIOR BLUE GREEN RED", PolicyLose("W", ("blue", "green", "red")),
     "POLICY LOSE WARRIOR BLUE GREEN RED"),
    ("policy guard k w", PolicyGuard(("K", "W")), "POLICY GUARD KNIGHT WARRIOR"),
    ("POLICY GUARD DEFAULT", PolicyGuard(()), "POLICY GUARD DEFAULT"),
]


@pytest.mark.parametrize(("text", "order", "canonical"), GOOD, ids=[g[2] for g in GOOD])
def test_every_order_of_the_plan_parses_and_prints_its_canonical_text(text: str, order: object, canonical: str) -> None:
    """Plan 4.21 Orders [D]: [@n] <adventurer> <verb> [args], DONE, POLICY ..."""
    parsed = PARSER.parse(text)
    assert not parsed.has_problems, parsed.lines[0].problem
    assert parsed.orders == [order]
    assert str(parsed.orders[0]) == canonical
    assert PARSER.parse(canonical).orders == [order]


def test_a_whole_step_with_comments_and_blank_lines() -> None:
    text = "# my step\n@1 ARCHER MOVE e3   # onto the portal\n\n@2 ARCHER SUPPORT CLERIC\nDONE\n"
    parsed = PARSER.parse(text)
    assert [str(o) for o in parsed.orders] == ["@1 ARCHER MOVE e3", "@2 ARCHER SUPPORT CLERIC", "DONE"]
    assert [line.number for line in parsed.lines] == [2, 4, 5]


BAD = [
    ("WARRIOR MOVE", "expected a card such as b1, found the end of the line"),
    ("WARRIOR JUMP b1", ('expected ESCAPE, GIVE, HEAL, MELEE, MOVE, RANGED, REST, RITUAL, SEAL, '
                         'SUPPORT or TAKE, found "JUMP"')),
    ("WARIOR MOVE b1", "did you mean WARRIOR?"),
    ("W GIVE SWORD TO K", 'expected BLUE, GREEN, POTION, RED, WHITE or YELLOW, found "SWORD"'),
    ("W GIVE RED TO JOE", 'found "JOE"'),
    ("POLICY LOSE W RED BLUE", "found the end of the line"),
    ("POLICY GUARD", "CLERIC, DEFAULT, K"),
    ("W RANGED b1", 'expected INVADER or MEANIE, found the end of the line'),
    ("@0 W REST", "a step slot such as @1 (@1 to @99)"),
    ("@100 W REST", "a step slot such as @1 (@1 to @99)"),
    ("W MOVE b100", 'expected a card such as b1, found "b100"'),
    ("DONE DONE", 'expected nothing more on this line, found "DONE"'),
    ("MOVE b1", 'found "MOVE"'),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_line_is_refused_saying_what_was_expected(text: str, message: str) -> None:
    (line,) = PARSER.parse(text).lines
    assert line.problem is not None and message in line.problem.message, line.problem


def test_a_bad_line_leaves_the_good_ones() -> None:
    parsed = PARSER.parse("WARRIOR MOVE b1\nWARRIOR FLY\nDONE")
    assert [line.problem is None for line in parsed.lines] == [True, False, True]
    assert [str(o) for o in parsed.orders] == ["WARRIOR MOVE b1", "DONE"]
