"""Resource Rich's report shows the die, the direction spaces, every player's counts, the reader's
hand and pile, and the scoring card of the chosen side."""

from __future__ import annotations

from game_views import report_input
from rich_builders import GAME, rich

from pbem.reports import render_report


def test_the_report_draws_the_round_as_a_player_sees_it() -> None:
    state = rich({"1": "red blue blue yellow", "2": "green green green green", "3": "red red red red"},
                 {"1": "green"}, roll=4, discs=1, side="b")
    text = render_report(report_input(GAME, state), "1")
    assert "Round 1: the die shows 4: keep 2, give 1." in text
    assert ("Direction spaces (top to bottom): [X] clockwise, [ ] counter-clockwise, [ ] clockwise; "
            "the direction of play is counter-clockwise.") in text
    assert "  seat 1 (you): 4 in hand, 1 kept; passes to seat 3, gives to seat 2" in text
    assert "Your hand (4): 2 blue, 1 yellow, 1 red." in text
    assert "Your kept pile (1): 1 green." in text
    assert "Scoring (side B):" in text and "  green  gems: 2 each" in text
    assert "Your hand" not in render_report(report_input(GAME, state), None)
