"""Tests of describe_syntax_error (pbem/orders.py), the one place lark errors become words."""

from __future__ import annotations

import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbem.orders import LineProblem, describe_syntax_error, keyword_word

GRAMMAR = r"""
start: _GO CELL (_TO CELL)?
_GO: /go\b/i
_TO: "to"i
CELL: /[a-h][1-8]/
%ignore " "
"""

WORDS = {"CELL": "a cell such as e5", "_TO": '"TO"'}


def word(name: str) -> str:
    return WORDS.get(name, f'"{name.lstrip("_")}"')


def describe(line: str) -> LineProblem:
    with pytest.raises(UnexpectedInput) as caught:
        Lark(GRAMMAR, parser="lalr").parse(line)
    return describe_syntax_error(caught.value, line, word)


def test_a_wrong_token_names_the_expected_word_and_what_was_found() -> None:
    assert describe("go e5 e6") == LineProblem('expected "TO", found "e6"', 7)


def test_a_line_that_stops_early_is_reported_after_its_last_character() -> None:
    assert describe("go e5 to  ") == LineProblem("expected a cell such as e5, found the end of the line", 9)


def test_a_line_that_may_end_says_nothing_more_is_the_other_choice() -> None:
    e6 = Token("CELL", "e6", start_pos=6, line=1, column=7)
    eol = UnexpectedToken(e6, {"_TO", "$END"})
    assert describe_syntax_error(eol, "go e5 e6", word) == LineProblem(
        'expected "TO", or nothing more on this line, found "e6"', 7)
    only = UnexpectedToken(e6, {"$END"})
    assert describe_syntax_error(only, "go e5 e6", word) == LineProblem(
        'expected nothing more on this line, found "e6"', 7)


def test_a_keyword_is_named_as_it_is_typed_and_a_sign_in_quotes() -> None:
    assert (keyword_word("bid"), keyword_word("-"), keyword_word("roll until")) == ("BID", '"-"', "ROLL UNTIL")


def test_an_unknown_character_is_quoted() -> None:
    problem = describe("go %")
    assert problem.column == 4 and problem.message.endswith('found "%"')


def test_terminals_are_named_by_the_given_namer() -> None:
    assert describe("e5") == LineProblem('expected "GO", found "e5"', 1)


def test_eof_and_characters_errors_built_by_hand_are_described_too() -> None:
    eof = UnexpectedEOF(["CELL"])
    assert describe_syntax_error(eof, "go ", word) == LineProblem(
        "expected a cell such as e5, found the end of the line", 3
    )
    chars = UnexpectedCharacters("go !", 3, 1, 4, allowed={"CELL"})
    assert describe_syntax_error(chars, "go !", word) == LineProblem('expected a cell such as e5, found "!"', 4)


def test_pbems_lalr_parse_gives_what_lark_gives_and_raises_the_same_errors() -> None:
    from pbem.orders import lalr_parse

    parser = Lark(GRAMMAR, parser="lalr")
    parse = lalr_parse(parser)
    assert parse is not parser.parse, "the lark installed is laid out as pbem expects: the quick path is used"
    assert parse("go e5 to e6") == parser.parse("go e5 to e6")
    for line in ("go e5 e6", "go %", "go e5 to  "):
        with pytest.raises(UnexpectedInput) as ours:
            parse(line)
        with pytest.raises(UnexpectedInput) as lark_s:
            parser.parse(line)
        assert type(ours.value) is type(lark_s.value)
        assert (ours.value.line, ours.value.column) == (lark_s.value.line, lark_s.value.column)
        assert describe_syntax_error(ours.value, line, word) == describe_syntax_error(lark_s.value, line, word)


def test_a_parser_with_more_than_one_start_rule_is_parsed_by_lark_itself() -> None:
    from pbem.orders import lalr_parse

    parser = Lark(GRAMMAR, parser="lalr", start=["start"])
    assert lalr_parse(parser)("go e5") == parser.parse("go e5")
    two = Lark(GRAMMAR + "\nother: CELL\n", parser="lalr", start=["start", "other"])
    assert lalr_parse(two) == two.parse


@pytest.mark.parametrize("text", [
    "FEED A4\nMOVE B3-B4\nNEW C5\n",
    "FEED A4\nMOVE B3-B4\nNEW C5",
    "\nFEED A4   \n# a comment\n\n  MOVE B3-B4 # going\nNEW C5\n\n",
    "FEED A4\r\n\r\nMOVE B3-B4\rNEW C5",
])
def test_each_order_is_paired_with_its_line_with_or_without_blank_lines_and_comments(text: str) -> None:
    from pbem.orders import content_lines, parser_for

    parsed = parser_for("turkey-chase").parse(text)
    expected = content_lines(text.replace("\r\n", "\n").replace("\r", "\n"))
    assert [(line.number, line.text) for line in parsed.lines] == expected
    assert [str(order) for order in parsed.orders] == ["FEED A4", "MOVE B3-B4", "NEW C5"]
    assert not parsed.has_problems
