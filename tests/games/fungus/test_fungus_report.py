"""Fungus turn reports: the skewed hex board, legend and gems left, for every reader."""

from __future__ import annotations

import pytest
from fungus_scenarios import GAME, position

from pbem.core import GameRng
from pbem.games.fungus.orders import Place
from pbem.games.fungus.state import DROP
from pbem.reports import ReportInput, render_report

BOARD = """
. . . . .
 . 1 . . .
  . . 2 . .
   . . . 2 .
    . . . . 1
"""


def report_for(state, events=()):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput("g7", GAME, state, 5, list(events), [], None if outcome else GAME.phase(state), outcome)


@pytest.mark.parametrize("seat", ["1", "2", None])
def test_text_report_draws_the_skewed_board(seat: str | None) -> None:
    state = position(BOARD, supply=(20, 21))
    result = GAME.resolve(state, {"1": [Place("d3")]}, GameRng(0))
    text = render_report(report_for(result.state, result.events), seat)
    lines = text.splitlines()
    top = lines.index("    a b c d e")
    assert lines[top + 1 : top + 7] == [
        " 1  . . . . .  1",
        " 2   . 1 . . .  2",
        " 3    . . 2 1 .  3",
        " 4     . . . 2 .  4",
        " 5      . . . . 1  5",
        "        a b c d e",
    ]
    assert "Legend: . = empty cell, 1 = gem of seat 1, 2 = gem of seat 2." in text
    assert "19 gems left" in text and "21 gems left" in text
    assert "Seat 1 placed a gem on d3." in text
    assert "Fungus phase" in text
    if seat:
        assert f"Seat {seat} (you)" in text


def test_the_cells_of_a_row_touch_the_cells_below_left_and_below_right() -> None:
    state = position(BOARD)
    lines = render_report(report_for(state), None).splitlines()
    top = lines.index("    a b c d e")
    # c3 is drawn at the column between b4 and c4, which are its neighbours below
    row3, row4 = lines[top + 3], lines[top + 4]
    c3 = row3.index("2")
    assert row4[c3 - 1] == "." and row4[c3 + 1] == "."  # b4 and c4
    assert lines[top + 4].index("2") == c3 + 3  # d4: one cell right, half a cell down


def test_html_report_has_the_same_board_escaped() -> None:
    state = position(BOARD)
    html = render_report(report_for(state), "1", html=True)
    assert "<pre" in html and " 3    . . 2 . .  3" in html
    assert "another player&#39;s gem" in html and "player's" not in html


def test_report_of_a_finished_game_and_of_the_drop_phase() -> None:
    full = position(
        """
        1 1 1
         2 2 2
          1 1 .
        """,
        aggressive=True,
        kept=(("2",), ()),
        to_move="2",
    )
    result = GAME.resolve(full, {"2": [Place("c3")]}, GameRng(0))
    assert result.state.stage == DROP
    text = render_report(report_for(result.state, result.events), "1")
    assert "keeps 1 captured gem (1 of seat 2)" in text
    assert "Drop phase" in text and "Your orders are due" in text
    done = GAME.resolve(result.state, {"1": GAME.default_orders(result.state, "1")}, GameRng(0))
    text = render_report(report_for(done.state, done.events), None)
    assert "The game is over." in text and "Winner: 2" in text


def test_a_full_size_board_lines_up_two_digit_rows() -> None:
    state = GAME.setup(("1", "2", "3", "4"), {}, GameRng(0))
    text = render_report(report_for(state), None)
    assert "    a b c d e f g h i j\n" in text
    assert "\n10           . . . . . . . . . .  10\n" in text
    assert "\n             a b c d e f g h i j\n" in text
    assert "Seat 4: 25 gems left" in text


def test_kept_gems_of_several_colours_are_listed() -> None:
    state = position(BOARD, players=3, aggressive=True, kept=(("2", "3", "3"), (), ()))
    text = render_report(report_for(state), "3")
    assert "Seat 1: 35 gems left, 2 on the board in 2 groups, keeps 3 captured gems (1 of seat 2, 2 of seat 3)." in text
    assert "Seat 3 (you): 35 gems left, 0 on the board in 0 groups." in text
    assert 'Seat 1 is asked: "Place a gem next to another player\'s gem (35 left)."' in text
