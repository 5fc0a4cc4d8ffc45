"""Parsing Fungus orders: every form, canonical text, and friendly syntax errors."""

from __future__ import annotations

import pytest

from pbem.games import find_game
from pbem.games.fungus.orders import Drop, DropNone, Place
from pbem.orders import OrderParser

PARSER = OrderParser(find_game("fungus"))


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("PLACE e5", Place("e5")),
        ("place E5", Place("e5")),
        ("Place j10", Place("j10")),
        ("PLACE s19", Place("s19")),
        ("PLACE e5 TAKE f5", Place("e5", "TAKE", "f5")),
        ("place e5 keep F5", Place("e5", "KEEP", "f5")),
        ("DROP c3", Drop("c3")),
        ("drop C3 of 2", Drop("c3", "2")),
        ("DROP NONE", DropNone()),
        ("  drop   none   # nothing to drop", DropNone()),
    ],
)
def test_every_order_form_parses_and_round_trips(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]
    again = PARSER.parse(str(order))
    assert again.orders == [order]


def test_canonical_texts() -> None:
    assert str(Place("e5")) == "PLACE e5"
    assert str(Place("e5", "TAKE", "f5")) == "PLACE e5 TAKE f5"
    assert str(Place("e5", "KEEP", "f5")) == "PLACE e5 KEEP f5"
    assert str(Drop("c3")) == "DROP c3"
    assert str(Drop("c3", "2")) == "DROP c3 OF 2"
    assert str(DropNone()) == "DROP NONE"


def test_several_lines_with_comments_and_blanks() -> None:
    parsed = PARSER.parse("# my drops\nDROP a1\n\n  DROP b2 OF 3 # the other\n")
    assert parsed.orders == [Drop("a1"), Drop("b2", "3")]
    assert [line.number for line in parsed.lines] == [2, 4]


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("PLACE e50", 7, 'expected a cell such as e5, found "e50"'),
        ("PLACE z1", 7, 'expected a cell such as e5, found "z1"'),
        ("PLACE e0", 7, 'expected a cell such as e5, found "e0"'),
        ("PLACE", 6, "expected a cell such as e5, found the end of the line"),
        ("PLACE e5 TAKE", 14, "expected a cell such as e5, found the end of the line"),
        ("DROP", 5, 'expected NONE or a cell such as e5, found the end of the line'),
        ("DROP c3 OF 5", 12, 'expected a seat number such as 2, found "5"'),
    ],
)
def test_bad_lines_name_line_column_and_expected_words(text: str, column: int, message: str) -> None:
    parsed = PARSER.parse("DROP NONE\n" + text)
    bad = parsed.lines[1]
    assert bad.number == 2
    assert bad.problem is not None
    assert bad.problem.column == column
    assert bad.problem.message == message
    assert parsed.orders == [DropNone()]


def test_a_wrong_word_lists_the_order_words() -> None:
    parsed = PARSER.parse("PUT e5")
    problem = parsed.lines[0].problem
    assert problem is not None and problem.column == 1
    assert "expected DROP or PLACE, or nothing more on this line" in problem.message


def test_words_after_a_place_must_be_take_or_keep() -> None:
    parsed = PARSER.parse("PLACE e5 GRAB f5")
    problem = parsed.lines[0].problem
    assert problem is not None and problem.column == 10
    assert '"TAKE"' in problem.message and '"KEEP"' in problem.message
