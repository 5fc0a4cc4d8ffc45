"""The Three Pyramids reports, and the hidden hands: nobody sees another seat's cubes."""

from __future__ import annotations

import json
import re

import pytest
from three_pyramids_builders import GAME, play, table

from pbem.core import GameRng
from pbem.reports import ReportInput, render_report


def _report(state, events=(), turn=1):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput(
        "p1", GAME, state, turn, list(events), [], None if outcome else GAME.phase(state), outcome
    )


def _secret_table():  # type: ignore[no-untyped-def]
    # seat 1 holds every white cube; no white anywhere else
    return table(
        {
            "1": "white white white white white white white white white red",
            "2": "blue blue green",
            "3": "black yellow",
        },
        {"LEFT": {"2": "red"}, "CENTER": {"3": "green"}},
        to_play="2",
    )


@pytest.mark.parametrize("reader", ["1", "2", "3", None])
@pytest.mark.parametrize("html", [False, True])
def test_the_pyramids_are_drawn_with_every_side(reader: str | None, html: bool) -> None:
    text = render_report(_report(_secret_table()), reader, html=html)
    for name in ("LEFT pyramid (1 cube; colours on it: red)", "CENTER pyramid", "RIGHT pyramid (empty)"):
        assert name in text
    assert "|  X  |" in text
    assert "seat 2" in text and "seat 3" in text
    assert "The bag holds 37 cubes." in text
    assert "seat 1" in text and "10 cubes in hand" in text


def test_the_reader_sees_his_own_hand_and_his_plays() -> None:
    text = render_report(_report(_secret_table()), "2")
    assert "Your hand (3 cubes): 2 blue, 1 green." in text
    assert "You may play:" in text
    assert "LEFT: two cubes from: blue, green\n" in text
    assert "CENTER: one cube: green; two cubes from: blue\n" in text
    assert "RIGHT: (empty) one cube, any colour: blue, green\n" in text
    assert "seat 2 (you): -" in text  # his own (empty) side of the LEFT pyramid is marked


def test_a_seat_not_to_play_sees_his_hand_but_no_play_list() -> None:
    text = render_report(_report(_secret_table()), "3")
    assert "Your hand (2 cubes): 1 black, 1 yellow." in text
    assert "You may play:" not in text


@pytest.mark.parametrize("reader", ["2", "3", None])
def test_another_seats_hand_never_reaches_a_view_or_report(reader: str | None) -> None:
    state = _secret_table()
    view = GAME.view(state, reader)
    assert "white" not in json.dumps(view)
    for html in (False, True):  # the colour word as text, not the stylesheet's white-space
        assert not re.search(r"\bwhite\b(?!-)", render_report(_report(state), reader, html=html))
    if reader is None:
        assert view["hand"] is None and view["options"] is None
    else:
        assert view["hand"]["cubes"] == state.hand(reader).as_dict()
    assert [p["hand_size"] for p in view["players"]] == [10, 3, 2]
    assert "bag" not in view and view["bag_count"] == 37


def test_the_holder_sees_his_own_secret() -> None:
    view = GAME.view(_secret_table(), "1")
    assert view["hand"]["cubes"] == {"red": 1, "white": 9}


def test_draw_events_reach_only_the_drawing_seat() -> None:
    state = table({"1": "", "2": "red"}, {"LEFT": {"1": "blue"}}, to_play="2", passed=["1"])
    result = GAME.resolve(state, {"2": [play("CENTER red")]}, GameRng(8))
    draws = {e.seat: e for e in result.events if e.kind == "draw"}
    assert set(draws) == {"1", "2"}
    assert draws["1"].seats == ("1",) and draws["2"].seats == ("2",)
    assert draws["1"].text != draws["2"].text
    for reader, other in (("1", "2"), ("2", "1"), (None, "1"), (None, "2")):
        text = render_report(_report(result.state, result.events), reader)
        assert draws[other].text not in text
        if reader is not None:
            assert draws[reader].text in text
    public = render_report(_report(result.state, result.events), None)
    assert "Every player draws 10 cubes from the bag." in public
    assert "You drew" not in public


def test_the_round_scoring_and_the_winner_appear_in_the_final_report() -> None:
    state = table({"1": "", "2": "red"}, {"LEFT": {"1": "blue"}}, to_play="2", passed=["1"], round=3, scores=[40, 30])
    result = GAME.resolve(state, {"2": [play("CENTER red")]}, GameRng(0))
    text = render_report(_report(result.state, result.events, turn=60), "1")
    assert "The pyramids at the end of round 3 of 3:" in text
    assert "LEFT pyramid: seat 1 has the most cubes (1) and scores 12; seat 2 0 points (no cubes)." in text
    assert "Winner: 1" in text
    assert "Seat 1 has the highest score, 52." in text


def test_views_are_json() -> None:
    state = GAME.setup(("1", "2", "3", "4"), {}, GameRng(2))
    for reader in ("1", "2", "3", "4", None):
        view = GAME.view(state, reader)
        assert json.loads(json.dumps(view)) == view


def test_a_pyramid_the_reader_cannot_play_on_says_nothing() -> None:
    state = table({"1": "white blue", "2": "red"}, {"LEFT": {"2": "red"}})
    text = render_report(_report(state), "1")
    assert "LEFT: two cubes from: blue, white\n" in text
    state = table({"1": "white", "2": "red"}, {"LEFT": {"2": "red"}})
    assert "  LEFT: nothing\n" in render_report(_report(state), "1")
