"""An Honest Trade's report draws the traders' tables as a player would; the picture too."""

from __future__ import annotations

from game_views import report_input
from trade_builders import GAME, answer, trade, trader

from pbem.games.honest_trade.drawing import draw, draw_own
from pbem.raster import svg_to_png
from pbem.reports import render_report


def _window_state():  # type: ignore[no-untyped-def]
    tables = {"1": trader("red yellow green blue", "white", blacks=1, discs=1),
              "2": trader("red white green", "yellow", cleared="blue"), "3": trader(out=True)}
    state = trade("red green yellow blue", traders=tables, supply=(8, 9))
    return answer(state, {"1": "ACT YELLOW CUBES"})


def test_the_board_lists_each_traders_row_pushed_and_discarded_cubes_and_goods() -> None:
    result = _window_state()
    text = render_report(report_input(GAME, result.state, result.events), "2")
    board = text[text.index("Action 1, seat 1"):text.index("Scores:")]
    assert board.splitlines() == [
        "Action 1, seat 1's turn.",
        "Under way: seat 1 pushed yellow to take 2 black cubes.",
        "Supply: 8 black cubes, 9 discs.",
        "",
        "seat 1, to play",
        "    starting row: red, green, blue",
        "    pushed:       white, yellow",
        "    holds:        1 black cube, 1 disc",
        "seat 2 (you)",
        "    starting row: red, white, green",
        "    pushed:       yellow",
        "    discarded:    blue",
        "    holds:        0 black cubes, 0 discs",
        "    not the secret colour (wrong accusations): blue",
        "seat 3: out of the game (secret colour yellow)",
        "seat 4",
        "    starting row: red, white, yellow, green, blue",
        "    pushed:       -",
        "    holds:        0 black cubes, 0 discs",
        "",
        "Your secret colour: green.",
        "",
    ]
    assert "Seat 1 pushes yellow to take 2 black cubes." in text
    assert "Your orders are due." in text and "Next: turn 2. Seat 1 pushed yellow" in text
    public = render_report(report_input(GAME, result.state, result.events), None)
    assert 'Seats 2, 4 are asked: "Seat 1 pushed yellow to take 2 black cubes. Answer ACCUSE' in public
    assert "Your secret colour" not in public


def test_the_picture_shows_every_table_and_only_the_readers_secret() -> None:
    result = _window_state()
    board = draw(GAME.view(result.state, None))
    assert board.startswith("<svg") and "<title>An Honest Trade, action " in board
    assert "seat 3 is out of the game" in board and "not blue" in board
    assert "seat 1 pushed yellow to take 2 black cubes" in board
    assert board.count(">secret<") == 1  # seat 3's, told when he went out
    own = draw_own(GAME.view(result.state, "2"), "2")
    assert own is not None and "<title>Seat 2's secret colour: " in own and "Your secret colour:" in own
    assert svg_to_png(board).startswith(b"\x89PNG") and svg_to_png(own).startswith(b"\x89PNG")
