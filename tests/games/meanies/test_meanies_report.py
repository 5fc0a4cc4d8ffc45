"""Meanies in our Midst's report shows the island card as a player would: the counters, the mission table,
the dice and the team, the missions so far; the reader's faction and cubes. The picture too."""

from __future__ import annotations

from dataclasses import replace

from game_views import report_input
from meanies_builders import GAME, on_mission, step, table

from pbem.games.meanies.drawing import draw, draw_own
from pbem.reports import render_report

HANDS = {"1": "white white blue yellow", "2": "black black blue blue", "3": "yellow yellow white black"}


def test_the_report_shows_counters_table_dice_team_and_the_readers_secrets() -> None:
    state = replace(on_mission(table("G G R G G", dice=(4, 1)), HANDS), minutians=1, meanies=2)
    text = render_report(report_input(GAME, state), "3")
    assert "  Minutians (green) [#][ ][ ] 1\n  Meanies   (red)   [#][#][ ] 2" in text
    assert "Mission table (die: cubes needed): 1 blue+yellow, 2 white+black, 3 blue+white, 4 yellow+black, " \
           "5 white+yellow, 6 blue+black" in text
    assert "In play: 4 Minutians and 1 Meanie; the Meanies do not know each other." in text
    assert "Seat 1 is the guide; the dice show 4, 1: needed 1 black, 1 blue, 2 yellow." in text
    assert "On the mission: seat 1 (the guide) and seats 2, 3." in text
    assert "Your faction: Meanie (red cube). Keep it to yourself.\nYour mission cubes: white, black, yellow, yellow." \
        in text
    assert "1, 2, 3: On the mission, sealed and silent: the guide KEEPs 2 of his 4 cubes" not in text
    assert "On the mission, sealed and silent" in text


def test_the_record_of_the_missions_lists_what_each_needed_and_brought_back() -> None:
    state, _ = step(on_mission(table("G G R G G"), HANDS), s1="KEEP white blue", s2="GIVE black blue",
                    s3="GIVE yellow white")
    text = render_report(report_input(GAME, state), None)
    assert "Missions so far:\n  round 1: guide 1, explorers 2, 3; dice 3, 6 (needed 1 white, 1 black, 2 blue); " \
           "brought back 2 white, 1 black, 2 blue, 1 yellow: the Minutians score" in text
    assert "Your faction" not in text and "Your mission cubes" not in text
    assert 'Seat 1 is asked: "The debrief: name the next guide, another player (GUIDE n)."' in text


def test_the_picture_shows_the_tracks_the_table_and_only_the_readers_secrets() -> None:
    state = on_mission(table("G G R G G", dice=(4, 4)), HANDS)
    board = draw(GAME.view(state, None))
    assert board.startswith("<svg") and "<title>Meanies in our Midst</title>" in board
    assert "Minutians" in board and "Mission table:" in board and "on the mission: 1, 2, 3" in board
    assert "Your faction" not in board and "Your mission cubes" not in board
    own = draw_own(GAME.view(state, "2"), "2")
    assert own is not None and "<title>Seat 2's faction: Minutian; mission cubes: " in own
    assert "Your faction: Minutian" in own and "Your mission cubes:" in own
