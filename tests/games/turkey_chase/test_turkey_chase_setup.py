"""Turkey Chase set-up, options, seats, view, dump/load, help and the NMR defaults."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from turkey_chase_scenarios import GAME, birds_of, make_state, parse, resolve, sq

from pbem.core import GameError, GameRng, Phase
from pbem.games.turkey_chase.board import GRID

RULE_BOOK_CORN = """
1 1 1 1 1 1 1 1 1 1 1
1 2 2 2 2 2 2 2 2 2 1
1 2 3 3 3 3 3 3 3 2 1
1 2 3 5 5 5 5 5 3 2 1
1 2 3 5 7 7 7 5 3 2 1
1 2 3 5 7 10 7 5 3 2 1
1 2 3 5 7 7 7 5 3 2 1
1 2 3 5 5 5 5 5 3 2 1
1 2 3 3 3 3 3 3 3 2 1
1 2 2 2 2 2 2 2 2 2 1
1 1 1 1 1 1 1 1 1 1 1
"""


def start():
    return GAME.setup(("A", "B", "C", "D"), {}, GameRng(1))


def test_exactly_four_seats_named_a_to_d() -> None:
    assert GAME.seat_names(4) == ("A", "B", "C", "D")
    assert (GAME.min_players, GAME.max_players) == (4, 4)
    for players in (1, 2, 3, 5):
        with pytest.raises(GameError, match="exactly 4 players"):
            GAME.seat_names(players)
    with pytest.raises(GameError):
        GAME.setup(("1", "2", "3", "4"), {}, GameRng(1))


def test_the_start_position_is_the_decoded_rule_book_board() -> None:
    view = GAME.view(start(), None)
    rows = [line.split() for line in RULE_BOOK_CORN.strip().splitlines()]
    expected = {f"{GRID.column_letters()[c]}{r + 1}": int(rows[r][c]) for r in range(11) for c in range(11)}
    assert view["corn"] == expected
    assert list(view["corn"])[:3] == ["A1", "B1", "C1"] and len(view["corn"]) == 121
    assert view["farmers"] == {"A": ["F7"], "B": ["G6"], "C": ["F5"], "D": ["E6"]}
    assert view["birds"] == {"A": ["F1", "F1"], "B": ["A6", "A6"], "C": ["F11", "F11"], "D": ["K6", "K6"]}
    assert view["fences"] == ["A6/B6", "F1/F2", "F10/F11", "J6/K6"]
    assert view["turn"] == 1
    assert GAME.scores(start()) == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_view_is_public_json_with_exactly_the_documented_keys() -> None:
    state = make_state(birds={"A": ["E5"], "B": ["F6"]}, corn={"E5": 0}, fences=["F6/G6", "B2/B3"], turn=7)
    view = GAME.view(state, "A")
    assert set(view) == {"corn", "fences", "farmers", "birds", "turn"}
    assert view == GAME.view(state, None) == GAME.view(state, "C")
    assert json.loads(json.dumps(view)) == view
    assert view["fences"] == ["B2/B3", "F6/G6"]
    assert view["corn"]["E5"] == 0 and type(view["corn"]["F6"]) is int
    assert view["turn"] == 7


def test_options_are_only_nmr() -> None:
    assert set(GAME.options()) == {"nmr"}
    assert GAME.setup(("A", "B", "C", "D"), {"nmr": "feed"}, GameRng(1)).nmr == "feed"
    assert GAME.setup(("A", "B", "C", "D"), {"nmr": "nothing"}, GameRng(1)).nmr == "nothing"
    assert GAME.setup(("A", "B", "C", "D"), {}, GameRng(1)).nmr == "nothing"
    with pytest.raises(GameError, match="nmr"):
        GAME.setup(("A", "B", "C", "D"), {"nmr": "move"}, GameRng(1))
    with pytest.raises(GameError, match="unknown option 'size'"):
        GAME.setup(("A", "B", "C", "D"), {"size": "9"}, GameRng(1))


def test_every_seat_orders_every_turn() -> None:
    phase = GAME.phase(start())
    assert isinstance(phase, Phase)
    assert phase.seats == ("A", "B", "C", "D")
    assert "5 points" in phase.prompt and "turn 1" in phase.prompt
    assert "from turn 4" not in GAME.phase(make_state(turn=4)).prompt


def test_there_is_never_a_forced_play() -> None:
    for seat in "ABCD":
        assert GAME.forced_orders(start(), seat) is None


def test_dump_and_load_round_trip_with_fractions() -> None:
    state = make_state(
        farmers={"A": ["F7", "A6"], "D": ["K6"]},
        birds={"B": ["C3", "C3"], "C": ["J9"]},
        fences=["A6/B6", "H2/H3"],
        corn={"F6": 0},
        scores={"A": Fraction(7, 3), "B": Fraction(31, 2), "C": 4},
        turn=12,
        nmr="feed",
    )
    data = GAME.dump(state)
    assert json.loads(json.dumps(data)) == data
    assert GAME.load(data) == state
    assert GAME.load(json.loads(json.dumps(data))) == state
    assert data["scores"]["A"] == "7/3"


def test_load_refuses_what_is_not_a_state() -> None:
    with pytest.raises(GameError):
        GAME.load({"turn": 1})
    data = GAME.dump(start())
    data["birds"]["A"] = ["Z9"]
    with pytest.raises(GameError):
        GAME.load(data)


def test_help_gives_the_notation_and_the_decisions() -> None:
    text = GAME.help()
    for needle in (
        "FEED F6",
        "DESTROY A6/B6",
        "MOVE F7-F8",
        "MOVE F8-G8",
        "BUILD H1/H2",
        "NEW A6",
        "line by line",
        "nmr=feed",
        "share",
        "5 points",
    ):
        assert needle in text


# -- NMR ------------------------------------------------------------------------------------------


def test_by_default_an_nmr_player_does_nothing() -> None:
    state = make_state(farmers={"B": ["G6"]}, birds={"B": ["A6", "A6"], "C": ["F11"]})
    assert GAME.default_orders(state, "B") == []
    result = GAME.resolve(state, {seat: GAME.default_orders(state, seat) for seat in "ABCD"}, GameRng(0))
    assert result.events == []
    assert result.state.farmers == state.farmers and result.state.birds == state.birds
    assert result.state.scores == state.scores and result.state.turn == 2


def test_with_nmr_feed_an_nmr_players_birds_feed_where_they_stand() -> None:
    state = make_state(birds={"A": ["F6", "F6"], "B": ["E5", "D5"], "C": ["F1"]}, corn={"D5": 0}, nmr="feed")
    assert [str(o) for o in GAME.default_orders(state, "A")] == ["FEED F6"]  # once per square
    assert [str(o) for o in GAME.default_orders(state, "B")] == ["FEED E5"]  # not on an eaten square
    assert GAME.default_orders(state, "D") == []
    for seat in "ABCD":
        assert GAME.validate(state, seat, GAME.default_orders(state, seat)) == []
    result = resolve(state, {"C": "MOVE F1-G1"} | {s: "\n".join(map(str, GAME.default_orders(state, s))) for s in "AB"})
    assert result.state.scores == (10, 7, 0, 0)
    assert birds_of(result.state, "C") == ["G1"]


def test_nmr_feed_survives_dump_and_load() -> None:
    state = GAME.setup(("A", "B", "C", "D"), {"nmr": "feed"}, GameRng(1))
    assert [str(o) for o in GAME.default_orders(GAME.load(GAME.dump(state)), "B")] == ["FEED A6"]


def test_a_parsed_order_list_equals_the_default_orders_text() -> None:
    state = make_state(birds={"A": ["F6"]}, nmr="feed")
    assert parse("feed f6") == GAME.default_orders(state, "A")
    assert sq("F6") == (5, 5)
