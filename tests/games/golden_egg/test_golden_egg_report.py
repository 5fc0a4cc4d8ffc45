"""The Great Golden Egg's report draws the cliffs as a player would; the picture too."""

from __future__ import annotations

from game_views import report_input
from golden_egg_builders import GAME, board, step, voted

from pbem.games.golden_egg.drawing import draw, draw_own
from pbem.reports import render_report


def test_the_report_draws_the_pyramid_and_a_table_of_every_groups_adventurers() -> None:
    """Every count stands under its seat's column heading."""
    state, events = voted(board({"1": "a b", "2": "f", "3": "c c"}), "d", "YES", "NO")
    text = render_report(report_input(GAME, state, events), "2")
    lines = text.splitlines()
    assert "The Sacred Cliffs, round 1 of at most 40; seat 1 is the guide, the target is d:" in text
    top = lines.index("                f (5)")
    assert lines[top + 4] == "    a (1) --- b (2) --- c (1)"
    header = lines.index("  cliff value   seat 1  seat 2  seat 3")
    assert lines[header + 1:header + 9] == [
        "    f    5           .       1       .",
        "    d *  3           .       .       .",
        "    e    3           .       .       .",
        "    a    1           1       .       .",
        "    b    2           1       .       .",
        "    c    1           .       .       2",
        "  to place           6       7       6",
        "  score              3       5       2",
    ]
    assert "Votes this round: seat 2 YES, seat 3 NO." in text
    assert "Seat 2 votes YES and seat 3 votes NO: the vote splits: seat 3 may move an adventurer; seat 2 takes " \
           "the disc and guides the next round." in text
    assert ('Seat 3 is asked: "You voted NO alone: you may MOVE <from>-<to> one of your adventurers to a '
            'connected cliff, or PASS."') in text


def test_the_guide_is_asked_with_the_cliffs_he_may_target() -> None:
    text = render_report(report_input(GAME, board({"1": "d e"})), "1")
    assert "Round 1, you are the guide: TARGET a cliff (a, b, c, f)." in text


def test_the_picture_shows_the_cliffs_the_target_the_counts_and_the_readers_filed_actions() -> None:
    state, _ = step(board({"1": "a b", "2": "f f"}), s1="TARGET d\nIF NO PASS")
    cliffs = draw(GAME.view(state, None))
    assert cliffs.startswith("<svg") and "<title>The Great Golden Egg</title>" in cliffs
    assert "f (5)" in cliffs and "d (3)" in cliffs and ">2</text>" in cliffs
    assert "round 1, seat 1 guides, target d" in cliffs and "filed in advance" not in cliffs
    own = draw_own(GAME.view(state, "1"), "1")
    assert own is not None and "<title>Seat 1's actions filed in advance: if both vote NO: PASS</title>" in own
    assert ">Your actions filed in advance:<" in own and ">if both vote NO: PASS<" in own
    assert draw_own(GAME.view(state, "2"), "2") is None
