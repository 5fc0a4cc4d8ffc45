"""Feaster Island reports and views: the table drawn as a player would, everything public."""

from __future__ import annotations

import json

import pytest
from feaster_island_builders import GAME, ScriptedRng, plate, table

from pbem.games.feaster_island.orders import Pass, Take
from pbem.games.feaster_island.state import STAGE_LAST
from pbem.reports import ReportInput, render_report


def _report(state, events=(), turn=1):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput("f1", GAME, state, turn, list(events), [], None if outcome else GAME.phase(state), outcome)


TABLE = ["red", "blue white", "", "green", "yellow yellow black", "white"]


@pytest.mark.parametrize("reader", ["1", "2", None])
@pytest.mark.parametrize("html", [False, True])
def test_the_columns_are_drawn_as_stacks_with_the_drawn_cubes_and_everyones_dishes(reader: str | None,
                                                                                 html: bool) -> None:
    state = table(TABLE, drawn=["white", "red"], plates=[plate(blue=2), plate(white=1, red=3)])
    text = render_report(_report(state), reader, html=html)
    assert "Side A dish values: blue 5, red 6, green 7, yellow 8, black 9, white 10." in text
    assert "The bag holds 30 cubes (5 blue, 5 red, 5 green, 5 yellow, 5 black, 5 white); 0 discarded." in text
    if not html:
        stacks = text.split("(B blue, R red, G green, Y yellow, K black, W white):\n\n")[1].split("\n")[:4]
        assert stacks == ["             K", "    W        Y", " R  B     G  Y  W", "[1][2][3][4][5][6]"]
    assert "column 5: yellow, yellow, black" in text and "column 3: empty" in text
    assert "Turn 1: seat 1 rolled 2 and drew 1 red and 1 white (in drawing order: white, red)." in text
    assert "You rolled 2 and drew 1 red and 1 white." in text


def test_the_dish_table_gives_counts_and_the_score_now() -> None:
    state = table(TABLE, drawn=["white"], plates=[plate(blue=2), plate(white=1, red=3)])
    text = render_report(_report(state), "2")
    assert "Dishes taken:     blue    red  green yellow  black  white  score" in text
    assert "  seat 1             2      0      0      0      0      0  -11  <- to play" in text
    assert "  seat 2 (you)       0      3      0      0      0      1  +11" in text
    assert "(in drawing order" not in text
    assert "  blue (5): seat 1 most (+5), seat 2 fewest (-5)" in text
    assert "  green (7): tie for most, tie for fewest" in text


def test_the_last_round_says_who_takes_next() -> None:
    state = table(TABLE, players=3, current=1, stage=STAGE_LAST, last_left=3)
    text = render_report(_report(state), "2")
    assert "Last round: seat 2 may take one column or pass (3 players still to take, seat 2 first)." in text
    assert "Last round: TAKE one column or PASS." in text


def test_the_final_report_lists_the_scoring_and_the_winner() -> None:
    state = table(["", "", "white", "", "", ""], players=2, current=1, stage=STAGE_LAST, last_left=2,
                  plates=[plate(blue=2), plate(red=1)])
    rng = ScriptedRng([])
    state = GAME.resolve(state, {"2": [Take(3)]}, rng).state
    result = GAME.resolve(state, {"1": [Pass()]}, rng)
    text = render_report(_report(result.state, result.events, turn=9), None)
    assert "Seat 1 took no column." in text
    assert "Blue (5 points; seat 1 2, seat 2 0): seat 1 has the most (+5); seat 2 has the fewest (-5)." in text
    assert "Final scores: seat 1 -11, seat 2 11." in text
    assert "The game is over. Winner: 2." in text
    assert "Seat 2 has the highest score, 11." in text


def test_every_view_is_public_and_the_same_for_every_reader_but_its_name() -> None:
    """Rule book: "All Dish cubes are public knowledge"; plan §4.11: no hidden information."""
    state = table(TABLE, drawn=["white", "red"], plates=[plate(blue=2), plate(white=1, red=3)])
    public = GAME.view(state, None)
    json.dumps(public)
    for seat in ("1", "2"):
        view = GAME.view(state, seat)
        assert view["you"] == seat
        assert {**view, "you": None, "players": public["players"]} == public
        assert [p["you"] for p in view["players"]] == [p == seat for p in ("1", "2")]
    assert GAME.has_hidden_information is False
