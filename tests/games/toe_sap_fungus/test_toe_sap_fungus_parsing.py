"""Parsing Toe-Sap Fungus orders: every form, canonical round trips, friendly errors."""

from __future__ import annotations

import pytest

from pbem.games.toe_sap_fungus.orders import MoveOrder, OfferOrder, RankOrder, ShellOrder, ValueOrder
from pbem.games.toe_sap_fungus.rules import ToeSapFungus
from pbem.orders import OrderParser

PARSER = OrderParser(ToeSapFungus())

FORMS = [
    ("MOVE e8-e7", MoveOrder("e8", "e7")),
    ("MOVE e8-e7 BLUE", MoveOrder("e8", "e7", "blue")),
    ("SHELL c2", ShellOrder("c2")),
    ("OFFER d5-d8-a5", OfferOrder(("d5", "d8", "a5"))),
    ("OFFER d5-d8", OfferOrder(("d5", "d8"))),
    ("VALUE WHITE", ValueOrder("white")),
    ("ORDER GREEN ORANGE BLUE", RankOrder(("green", "orange", "blue"))),
]


@pytest.mark.parametrize(("text", "order"), FORMS)
def test_every_form_parses_and_round_trips(text: str, order: object) -> None:
    parsed = PARSER.parse(text)
    assert parsed.orders == [order]
    assert str(order) == text
    assert PARSER.parse(str(order)).orders == [order]


def test_keywords_squares_and_colours_take_any_case_and_spacing() -> None:
    parsed = PARSER.parse("  move E8 - e7   Orange  # walk\n\nshell C2\nOffer D5-d8-A5\nvalue blue\norder Green white ORANGE\n")
    assert parsed.orders == [
        MoveOrder("e8", "e7", "orange"),
        ShellOrder("c2"),
        OfferOrder(("d5", "d8", "a5")),
        ValueOrder("blue"),
        RankOrder(("green", "white", "orange")),
    ]
    assert not parsed.has_problems


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("MOVE e8-e9", 9, 'expected a square such as e5, found "e9"'),
        ("MOVE e8 e7", 9, 'expected "-", found "e7"'),
        ("SHELL c22", 7, 'expected a square such as e5, found "c22"'),
        ("OFFER d5", 9, 'expected "-", found the end of the line'),
        ("OFFER d5-d8-a5-a1", 15, 'expected nothing more on this line, found "-"'),
        ("VALUE pink", 7, 'expected a colour (BLUE, GREEN, ORANGE or WHITE), found "pink"'),
        ("ORDER blue green", 17, "expected a colour (BLUE, GREEN, ORANGE or WHITE), found the end of the line"),
    ],
)
def test_bad_lines_say_where_and_what_was_expected(text: str, column: int, message: str) -> None:
    [line] = PARSER.parse(text).lines
    assert line.problem is not None
    assert (line.problem.column, line.problem.message) == (column, message)


def test_unknown_keyword_lists_the_order_words() -> None:
    [line] = PARSER.parse("JUMP c2").lines
    assert line.problem is not None
    for word in ("MOVE", "SHELL", "OFFER", "VALUE", "ORDER"):
        assert word in line.problem.message


def test_a_bad_line_does_not_spoil_the_good_ones() -> None:
    parsed = PARSER.parse("MOVE e8-e7\nSHELL z9\nVALUE green")
    assert [(line.number, line.is_ok) for line in parsed.lines] == [(1, True), (2, False), (3, True)]
    assert parsed.orders == [MoveOrder("e8", "e7"), ValueOrder("green")]
