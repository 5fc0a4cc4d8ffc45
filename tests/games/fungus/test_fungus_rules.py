"""Worked examples for the basic Fungus rules: setup, fungus phase, passing, end, scores, options."""

from __future__ import annotations

import pytest
from fungus_scenarios import GAME, picture, position

from pbem.core import GameError, GameRng, OrderProblem
from pbem.games.fungus.orders import Drop, Place
from pbem.games.fungus.state import FUNGUS, OVER, SETUP

RNG = GameRng(0)


def play(state, seat, *orders):  # type: ignore[no-untyped-def]
    assert GAME.validate(state, seat, list(orders)) == []
    return GAME.resolve(state, {seat: list(orders)}, RNG)


def messages(state, seat, *orders):  # type: ignore[no-untyped-def]
    return [p.message for p in GAME.validate(state, seat, list(orders))]


# ----- options and seats -----------------------------------------------------------


def test_seats_are_1_to_n_for_2_to_4_players() -> None:
    assert GAME.seat_names(2) == ("1", "2")
    assert GAME.seat_names(4) == ("1", "2", "3", "4")
    for bad in (1, 5):
        with pytest.raises(GameError):
            GAME.seat_names(bad)


@pytest.mark.parametrize(("players", "gems"), [(2, 50), (3, 35), (4, 25)])
def test_setup_gives_each_player_the_rule_book_gems(players: int, gems: int) -> None:
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(1))
    assert state.supply == (gems,) * players
    assert state.size == 10 and len(state.board) == 100 and set(state.board) == {""}
    assert state.stage == SETUP and state.to_move == "1" and state.first == "1"
    assert not state.aggressive


def test_size_option_sets_the_board() -> None:
    state = GAME.setup(("1", "2"), {"size": "7"}, GameRng(1))
    assert state.size == 7 and len(state.board) == 49
    assert messages(state, "1", Place("h2")) == ["PLACE h2: h2 is not on the 7 x 7 board"]
    assert messages(state, "1", Place("b8")) == ["PLACE b8: b8 is not on the 7 x 7 board"]
    assert messages(state, "1", Place("f6")) == []


BAD_OPTIONS = [
    {"size": "4"},
    {"size": "20"},
    {"size": "ten"},
    {"variant": "wild"},
    {"colour": "red"},
    {"start": "last"},
    {"start": "first"},
    {"start": "3"},
]


@pytest.mark.parametrize("options", BAD_OPTIONS)
def test_bad_options_are_refused(options: dict[str, str]) -> None:
    with pytest.raises(GameError):
        GAME.setup(("1", "2"), options, GameRng(1))


def test_bad_seat_lists_are_refused() -> None:
    with pytest.raises(GameError):
        GAME.setup(("1",), {}, GameRng(1))
    with pytest.raises(GameError):
        GAME.setup(("a", "b"), {}, GameRng(1))


def test_options_list_size_variant_and_start() -> None:
    assert set(GAME.options()) == {"size", "variant", "start"}


def test_random_start_draws_the_first_seat_from_the_rng() -> None:
    firsts = {GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(seed)).first for seed in range(30)}
    assert firsts == {"1", "2", "3"}
    again = [GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(seed)).first for seed in range(10)]
    assert again == [GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(seed)).first for seed in range(10)]
    state = GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(5))
    assert state.to_move == state.first


def test_start_option_names_the_first_seat() -> None:
    state = GAME.setup(("1", "2", "3"), {"start": "2"}, GameRng(1))
    assert state.first == state.to_move == "2"


def test_turns_go_round_from_a_random_first_seat() -> None:
    state = GAME.setup(("1", "2", "3"), {}, GameRng(1))
    from dataclasses import replace

    state = replace(state, first="2", to_move="2")
    order = []
    for cell in ("c3", "f3", "c6", "f6", "h8", "c8"):
        order.append(state.to_move)
        state = play(state, state.to_move, Place(cell)).state
    assert order == ["2", "3", "1", "2", "3", "1"]


# ----- setup phase -----------------------------------------------------------------


def test_setup_gem_may_not_go_on_the_edge() -> None:
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    assert messages(state, "1", Place("a5")) == ["PLACE a5: a5 is on the board edge; setup gems go on inner cells"]
    assert messages(state, "1", Place("e1")) == ["PLACE e1: e1 is on the board edge; setup gems go on inner cells"]
    assert messages(state, "1", Place("j10")) == ["PLACE j10: j10 is on the board edge; setup gems go on inner cells"]
    assert messages(state, "1", Place("b2")) == []


def test_setup_gem_may_not_go_next_to_any_gem() -> None:
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    state = play(state, "1", Place("e5")).state
    assert state.to_move == "2"
    for cell in ("d5", "f5", "e4", "e6", "f4", "d6"):
        expected = f"PLACE {cell}: {cell} is next to the gem on e5; setup gems go next to no gem"
        assert messages(state, "2", Place(cell)) == [expected]
    assert messages(state, "2", Place("e5")) == ["PLACE e5: e5 is taken by a gem of seat 1"]
    # d4 and f6 touch e5 only at a corner of the drawing: they are not neighbours
    assert messages(state, "2", Place("d4")) == []
    assert messages(state, "2", Place("f6")) == []
    state = play(state, "2", Place("f6")).state
    # next to one's own gem is refused just the same
    assert messages(state, "1", Place("d5")) == ["PLACE d5: d5 is next to the gem on e5; setup gems go next to no gem"]


def test_setup_runs_three_rounds_then_the_fungus_phase_starts_with_the_first_seat() -> None:
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    movers = []
    events = []
    for cell in ("c3", "g3", "c7", "g7", "e5", "h5"):
        movers.append(state.to_move)
        result = play(state, state.to_move, Place(cell))
        state, events = result.state, result.events
    assert movers == ["1", "2", "1", "2", "1", "2"]
    assert state.setup_placed == (3, 3)
    assert state.stage == FUNGUS and state.to_move == "1"
    assert [e.text for e in events] == [
        "Seat 2 placed a gem on h5.",
        "Every player has placed 3 gems: the fungus phase begins.",
    ]
    assert state.supply == (47, 47)


def test_setup_falls_back_to_any_empty_cell_when_no_cell_is_inner_and_free() -> None:
    # 5 x 5: the inner cells are b2..d4; the gems on b2, d2, c3, b4, d4 leave none of them free
    state = position(
        """
        . . . . .
         . 1 . 2 .
          . . 2 . .
           . 1 . 3 .
            . . . . .
        """,
        players=3,
        stage=SETUP,
        to_move="2",
        setup_placed=(2, 2, 1),
    )
    assert GAME.validate(state, "2", [Place("a1")]) == []
    assert GAME.validate(state, "2", [Place("c2")]) == []  # next to gems: allowed only because nothing else is
    assert GAME.phase(state).prompt == (
        "Place setup gem 3 of 3 on any empty cell, as no inner cell next to no gem is left."
    )
    result = play(state, "2", Place("a1"))
    assert result.state.at((0, 0)) == "2" and result.state.to_move == "3"


# ----- fungus phase ----------------------------------------------------------------


BOARD = """
. . . . .
 . 1 . . .
  . . . . .
   . . . 2 .
    . . . . .
"""


def test_fungus_gem_must_touch_a_gem_of_another_player() -> None:
    state = position(BOARD)
    assert messages(state, "1", Place("a2")) == ["PLACE a2: a2 is not next to a gem of another player"]
    assert messages(state, "1", Place("c2")) == ["PLACE c2: c2 is not next to a gem of another player"]
    assert messages(state, "1", Place("a5")) == ["PLACE a5: a5 is not next to a gem of another player"]
    assert messages(state, "1", Place("b2")) == ["PLACE b2: b2 is taken by a gem of seat 1"]
    assert messages(state, "1", Place("d4")) == ["PLACE d4: d4 is taken by a gem of seat 2"]
    for cell in ("c4", "e4", "d3", "e3", "d5", "c5"):
        assert messages(state, "1", Place(cell)) == [], cell
    # edge cells are fine in the fungus phase
    assert messages(state, "1", Place("e4")) == []


def test_fungus_falls_back_to_any_empty_cell_when_no_cell_touches_an_enemy() -> None:
    # seat 2's only gem (e5, a corner with neighbours d5, e4) is closed in by seat 1
    state = position(
        """
        . . . . .
         . . . . .
          . . . . .
           . . . . 1
            . . . 1 2
        """
    )
    assert messages(state, "1", Place("a1")) == []
    assert messages(state, "1", Place("c3")) == []
    assert GAME.phase(state).prompt == (
        "Place a gem on any empty cell, as none next to another player's gem is free (50 left)."
    )
    # seat 2 still has to grow next to seat 1
    as_two = position(
        """
        . . . . .
         . . . . .
          . . . . .
           . . . . 1
            . . . 1 2
        """,
        to_move="2",
    )
    assert messages(as_two, "2", Place("a1")) == ["PLACE a1: a1 is not next to a gem of another player"]
    assert messages(as_two, "2", Place("d4")) == []


def test_a_player_without_gems_passes_automatically() -> None:
    state = position(BOARD, players=3, supply=(5, 0, 5))
    result = play(state, "1", Place("c4"))
    assert result.state.to_move == "3"
    assert [e.text for e in result.events] == ["Seat 1 placed a gem on c4.", "Seat 2 has no gems left and passes."]
    assert result.state.supply == (4, 0, 5)


def test_the_game_ends_when_the_board_is_full() -> None:
    state = position(
        """
        1 1 2 2 2
         1 1 1 2 2
          1 2 2 1 1
           2 2 1 1 1
            2 1 1 2 .
        """,
        to_move="2",
    )
    result = play(state, "2", Place("e5"))
    assert result.state.stage == OVER and result.state.to_move is None
    texts = [e.text for e in result.events]
    assert texts[1] == "The board is full: the placing is over."
    assert texts[-1].startswith("The game is over. Final scores:")
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.reason.startswith("The board is full.")


def test_the_game_ends_when_nobody_has_gems_left() -> None:
    state = position(BOARD, supply=(1, 0))
    result = play(state, "1", Place("c4"))
    assert result.state.stage == OVER
    assert "Nobody has gems left: the placing is over." in [e.text for e in result.events]
    assert GAME.outcome(result.state) is not None


def test_the_game_goes_on_while_anybody_has_gems() -> None:
    state = position(BOARD, supply=(1, 3))
    result = play(state, "1", Place("c4"))
    assert result.state.stage == FUNGUS and result.state.to_move == "2"
    result = play(result.state, "2", Place("a2"))
    # seat 1 has no gems: seat 2 plays again
    assert result.state.to_move == "2"
    assert result.events[-1].text == "Seat 1 has no gems left and passes."
    assert GAME.outcome(result.state) is None


# ----- scoring -----------------------------------------------------------------------


RULE_BOOK_BASIC = """
1 1 1 1 1 1 1 1 1 1
2 2 2 2 2 2 2 2 2 2
1 1 1 1 1 1 1 1 1 1
2 2 2 2 2 2 2 2 2 2
1 1 1 1 1 1 1 1 1 1
2 2 2 2 2 2 2 2 2 2
1 1 1 1 1 1 1 1 1 1
1 1 1 1 1 1 . . . 2
2 2 . 2 2 . 2 2 . 2
2 2 . 2 2 . 2 2 . 2
"""


def test_rule_book_basic_example_46_minus_4_and_45_minus_7() -> None:
    from pbem.games.fungus import board

    state = position(RULE_BOOK_BASIC, stage=OVER, to_move=None)
    assert board.gems_on_board(state, "1") == 46 and len(board.groups(state, "1")) == 4
    assert board.gems_on_board(state, "2") == 45 and len(board.groups(state, "2")) == 7
    assert GAME.scores(state) == {"1": 42, "2": 38}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1",)


def test_basic_score_on_a_small_board() -> None:
    # seat 1: b1 c1 b2 (one group) + e5 (another): 4 gems, 2 groups -> 2
    # seat 2: a2, a3 b3 (a2 touches a3? yes: (c, r+1)) -> one group of 3 -> 2; d1 alone -> 4 - 2 = 2
    state = position(
        """
        . 1 1 2 .
         2 1 . . .
          2 2 . . .
           . . . . .
            . . . . 1
        """
    )
    assert GAME.scores(state) == {"1": 2, "2": 2}


def test_a_tie_shares_the_win() -> None:
    state = position(
        """
        1 1 1 1 1
         2 2 2 2 2
          1 1 1 1 1
           2 2 2 2 2
            . . . . .
        """,
        stage=OVER,
        to_move=None,
    )
    assert GAME.scores(state) == {"1": 8, "2": 8}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1", "2")


def test_no_outcome_while_the_game_runs() -> None:
    assert GAME.outcome(position(BOARD)) is None


# ----- turns, NMR, forced plays ----------------------------------------------------


def test_only_the_seat_to_move_may_send_orders() -> None:
    state = position(BOARD)
    assert GAME.validate(state, "2", [Place("c4")]) == [OrderProblem(None, "it is not your turn: waiting for seat 1")]


def test_a_turn_is_exactly_one_place_order() -> None:
    state = position(BOARD)
    assert GAME.validate(state, "1", []) == [OrderProblem(None, "a turn is exactly one order; send one PLACE")]
    assert GAME.validate(state, "1", [Place("c4"), Place("e4")]) == [
        OrderProblem(None, "a turn is exactly one order; send one PLACE")
    ]
    assert messages(state, "1", Drop("b2")) == [
        "DROP b2: DROP orders come only at the end of an aggressive game; now send PLACE"
    ]


def test_nmr_default_is_the_first_legal_cell_row_by_row() -> None:
    state = position(BOARD)
    # legal cells: d3, e3 (row 3), c4, e4 (row 4), c5, d5 (row 5): d3 comes first
    assert GAME.default_orders(state, "1") == [Place("d3")]
    assert GAME.default_orders(state, "2") == []
    as_two = position(BOARD, to_move="2")
    # seat 2 must touch b2: b1, c1 (row 1) come first
    assert GAME.default_orders(as_two, "2") == [Place("b1")]


def test_nmr_default_in_setup_is_the_first_inner_free_cell() -> None:
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    assert GAME.default_orders(state, "1") == [Place("b2")]
    state = play(state, "1", Place("b2")).state
    assert GAME.default_orders(state, "2") == [Place("d2")]


def test_forced_play_when_exactly_one_cell_is_legal() -> None:
    state = position(
        """
        1 1 2 2 2
         1 1 1 2 2
          1 2 2 1 1
           2 2 1 1 1
            2 1 1 2 .
        """,
        to_move="2",
    )
    assert GAME.forced_orders(state, "2") == [Place("e5")]
    assert GAME.forced_orders(state, "1") is None
    assert GAME.forced_orders(position(BOARD), "1") is None


def test_refused_orders_at_resolution_fall_back_to_the_default() -> None:
    state = position(BOARD)
    result = GAME.resolve(state, {"1": [Place("a1")]}, RNG)
    assert result.events[0].kind == "refused"
    assert "a1 is not next to a gem of another player" in result.events[0].text
    assert result.state.at((3, 2)) == "1"  # d3, the default


def test_missing_orders_at_resolution_play_the_default() -> None:
    result = GAME.resolve(position(BOARD), {}, RNG)
    assert picture(result.state)[2] == "...1."


def test_view_is_public_and_complete() -> None:
    state = position(BOARD, supply=(7, 9))
    view = GAME.view(state, None)
    assert view == GAME.view(state, "1") == GAME.view(state, "2")
    assert view["gems"] == {"b2": "1", "d4": "2"}
    assert view["gems_left"] == {"1": 7, "2": 9}
    assert view["kept"] == {"1": 0, "2": 0}
    assert view["phase"] == FUNGUS and view["to_move"] == "1"
    assert view["scores"] == {"1": 0, "2": 0}
    assert view["rows"][1] == {"number": 2, "cells": [".", "1", ".", ".", "."]}
    assert view["columns"] == ["a", "b", "c", "d", "e"]


def test_phase_names_the_seat_and_what_it_does() -> None:
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    phase = GAME.phase(state)
    assert phase.name == SETUP and phase.seats == ("1",)
    assert phase.prompt == "Place setup gem 1 of 3 on a cell off the board edge and next to no gem."
    phase = GAME.phase(position(BOARD, supply=(12, 3)))
    assert phase.name == FUNGUS and phase.seats == ("1",) and "(12 left)" in phase.prompt
    with pytest.raises(GameError):
        GAME.phase(position(BOARD, stage=OVER, to_move=None))


def test_dump_and_load_round_trip() -> None:
    import json

    state = position(BOARD, players=3, aggressive=True, kept=((), ("1", "3"), ()), supply=(1, 2, 3))
    data = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.load(data) == state
    with pytest.raises(GameError):
        GAME.load({"size": 5})


def test_help_states_the_decisions() -> None:
    text = GAME.help()
    for phrase in ("PLACE e5 TAKE f5", "PLACE e5 KEEP f5", "DROP NONE", "start=random", "plain PLACE declines", "a1, b1"):
        assert phrase in text
