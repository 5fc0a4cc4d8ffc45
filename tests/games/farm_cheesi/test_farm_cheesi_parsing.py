"""Farm-cheesi order text: every form parses, str() round-trips, bad lines say where and what."""

from __future__ import annotations

import pytest

from farm_cheesi_scenarios import PARSER
from pbem.games.farm_cheesi.orders import Bonus, Enter, Move


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("MOVE 2 5", Move(2, 5)),
        ("move 4 1", Move(4, 1)),
        ("  Move\t1   6  # the six", Move(1, 6)),
        ("ENTER", Enter()),
        ("enter", Enter()),
        ("BONUS 3", Bonus(3)),
        ("bonus 1", Bonus(1)),
    ],
)
def test_every_order_form_parses(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]


@pytest.mark.parametrize("order", [Move(m, d) for m in range(1, 5) for d in range(1, 7)] + [Enter()] + [Bonus(m) for m in range(1, 5)])
def test_canonical_text_round_trips(order: object) -> None:
    text = str(order)
    assert text == text.upper()
    assert PARSER.parse(text).orders == [order]


def test_a_whole_submission_with_comments_and_blank_lines() -> None:
    parsed = PARSER.parse("# my play\n\nENTER\nMOVE 1 3   # then three\n\n")
    assert parsed.orders == [Enter(), Move(1, 3)]
    assert [line.number for line in parsed.lines] == [3, 4]


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("MOVE 5 3", 6, 'expected a maggot number 1-4, found "5"'),
        ("MOVE 1 7", 8, 'expected a die value 1-6, found "7"'),
        ("MOVE 1", 7, "expected a die value 1-6, found the end of the line"),
        ("BONUS", 6, "expected a maggot number 1-4, found the end of the line"),
        ("ENTER 2", 7, 'expected nothing more on this line, found "2"'),
        ("JUMP 1 2", 1, 'expected BONUS, ENTER or MOVE, or nothing more on this line, found "JUMP"'),
    ],
)
def test_a_bad_line_names_its_column_and_the_expected_words(text: str, column: int, message: str) -> None:
    parsed = PARSER.parse(f"ENTER\n{text}\nMOVE 1 2")
    assert parsed.orders == [Enter(), Move(1, 2)]
    bad = [line for line in parsed.lines if line.problem is not None]
    assert len(bad) == 1 and bad[0].number == 2
    assert bad[0].problem is not None
    assert (bad[0].problem.column, bad[0].problem.message) == (column, message)


def test_numbers_are_single_digits() -> None:
    parsed = PARSER.parse("MOVE 12 3")
    assert parsed.has_problems
    parsed = PARSER.parse("MOVE 1 36")
    assert parsed.has_problems
