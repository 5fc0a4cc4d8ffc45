"""Report rendering for Johnny and the Toe-Sap Fungus (text and HTML)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core import GameRng
from pbem.games.toe_sap_fungus.orders import MoveOrder, RankOrder, ValueOrder
from pbem.games.toe_sap_fungus.rules import ToeSapFungus
from pbem.games.toe_sap_fungus.state import ToeSapState
from pbem.reports import ReportInput, render_report

GAME = ToeSapFungus()


def report(state: ToeSapState, events: list, turn: int = 1) -> ReportInput:
    return ReportInput("beach-1", GAME, state, turn, events, [], None if GAME.outcome(state) else GAME.phase(state), GAME.outcome(state))


def first_turn(players: int) -> tuple[ToeSapState, list]:
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(0))
    resolution = GAME.resolve(state, {"1": [MoveOrder("e8", "e7")]}, GameRng(0))
    return resolution.state, resolution.events


@pytest.mark.parametrize("players", [2, 3, 4])
def test_text_report_draws_the_beach_for_every_reader(players: int) -> None:
    state, events = first_turn(players)
    for seat in (*GAME.seat_names(players), None):
        text = render_report(report(state, events), seat)
        lines = text.splitlines()
        top = lines.index("  8 | S . . . B . . S")
        assert lines[top + 1] == "  7 | . S . . 1 . S ."
        assert lines[top + 3] == ("  5 | 4 . . C S . . ." if players == 4 else "  5 | . . . C S . . .")
        assert lines[top + 7] == "  1 | S . . 3 . . . S" if players >= 3 else "  1 | S . . 2 . . . S"
        assert lines[top + 9] == "      a b c d e f g h"
        assert "Seat 1 moved e8-e7 and dropped a blue stone on e8." in text
        assert "C = Cownivore" in text and "S = shell" in text and "B = blue toe-sap (seat 1)" in text
        assert "6 cows" in text and "collected 0" in text
        assert "Seat 2 to move" in text
        if seat is not None:
            assert f"Seat {seat} (you)" in text


def test_two_player_report_shows_both_colours_left() -> None:
    state, events = first_turn(2)
    text = render_report(report(state, events), "1")
    assert "[blue+orange] on e7: 6 cows, 0 shells, 39 stones left (blue 19, orange 20)" in text


def test_html_report_holds_the_same_board_escaped() -> None:
    state, events = first_turn(4)
    html = render_report(report(state, events), "2", html=True)
    assert "<pre" in html and "  8 | S . . . B . . S" in html
    assert "seat 1&#39;s piece" in html
    assert "Seat 1 moved e8-e7" in html


def test_final_report_shows_values_points_and_hero() -> None:
    state = GAME.setup(GAME.seat_names(2), {}, GameRng(0))
    one = state.player("1")
    state = replace(state, stage="value", to_move="2").with_player(replace(one, collected=(0, 3, 0, 1)))
    first = GAME.resolve(state, {"2": [ValueOrder("green")]}, GameRng(0))
    assert first.state.to_move == "1"  # no shells anywhere: seat 1 has more stones
    last = GAME.resolve(first.state, {"1": [RankOrder(("blue", "orange", "white"))]}, GameRng(0))
    text = render_report(report(last.state, last.events, 90), None)
    assert "Values: green 5, blue 3, orange 2, white 1." in text
    assert "= 16 points" in text
    assert "Winner: 1" in text
    assert "Scores below are points." in text
