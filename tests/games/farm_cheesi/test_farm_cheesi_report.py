"""Farm-cheesi reports: the board drawn for every seat and the public, in text and HTML."""

from __future__ import annotations

import json

import pytest

from farm_cheesi_scenarios import GAME, ScriptedRng, farm, orders
from pbem.core import Event
from pbem.reports import ReportInput, render_report


def report_for(state, events=(), turn=3):  # type: ignore[no-untyped-def]
    return ReportInput("g1", GAME, state, turn, list(events), [], GAME.phase(state) if state.stage != "over" else None, GAME.outcome(state))


def busy_board():  # type: ignore[no-untyped-def]
    return farm(
        {"1": ["10", "22", "22", "H3"], "2": ["40"], "3": ["12", "HOME"], "4": ["C"]},
        roll=(6, 6),
        current="1",
        players=4,
    )


@pytest.mark.parametrize("seat", ["1", "2", "3", "4", None])
def test_the_text_report_draws_the_track_paths_carcasses_and_roll(seat: str | None) -> None:
    text = render_report(report_for(busy_board()), seat)
    assert "Squares 1-17:" in text and "Squares 52-68:" in text
    assert "  1   2   3   4  [5]  6   7   8   9  10  11 [12] 13  14  15  16 [17]" in text
    assert "  .   .   .   .   .   .   .   .   .   1   .   3   .   .   .   .   ." in text
    assert " =1= " in text  # the blockade of seat 1 on 22
    assert "Blockades: 22 (seat 1, maggots 2 and 3)." in text
    assert "- to move: enters at 5, exits at 68." in text
    assert "Home path: H1 .  H2 .  H3 4  H4 ." in text
    assert "Carcass: 3 (maggots 2, 3 and 4). HOME: none." in text  # seat 4
    assert "HOME: 1 (maggot 2)." in text  # seat 3
    assert "Roll: seat 1 rolled 6 and 6 (a doublet, number 1 this turn: roll again after playing)." in text
    assert "You rolled 6 and 6." in text
    if seat is not None:
        assert f"Seat {seat}" in text and "(you)" in text
    else:
        assert "(you)" not in text


def test_the_report_marks_the_opposite_faces_and_a_pending_bonus() -> None:
    state = farm({"1": ["10", "30", "40", "50"], "3": []}, roll=(5, 5))
    text = render_report(report_for(state), "1")
    assert "move 2, 2, 5, 5 (14 in all, or nothing)" in text
    bonus = farm({"1": ["10", "30", "40", "50"], "3": []}, stage="bonus", bonuses=(20, 10))
    assert "Bonus to use now: 20 then 10" in render_report(report_for(bonus), "3")


def test_the_report_shows_the_events_and_the_winner() -> None:
    state = farm({"1": ["H6", "HOME", "HOME", "HOME"], "3": ["20"]}, roll=(2, 1))
    result = GAME.resolve(state, {"1": orders("MOVE 1 2")}, ScriptedRng([]))
    text = render_report(report_for(result.state, result.events), "3")
    assert "Seat 1 moved maggot 1 from H6 to HOME with the 2 (bonus 10)." in text
    assert "Winner: seat 1." in text
    assert "The game is over. Winner: 1." in text


def test_the_team_report_names_the_teams_and_partner_pairs() -> None:
    state = farm({"1": ["14"], "3": ["14"], "2": ["30"], "4": ["30"]}, roll=(1, 2), teams=True)
    text = render_report(report_for(state), "2")
    assert "Teams: seats 1 and 3 against seats 2 and 4." in text
    assert "1+3" in text and "2+4" in text


@pytest.mark.parametrize("seat", ["1", None])
def test_the_html_report_holds_the_same_board_escaped(seat: str | None) -> None:
    event = Event("move", "Seat 1 moved <maggot> 1.", phase="Seat 1", seat="1")
    html = render_report(report_for(busy_board(), [event]), seat, html=True)
    assert html.startswith("<!DOCTYPE html>")
    assert "<pre" in html and "Squares 35-51:" in html
    assert "Seat 1 moved &lt;maggot&gt; 1." in html
    assert "H7 .  -&gt; HOME" in html
    assert "BONUS <maggot>" not in html


def test_the_view_is_public_and_json() -> None:
    state = busy_board()
    views = [GAME.view(state, seat) for seat in ("1", "2", None)]
    json.dumps(views)
    assert {key: value for key, value in views[0].items() if key != "you"} == {
        key: value for key, value in views[2].items() if key != "you"
    }
    view = views[2]
    assert view["roll"] == [6, 6] and view["doublets"] == 1 and view["move_values"] == [1, 1, 6, 6]
    assert view["players"][0]["carcass"] == [] and view["players"][3]["carcass"] == [1, 2, 3, 4]


def test_the_report_shows_a_held_home_bonus_and_a_third_doublet_that_ends_the_turn() -> None:
    state = farm({"1": ["H6", "30", "10"], "3": ["40"]}, roll=(2, 2))
    again = GAME.resolve(state, {"1": orders("MOVE 1 2\nMOVE 2 2")}, ScriptedRng([3, 3])).state
    text = render_report(report_for(again), "1")
    assert "HOME bonus for the end of the turn: 10." in text
    assert "Your HOME bonus of 10 waits for the end of your turn." in text
    third = farm({"1": ["H6", "30", "10"], "3": ["40"]}, roll=(2, 2), doublets=2)
    ended = GAME.resolve(third, {"1": orders("MOVE 1 2\nMOVE 2 2")}, ScriptedRng([4, 4])).state
    text = render_report(report_for(ended), "1")
    assert "Roll: seat 1 rolled 4 and 4 (a third doublet: the turn ends)." in text
    assert "Bonus to use now: 10 (each whole, with one maggot: BONUS <maggot>)." in text
