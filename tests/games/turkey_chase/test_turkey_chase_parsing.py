"""Turkey Chase order text: every form parses, canonical text round-trips, bad
lines get a line, a column and the words expected."""

from __future__ import annotations

import pytest
from turkey_chase_scenarios import PARSER, sq

from pbem.games.turkey_chase.orders import Build, Destroy, Feed, Move, New


def test_every_order_form_parses_in_any_case_with_comments_and_blank_lines() -> None:
    text = "# my orders\nfeed a4\n\nDESTROY A6/B6   # pecking\n  Move F4-f5\nbuild H1/H2\nnew K6\nMOVE k10-K11\n"
    parsed = PARSER.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [
        Feed(sq("A4")),
        Destroy(sq("A6"), sq("B6")),
        Move(sq("F4"), sq("F5")),
        Build(sq("H1"), sq("H2")),
        New(sq("K6")),
        Move(sq("K10"), sq("K11")),
    ]
    assert [line.number for line in parsed.lines] == [2, 4, 5, 6, 7, 8]


@pytest.mark.parametrize(
    "text",
    ["FEED A4", "DESTROY A6/B6", "MOVE F4-F5", "BUILD H1/H2", "NEW A6", "MOVE K11-K10", "BUILD F10/F11", "FEED K11"],
)
def test_canonical_text_round_trips(text: str) -> None:
    (order,) = PARSER.parse(text.lower()).orders
    assert str(order) == text
    assert PARSER.parse(str(order)).orders == [order]


def test_a_fence_is_the_same_whichever_square_is_written_first() -> None:
    (destroy,) = PARSER.parse("DESTROY B6/A6").orders
    (build,) = PARSER.parse("BUILD F2/F1").orders
    assert destroy == Destroy(sq("A6"), sq("B6"))
    assert str(destroy) == "DESTROY A6/B6"
    assert str(build) == "BUILD F1/F2"
    assert destroy != Build(sq("A6"), sq("B6"))


def test_a_square_off_the_field_is_a_syntax_error_naming_a_square() -> None:
    (line,) = PARSER.parse("FEED Z4").lines
    assert line.problem is not None
    assert line.problem.column == 6
    assert line.problem.message == 'expected a square such as F6, found "Z4"'


@pytest.mark.parametrize("text", ["FEED L4", "FEED A12", "FEED A0", "NEW K0", "MOVE F11-F12", "BUILD A1/A0"])
def test_squares_are_lexed_tightly(text: str) -> None:
    (line,) = PARSER.parse(text).lines
    assert line.problem is not None
    assert "a square such as F6" in line.problem.message or "end of the line" in line.problem.message


def test_a_dash_is_not_a_fence() -> None:
    (line,) = PARSER.parse("DESTROY A6-B6").lines
    assert line.problem is not None
    assert line.problem.message == 'expected "/", found "-"'
    assert line.problem.column == 11


def test_a_bad_line_is_reported_with_its_number_and_the_good_lines_stand() -> None:
    parsed = PARSER.parse("FEED F1\nJUMP F1-F2\nMOVE F7 F8\nNEW A6")
    assert [str(o) for o in parsed.orders] == ["FEED F1", "NEW A6"]
    bad = {line.number: line.problem for line in parsed.lines if line.problem is not None}
    assert set(bad) == {2, 3}
    assert bad[2] is not None and bad[2].column == 1
    for word in ("BUILD", "DESTROY", "FEED", "MOVE", "NEW"):
        assert word in bad[2].message
    assert bad[3] is not None and bad[3].message == 'expected "-", found "F8"'


def test_an_empty_submission_is_no_orders() -> None:
    assert PARSER.parse("").orders == []
    assert PARSER.parse("# nothing this turn\n\n").orders == []
