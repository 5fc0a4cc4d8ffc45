"""Hands, kept piles and given cubes reach only their holder (views, events, reports, pictures,
scores) until the piles are revealed at the end; the hands never. The rule of hidden
information holds: redrawing the other seats' cubes changes nothing the service shows or does."""

from __future__ import annotations

import pytest
from game_views import everything_shown
from hidden_invariance import check_hidden_variants
from rich_builders import GAME, give, keep, rich, seed_rolling
from test_conformance import play

from pbem.core import GameRng

_SEATS = ("1", "2", "3")


def _table(hand_of_2: str, pile_of_2: str) -> object:
    return rich({"1": "blue yellow green", "2": hand_of_2, "3": "red red red"},
                {"1": "blue", "2": pile_of_2, "3": "green"}, roll=4)


@pytest.mark.parametrize("reader", ["1", "3", None])
def test_another_seats_hand_and_pile_show_nowhere(reader: str | None) -> None:
    """Seat 2 holding all greens or all blues looks the same to every other reader and the public:
    view, text and HTML report, picture and scores alike."""
    one, two = _table("green green green", "yellow yellow"), _table("blue blue red", "red blue")
    assert everything_shown(GAME, one, reader) == everything_shown(GAME, two, reader)


def test_a_seat_sees_its_own_hand_and_pile_and_the_sizes_of_the_others() -> None:
    view = GAME.view(_table("green green green", "yellow yellow"), "2")
    assert view["you"]["hand"]["text"] == "3 green" and view["you"]["kept"]["text"] == "2 yellow"
    assert [p["kept"] for p in view["players"]][0] is None
    assert [(p["hand_size"], p["kept_size"]) for p in view["players"]] == [(3, 1), (3, 2), (3, 1)]
    public = GAME.view(_table("green green green", "yellow yellow"), None)
    assert public["you"] is None and all(p["kept"] is None for p in public["players"])


def test_the_events_of_a_draft_tell_each_seat_only_its_own_cubes() -> None:
    state = rich({"1": "blue yellow green red", "2": "green green green green", "3": "red red red red"}, roll=4)
    orders = {"1": [keep("blue yellow"), give("green")], "2": [keep("green green"), give("green")],
              "3": [keep("red red"), give("red")]}
    result = GAME.resolve(state, orders, GameRng(seed_rolling(1)))
    for event in result.events:
        if event.seats is None:
            assert not any(c in event.text for c in ("blue", "yellow", "green", "red")), event.text
        else:
            assert len(event.seats) == 1
    texts_of_3 = [e.text for e in result.events if e.is_visible_to("3")]
    assert "Seat 1 gives you 1 green (gems); it goes to your kept pile." in texts_of_3
    assert not any("gives you" in t for t in texts_of_3 if "Seat 1" not in t)
    assert any(e.seats == ("2",) and e.text == "You keep 2 green and give 1 green to seat 1." for e in result.events)


def test_the_piles_are_revealed_at_the_end_and_the_hands_never() -> None:
    state = rich({"1": "blue blue", "2": "red red"}, {"1": "yellow", "2": "green"}, roll=1)
    result = GAME.resolve(state, {"1": [keep("blue")], "2": [keep("red")]}, GameRng(seed_rolling(4)))
    public = GAME.view(result.state, None)
    assert [p["kept"]["text"] for p in public["players"]] == ["1 blue, 1 yellow", "1 green, 1 red"]
    assert [p["points"]["total"] for p in public["players"]] == [11, 1]
    assert public["hand_size"] == 0  # the hands were discarded unseen
    shown = everything_shown(GAME, result.state, None, result.events)
    assert "Seat 1's kept pile: 1 blue = 1, 1 yellow = 10, 0 green = 0, 0 red = 0; 11 points." in shown


def test_a_forced_keep_depends_on_the_hand_size_only() -> None:
    """Plan 4.9 (X3): the service keeps a hand for its holder only when its size, which is public,
    equals the number to keep; never because of what it holds."""
    for hand in ("blue blue blue", "blue red green", "red red red"):
        assert GAME.forced_orders(rich({"1": hand, "2": "red red red"}, roll=4), "1") is None
        assert GAME.forced_orders(rich({"1": hand, "2": "red red red"}, roll=1), "1") is None
    assert GAME.forced_orders(rich({"1": "red red", "2": "red blue"}, roll=3), "1") is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redrawing_the_other_cubes_changes_nothing_the_service_shows_or_does(players: int) -> None:
    """The rule of hidden information (plan X3) on states of random games."""
    changed = 0
    seats = GAME.seat_names(players)
    _, _, states = play(GAME, players, 5)
    for number, state in enumerate(states[:: max(1, len(states) // 8)]):
        changed += check_hidden_variants(GAME, state, seats, number)
    assert changed > 0


def test_a_redrawing_keeps_every_size_and_the_kept_seats_cubes() -> None:
    state = _table("green green green", "yellow yellow")
    for seed in range(10):
        other = GAME.hidden_variant(state, "1", GameRng(seed))
        assert other.hand("1") == state.hand("1") and other.pile("1") == state.pile("1")
        assert [h.size for h in other.hands] == [h.size for h in state.hands]
        assert [k.size for k in other.kept] == [k.size for k in state.kept]
