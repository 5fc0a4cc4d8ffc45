"""Secret colours reach only their holder until he is out or the game ends (views, events, reports,
pictures); sealed answers (REACT, PAY, TARGET) are never told unless used; and the rule of hidden
information holds: redrawing what a seat cannot know changes nothing the service shows or does."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from game_views import everything_shown, report_input
from hidden_invariance import check_hidden_variants
from test_conformance import play
from trade_builders import GAME, answer, run, trade, trader

from pbem.core import GameRng
from pbem.games.honest_trade.drawing import draw, draw_own
from pbem.games.honest_trade.secrets import possible_secrets
from pbem.games.honest_trade.state import COLOURS, REACTOR_WINDOW
from pbem.reports import render_report


@pytest.mark.parametrize("reader", ["1", "2", "3", None])
def test_a_seat_sees_only_its_own_secret_colour_and_the_public_none(reader: str | None) -> None:
    state = trade("red white blue")
    view = GAME.view(state, reader)
    assert [p["secret"] for p in view["players"]] == [c if s == reader else None
                                                     for s, c in zip(state.seats, state.secrets, strict=True)]
    assert view["you"] == (None if reader is None else {"seat": reader, "secret": state.secret_of(reader),
                                                        "react": False, "target": ""})


@pytest.mark.parametrize("reader", ["2", "3", None])
def test_no_channel_shows_another_seats_secret_colour(reader: str | None) -> None:
    """Seat 1 holding yellow or blue looks the same to every other reader and the public: view, text
    and HTML report, picture and scores."""
    tables = {"1": trader("red white yellow", "blue", blacks=1), "3": trader("red blue green", discs=2)}
    assert everything_shown(GAME, trade("yellow red green", traders=tables), reader) == \
        everything_shown(GAME, trade("blue red green", traders=tables), reader)


def test_the_holder_sees_his_colour_in_report_and_picture() -> None:
    state = trade("yellow red green")
    assert "Your secret colour: yellow." in render_report(report_input(GAME, state), "1")
    own = draw_own(GAME.view(state, "1"), "1")
    assert own is not None and "<title>Seat 1's secret colour: yellow</title>" in own
    assert "secret" not in draw(GAME.view(state, None))


def test_an_eliminated_traders_secret_is_told_to_everybody() -> None:
    """[R] "The Secret cube is revealed and the accused player is eliminated"."""
    state, _ = run(trade("yellow red green blue"), {"1": "ACT YELLOW CUBES"}, {"2": "ACCUSE"})
    assert GAME.view(state, None)["players"][0]["secret"] == "yellow"
    assert "seat 1: out of the game (secret colour yellow)" in render_report(report_input(GAME, state), None)


def test_every_secret_is_told_at_the_end() -> None:
    """Plan section 3: secrets are revealed in the public view and the final report once the game is over."""
    state = trade("green blue red", traders={"3": trader(out=True)})
    result = answer(answer(state, {"1": "ACT GREEN 2 CUBES"}).state, {"2": "ACCUSE"})
    assert [p["secret"] for p in GAME.view(result.state, None)["players"]] == ["green", "blue", "red"]
    text = render_report(report_input(GAME, result.state, result.events), None)
    assert "The game is over. The secret colours were: seat 1 green, seat 2 blue, seat 3 red." in text
    assert "    secret colour: blue" in text


def test_a_wrong_accusation_tells_only_that_the_colour_is_not_the_secret() -> None:
    """[R] "The accused player says "incorrect" and their Secret cube is not revealed"."""
    state, texts = run(trade("green blue red"), {"1": "ACT RED"}, {"2": "ACCUSE PAY red"})
    view = GAME.view(state, None)
    assert view["players"][0]["not_secret"] == ["red"] and view["players"][0]["secret"] is None
    assert not any("green" in t for t in texts)


def test_sealed_answers_are_in_no_view_but_their_holders() -> None:
    """Plan 4.18: ACCUSE, REACT, PAY and TARGET stay sealed until used. The actor sees his TARGET; a
    seat whose REACT still waits (after the reactor, clockwise) sees it; nobody else sees either."""
    state = answer(trade("green blue red white"), {"1": "ACT YELLOW CUBES\nTARGET 3"}).state
    assert GAME.view(state, "1")["you"]["target"] == "3"
    assert all(GAME.view(state, s)["you"]["target"] == "" for s in "234")
    assert "target" not in json.dumps(GAME.view(state, None)).replace('"target": ""', "")
    state = answer(state, {"2": "REACT", "3": "REACT", "4": "REACT"}).state
    assert state.step == REACTOR_WINDOW and state.reactor == "2"
    assert [GAME.view(state, s)["you"]["react"] for s in "1234"] == [False, False, True, True]
    public = GAME.view(state, None)
    assert public["you"] is None and public["reactor"] == {"seat": "2", "colour": "white"}
    assert "REACT stands" in render_report(report_input(GAME, state), "3")
    assert "REACT" not in render_report(report_input(GAME, state), None)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_redrawing_what_a_seat_cannot_know_changes_nothing_the_service_shows_or_does(players: int) -> None:
    """The rule of hidden information (plan X3) on states of random games."""
    changed = 0
    for seed in (7, 8):
        _, _, states = play(GAME, players, seed)
        for number, state in enumerate(states[:: max(1, len(states) // 12)]):
            changed += check_hidden_variants(GAME, state, GAME.seat_names(players), number)
    assert changed > 0


def test_a_redrawn_secret_fits_everything_public() -> None:
    """Each redrawn colour is among the trader's own cubes (a discard never takes the secret), not a
    colour a wrong accusation cleared, and the bag of two per colour is respected."""
    tables = {"1": trader("red white", cleared="white"), "2": trader("red white yellow"),
              "3": trader("red white", "green"), "4": trader(out=True)}
    state = trade("red white green red", traders=tables, to_play="2")
    assert possible_secrets(state, "1") == ("red",)
    drawn: Counter[tuple[str, ...]] = Counter()
    for seed in range(200):
        secrets = GAME.hidden_variant(state, None, GameRng(seed)).secrets
        assert secrets[0] == "red" and secrets[3] == "red"  # no choice left for seat 1; seat 4 is out, told
        assert secrets[1] in ("white", "yellow") and secrets[2] in ("white", "green")  # red: the bag is empty
        assert max(secrets.count(c) for c in COLOURS) <= 2
        drawn[secrets] += 1
    assert len(drawn) == 4


def test_a_redrawing_keeps_the_kept_seats_secret_and_nothing_changes_after_the_end() -> None:
    state = trade("blue white green")
    for seed in range(20):
        assert GAME.hidden_variant(state, "2", GameRng(seed)).secret_of("2") == "white"
    over = trade("green blue red", traders={"2": trader(out=True), "3": trader(out=True)})
    assert GAME.hidden_variant(over, None, GameRng(1)) is over
