"""Secrets reach only their holder: a faction its seat until the end, a mission hand its member and nobody
else ever, and who gave which cubes nobody at all, not even at the end (the state does not keep it). The
rule of hidden information holds under redrawing."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from game_views import everything_shown
from hidden_invariance import check_hidden_variants
from meanies_builders import GAME, on_mission, step, table
from test_conformance import play

from pbem.core import GameRng
from pbem.games.meanies.state import STAGE_MISSION

HANDS = {"1": "white white blue yellow", "2": "black black blue blue", "3": "yellow yellow white black"}


@pytest.mark.parametrize("reader", ["1", "3", "4", None])
def test_another_seats_faction_shows_nowhere(reader: str | None) -> None:
    """Seat 2 a Meanie or a Minutian (and seat 5 the other) looks the same to every other reader and the
    public: view, text and HTML report, picture and scores."""
    assert everything_shown(GAME, table("G R G G G"), reader) == everything_shown(GAME, table("G G G G R"), reader)


def test_a_seat_sees_its_own_faction_and_the_public_none() -> None:
    state = table("G R G G G")
    assert GAME.view(state, "2")["you"] == {"seat": "2", "faction": {"faction": "meanie", "name": "Meanie",
                                                                     "cube": "red"}}
    assert "Your faction: Meanie (red cube). Keep it to yourself." in everything_shown(GAME, state, "2")
    assert "Meanie (red cube)" not in everything_shown(GAME, state, "1")
    public = GAME.view(state, None)
    assert public["you"] is None and all(p["faction"] is None for p in public["players"])


@pytest.mark.parametrize("reader", ["1", "3", "4", None])
def test_another_members_hand_shows_nowhere(reader: str | None) -> None:
    """Seat 2 holding two blacks and two blues or two whites and two yellows looks the same to everybody else,
    the guide and the other explorer included."""
    one = on_mission(table("G G R G G"), HANDS)
    two = on_mission(table("G G R G G"), {**HANDS, "2": "white white yellow yellow"})
    assert everything_shown(GAME, one, reader) == everything_shown(GAME, two, reader)


def test_a_member_sees_his_own_hand_and_nobody_else_does() -> None:
    state = on_mission(table("G G R G G"), HANDS)
    assert GAME.view(state, "2")["hand"] == {"cubes": ["black", "black", "blue", "blue"],
                                             "text": "black, black, blue, blue"}
    assert "Your mission cubes: black, black, blue, blue." in everything_shown(GAME, state, "2")
    assert GAME.view(state, "4")["hand"] is None and GAME.view(state, None)["hand"] is None
    assert "black, black, blue, blue" not in GAME.phase(state).prompt


def test_the_draws_are_told_each_member_alone_and_the_public_events_say_the_same_whatever_was_drawn() -> None:
    draws = [step(table("G G R G G"), GameRng(seed), s1="CHOOSE 2 3")[1] for seed in (1, 2)]
    for events in draws:
        private = [e for e in events if e.kind == "draw"]
        assert [e.seats for e in private] == [("1",), ("2",), ("3",)]
        assert all(e.seat == e.seats[0] and e.text.startswith("You draw ") for e in private)  # type: ignore[index]
    assert [e for e in draws[0] if e.seats is None] == [e for e in draws[1] if e.seats is None]
    assert [e.text for e in draws[0] if e.seats] != [e.text for e in draws[1] if e.seats]


def test_who_gave_which_cubes_is_not_kept_anywhere() -> None:
    """[D] Never revealed, not even at the end: two missions whose members kept and gave different cubes
    but collected the same give the very same state and events, for every reader, for ever."""
    one = on_mission(table("G G R G G"), HANDS)
    two = on_mission(table("G G R G G"), {"1": "black black blue blue", "2": "white white blue yellow",
                                          "3": "yellow yellow white black"})
    first = step(one, s1="KEEP white blue", s2="GIVE black black", s3="GIVE yellow white")
    second = step(two, s1="KEEP black black", s2="GIVE white blue", s3="GIVE yellow white")
    assert first == second
    assert all(e.seats is None for e in first[1])


def test_the_factions_are_public_at_the_end_and_the_hands_and_gifts_never() -> None:
    state = replace(on_mission(table("G R G G G"), HANDS), meanies=2)
    state, events = step(state, s1="KEEP white blue", s2="GIVE black black", s3="GIVE yellow white")
    assert GAME.outcome(state) is not None
    for reader in ("1", "2", "4", None):
        shown = everything_shown(GAME, state, reader, events)
        assert "seat 1 Minutian, seat 2 Meanie, seat 3 Minutian, seat 4 Minutian, seat 5 Minutian" in shown
        assert "The factions: seat 1" in shown
        for hand in ("white, white, blue, yellow", "black, black, blue, blue", "yellow, yellow, white, black"):
            assert hand not in shown
        assert "KEEP" not in shown.replace("KEEPs", "") and "GIVE" not in shown.replace("GIVEs", "")
    assert all(p["faction"] is not None for p in GAME.view(state, None)["players"])


def test_the_bags_content_is_never_shown_only_its_count() -> None:
    state = on_mission(table("G G R G G"), HANDS)
    for reader in ("1", "4", None):
        view = GAME.view(state, reader)
        assert view["bag_count"] == 28 and "bag" not in json.dumps(view).replace("bag_count", "")


def test_a_redrawing_keeps_the_kept_seats_faction_and_hand_and_every_count() -> None:
    state = on_mission(table("G R G G R G G G R"), {"1": HANDS["1"], "2": HANDS["2"], "3": HANDS["3"],
                                                  "4": "white black blue yellow", "5": "blue blue blue blue",
                                                  "6": "white white white white"})
    for seed in range(20):
        other = GAME.hidden_variant(state, "2", GameRng(seed))
        assert other.factions[1] == state.factions[1] and other.hands[1] == state.hands[1]
        assert Counter(other.factions) == Counter(state.factions)
        assert [h.size for h in other.hands] == [h.size for h in state.hands]
        total = other.bag
        for hand in other.hands:
            total = total + hand
        assert total.size == 40 and all(total.count(c) == 10 for c in ("white", "black", "blue", "yellow"))
    assert len({GAME.hidden_variant(state, "2", GameRng(s)).factions for s in range(20)}) > 1
    assert len({GAME.hidden_variant(state, None, GameRng(s)).hands for s in range(5)}) > 1


@pytest.mark.parametrize("players", [4, 5, 6, 9])
def test_redrawing_the_others_secrets_changes_nothing_the_service_shows_or_does(players: int) -> None:
    """The rule of hidden information (plan X3) on the states of random games, mission states included."""
    changed = 0
    missions = 0
    _, _, states = play(GAME, players, 7)
    for number, state in enumerate(states):
        missions += state.stage == STAGE_MISSION
        changed += check_hidden_variants(GAME, state, GAME.seat_names(players), number, variants=2)
    assert changed > 0 and missions > 0
