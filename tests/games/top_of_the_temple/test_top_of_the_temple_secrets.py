"""The secret colours reach only their holder (views, events, reports, pictures) until the end,
and the rule of hidden information holds: redrawing the others' colours changes nothing the
service shows or does."""

from __future__ import annotations

import pytest
from game_views import everything_shown, report_input
from hidden_invariance import check_hidden_variants
from temple_builders import GAME, offer, temple
from test_conformance import play

from pbem.core import GameRng
from pbem.games.top_of_the_temple.drawing import draw_own
from pbem.reports import render_report


@pytest.mark.parametrize("reader", ["1", "2", "3", None])
def test_a_seat_sees_only_its_own_colour_and_the_public_none(reader: str | None) -> None:
    state = temple("blue red green", {"blue": 3, "yellow": 1})
    view = GAME.view(state, reader)
    colours = [p["colour"] for p in view["players"]]
    assert colours == [c if s == reader else None for s, c in zip(state.seats, state.secrets, strict=True)]
    assert view["undrawn"] is None
    assert view["you"] == (None if reader is None else {"seat": reader, "colour": state.secret_of(reader),
                                                        "step": state.step_of(state.secret_of(reader))})


@pytest.mark.parametrize("reader", ["2", "3", None])
def test_no_channel_shows_another_seats_colour(reader: str | None) -> None:
    """Seat 1 holding black or yellow looks the same to every other reader: view, text and
    HTML report and picture alike."""
    steps = {"black": 4, "yellow": 2, "red": 7}
    assert everything_shown(GAME, temple("black red green", steps), reader) == \
        everything_shown(GAME, temple("yellow red green", steps), reader)


def test_the_holder_sees_his_colour_in_report_and_picture() -> None:
    state = temple("black red green", {"black": 4})
    text = render_report(report_input(GAME, state), "1")
    assert "Your secret colour: black (your believer is on step 4)." in text
    assert "<title>Seat 1's secret colour: black</title>" in (draw_own(GAME.view(state, "1"), "1") or "")


def test_the_reveal_at_the_end_reaches_everyone() -> None:
    state = temple("blue red", {"red": 11})
    result = GAME.resolve(state, {"1": [offer("red green yellow black blue")]}, GameRng(0))
    text = render_report(report_input(GAME, result.state, result.events), None)
    assert "Secret colours: seat 1 blue (step 0), seat 2 red (step 12)." in text
    assert "Nobody drew: green, yellow, black." in text
    assert "The secret colours are revealed: seat 1 blue, seat 2 red" in text


def test_the_events_of_a_turn_are_public_and_the_same_whatever_the_others_hold() -> None:
    """Events name no secret: the same offer gives the same events whoever holds what,
    until the reveal at the end."""
    steps = {"blue": 3, "green": 6}
    one = GAME.resolve(temple("blue red", steps), {"1": [offer("green blue red black yellow")]}, GameRng(0))
    two = GAME.resolve(temple("blue black", steps), {"1": [offer("green blue red black yellow")]}, GameRng(0))
    assert one.events == two.events and all(e.seats is None for e in one.events)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_redrawing_the_other_colours_changes_nothing_the_service_shows_or_does(players: int) -> None:
    """The rule of hidden information (plan X3) on states of random games."""
    changed = 0
    for seed in (1, 2):
        _, _, states = play(GAME, players, seed)
        for number, state in enumerate(states):
            changed += check_hidden_variants(GAME, state, GAME.seat_names(players), seed * 100 + number)
    assert changed > 0


def test_a_redrawing_keeps_the_kept_colour_and_deals_the_others_from_the_unknown_ones() -> None:
    state = temple("blue red")
    dealt = {GAME.hidden_variant(state, "1", GameRng(s)).secrets for s in range(40)}
    assert {secrets[0] for secrets in dealt} == {"blue"}
    assert {secrets[1] for secrets in dealt} == {"red", "green", "yellow", "black"}
    assert {GAME.hidden_variant(state, None, GameRng(s)).secrets[0] for s in range(40)} == {
        "red", "blue", "green", "yellow", "black"}
