"""The Great Regatta reports: the course drawn as a row of spaces, the result circles, the players."""

from __future__ import annotations

import pytest
from great_regatta_builders import GAME, ScriptedRng, regatta, sailing

from pbem.games.great_regatta.drawing import draw
from pbem.games.great_regatta.orders import Advance, Stop
from pbem.reports import ReportInput, render_report


def _report(state, events=(), turn=1):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput("r1", GAME, state, turn, list(events), [], None if outcome else GAME.phase(state), outcome)


@pytest.mark.parametrize("reader", ["1", "2", None])
@pytest.mark.parametrize("html", [False, True])
def test_the_course_shows_every_boat_and_the_one_being_sailed(reader: str | None, html: bool) -> None:
    state = sailing(regatta({"1": [5], "2": [0, 11]}), 9, covered=[3, 4], rolls=[4, 3], origin=0)
    text = render_report(_report(state), reader, html=html)
    assert "   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18" in text
    assert "   2   .   .   .   .   1   .   .   .  1*   .   2   .   .   .   .   .   .   ." in text
    assert "Result circles: (1) (2) [3] [4] (5) (6)" in text
    assert "Seat 1, voyage 1 of 5: the boat left 0 and stands on 9 (rolled 4, 3)." in text


def test_players_show_supply_boats_and_points() -> None:
    state = sailing(regatta({"1": [5], "2": [0, 11]}), 9, covered=[3], rolls=[3], origin=5)
    text = render_report(_report(state), "2")
    assert "  seat 1        4 in supply; boats on 5, sailing on 9*; 14 points  <- to play" in text
    assert "  seat 2 (you)  5 in supply; boats on 0, 11; 11 points" in text
    assert "Push your luck? ROLL, STOP or ROLL UNTIL <space>; silence is STOP." in text
    picture = draw(GAME.view(state, None))
    assert ">14 points</text>" in picture and ">11 points</text>" in picture  # the text's word, not "pts"


def test_the_final_report_names_the_winner() -> None:
    state = regatta({"1": [5, 12], "2": [9, 16]}, supply=[0, 1], current=1)
    result = GAME.resolve(state, {"2": [Advance(9), Stop()]}, ScriptedRng([1]))
    text = render_report(_report(result.state, result.events, turn=30), "1")
    assert "The regatta is over." in text
    assert "Every boat cube is used: the regatta is over. Scores: seat 1 17, seat 2 26." in text
    assert "The game is over. Winner: 2." in text
    assert "  seat 2        0 in supply; boats on 10, 16; 26 points" in text
