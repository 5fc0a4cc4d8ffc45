"""The Top of the Temple's report draws the stairway as a player would; the picture too."""

from __future__ import annotations

import re

from game_views import report_input
from temple_builders import GAME, offer, temple

from pbem.core import GameRng
from pbem.games.top_of_the_temple.drawing import draw, draw_own
from pbem.reports import render_report


def test_the_stairway_lists_each_step_from_the_top_down_with_its_believers() -> None:
    result = GAME.resolve(temple("blue red"), {"1": [offer("blue green yellow black red")]}, GameRng(0))
    text = render_report(report_input(GAME, result.state, result.events), "2")
    lines = text.splitlines()
    top = lines.index("  12 TOP |")
    assert lines[top + 12 - 5] == "   5     | blue"
    assert lines[top + 12 - 3] == "   3     | green"
    assert lines[top + 12 - 1] == "   1     | yellow"
    assert lines[top + 12] == "   0     | red black"
    assert "Offer spaces, left to right: +5 +3 +1 -1 -2" in text
    assert "Last offer (seat 1): blue +5, green +3, yellow +1, black -1, red -2" in text
    assert "Your secret colour: red (your believer is on step 0)." in text
    assert "Seat 1 offers blue +5, green +3, yellow +1, black -1, red -2." in text
    assert "Place the five colours on the offer spaces +5 +3 +1 -1 -2" in text


def test_the_picture_shows_every_believer_and_the_readers_colour() -> None:
    state = temple("blue red", {"blue": 5, "green": 12})
    board = draw(GAME.view(state, None))
    assert board.startswith("<svg") and "<title>The Top of the Temple</title>" in board and "TOP" in board
    assert "secret colour" not in board
    own = draw_own(GAME.view(state, "1"), "1")
    assert own is not None and ">Your secret colour:<" in own and 'fill="#1f77b4"' in own  # a blue cube


def test_the_own_picture_names_the_secret_colour_in_words_under_its_cube() -> None:
    own = draw_own(GAME.view(temple("blue red"), "2"), "2")
    assert own is not None and '">red</text>' in own


def test_the_stairway_starts_right_under_the_heading_with_no_empty_band_above_it() -> None:
    for state in (temple("blue red"), temple("blue red", {"blue": 5, "green": 12})):
        board = draw(GAME.view(state, None))
        heading_y = float(re.search(r'<text x="10" y="([\d.]+)"[^>]*font-weight="bold"', board)[1])
        tops = [float(y) for y in re.findall(r'<rect x="[\d.]+" y="([\d.]+)" width="(?:40|13)', board)]
        assert min(tops) - heading_y < 30, (heading_y, min(tops))
