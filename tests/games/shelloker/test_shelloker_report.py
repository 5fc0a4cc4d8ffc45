"""Shelloker's report draws the table as a player would: cliffs, cube values, bets, shells, the
last showdown and the reader's hand."""

from __future__ import annotations

from game_views import report_input
from shelloker_builders import GAME, table

from pbem.pictures import board_svg
from pbem.reports import render_report


def test_the_report_shows_the_table() -> None:
    state = table({"1": "blue blue green", "2": "", "3": "white red yellow"}, cliffs="blue green blue",
                  bets=(6, 2, 1), folded=("2",), raised=True, to_play="3", shells=(14, 18, 9))
    text = render_report(report_input(GAME, state), "1")
    assert "Round 1; seat 1 holds the first-player disc. The top bet is 6." in text
    assert "Cliffs table: 1:blue 2:green 3:blue (9 empty)" in text
    assert "Cube values: red 1, blue 3, green 2, yellow 1, black 1, white 1" in text
    assert "The bag holds 39 cubes." in text
    assert "  seat 1 (you): 14 shells, bet 6, first player" in text
    assert "  seat 2: 18 shells, folded (bet 2 on the beach)" in text
    assert "  seat 3: 9 shells, bet 1, to play" in text
    assert "Your hand: blue, blue, green (worth 8)." in text
    assert 'Seat 3 is asked: "Round 1, the top bet is 6: CALL (to 6), RAISE n (n from 7 to 9), FOLD."' in text
    assert "Your hand" not in render_report(report_input(GAME, state), None)


def test_the_picture_marks_a_seat_that_checked_as_the_text_does() -> None:
    state = table({"1": "blue blue green", "2": "red", "3": "white"}, bets=(6, 6, 1), checked=("2",), to_play="3")
    assert "  seat 2: 20 shells, bet 6, checked\n" in render_report(report_input(GAME, state), None)
    assert ">seat 2: 20 shells, bet 6 (checked)<" in board_svg(GAME, state)
