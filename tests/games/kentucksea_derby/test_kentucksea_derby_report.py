"""The Kentucksea Derby reports and views: the speed column with its table, the race, the turn order."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from kentucksea_derby_builders import GAME, ScriptedRng, bids, derby

from pbem.games.kentucksea_derby.orders import Bet, SpeedPass
from pbem.games.kentucksea_derby.state import STAGE_BET, STAGE_SPEED
from pbem.pictures import board_svg
from pbem.reports import ReportInput, render_report

COLUMN = ("yellow", "red", "green", "black", "blue", "white")


def _report(state, events=(), turn=1):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput("d1", GAME, state, turn, list(events), [], None if outcome else GAME.phase(state), outcome)


@pytest.mark.parametrize("reader", ["1", "3", None])
@pytest.mark.parametrize("html", [False, True])
def test_the_speed_column_the_race_and_the_players(reader: str | None, html: bool) -> None:
    state = derby(3, column=COLUMN, stage=STAGE_SPEED, order=("3", "1", "2"), speakers=("1", "3"),
                  shells=(12, 0, 30), bets=(25, 10, 5), progress={"red": 30, "yellow": 26, "white": 3})
    text = render_report(_report(state), reader, html=html)
    assert "  row 1  yellow           6 5 5 4 6 4" in text
    assert "  row 2  red (seat 1)     5 4 5 5 4 4" in text
    assert "The race: 2 laps of 24 spaces (48 to run); places now:" in text
    assert "  1. red (seat 1)     lap 2, space 6 (30 run)" in text
    assert "  3. white            lap 1, space 3 (3 run)" in text
    assert "Round 1, turn order: 3, 1, 2. Speed moves to come: seats 1, 3 (1 next)." in text
    assert "seat 2" in text and "blue; rival black; 0 shells; bet 10;" in text


def test_a_tie_rebid_shows_the_order_so_far() -> None:
    state = GAME.resolve(derby(4, betting=False), bids(s1=3, s2=3, s3=1, s4=1), ScriptedRng([])).state
    text = render_report(_report(state), "1")
    assert "  places 1-2: seats 1, 2 tied (1 time): re-bid" in text
    assert "  places 3-4: seats 3, 4 tied (1 time): re-bid" in text
    assert "Silence bids 1." in text


def test_bets_appear_only_once_revealed() -> None:
    """Plan §4.10: bets are hidden until resolved, then public; the state holds none before."""
    state = derby(3, stage=STAGE_BET, shells=(40, 40, 40))
    before = GAME.view(state, "1")
    assert [p["bet"] for p in before["players"]] == [0, 0, 0]
    result = GAME.resolve(state, {"1": [Bet(12)], "2": [Bet(3)], "3": [Bet(0)]}, ScriptedRng([]))
    for reader in ("1", "2", None):
        assert "Bets revealed: seat 1 bets 12, seat 2 bets 3, seat 3 bets 0." in render_report(
            _report(result.state, result.events), reader)


def test_every_view_is_the_same_but_for_the_readers_name() -> None:
    state = derby(4, column=COLUMN, shells=(3, 5, 0, 9))
    public = GAME.view(state, None)
    json.dumps(public)
    for seat in ("1", "2", "3", "4"):
        view = GAME.view(state, seat)
        assert {**view, "you": None, "players": public["players"]} == public
        assert [p["you"] for p in view["players"]] == [s == seat for s in ("1", "2", "3", "4")]


def test_the_final_report_gives_the_final_order_and_the_winner() -> None:
    state = derby(3, column=COLUMN, stage=STAGE_SPEED, speakers=("1",), shells=(5, 5, 5),
                  progress={"yellow": 47})
    result = GAME.resolve(state, {"1": [SpeedPass()]}, ScriptedRng([1, 1, 1]))
    text = render_report(_report(result.state, result.events, turn=20), "2")
    assert "The race is over. Final order: 1st yellow" in text
    assert "  1. yellow           finished 1st" in text
    assert "The game is over. Winner:" in text


def test_the_picture_names_the_order_as_the_text_does() -> None:
    later = replace(derby(3, order=("3", "1", "2")), round=2)
    assert "(last round's order: 3, 1, 2)" in render_report(_report(later), None)
    assert ">last round's order: 3, 1, 2<" in board_svg(GAME, later)
    assert "order:" not in board_svg(GAME, derby(3))  # round 1: no order before the first bids
    speed = derby(3, stage=STAGE_SPEED, order=("3", "1", "2"), speakers=("1", "3"))
    assert ">turn order: 3, 1, 2<" in board_svg(GAME, speed)
