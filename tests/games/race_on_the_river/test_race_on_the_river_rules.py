"""Worked examples for every rule of Race on the River."""

from __future__ import annotations

import pytest
from race_on_the_river_builders import GAME, ScriptedRng, bids, race

from pbem.core import GameError, GameRng, IllegalOrder, OrderProblem, Outcome
from pbem.games.race_on_the_river.orders import Bid

# --- seats, options, setup ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_sit_in_seats_1_to_n(players: int) -> None:
    assert GAME.seat_names(players) == tuple(str(n) for n in range(1, players + 1))


@pytest.mark.parametrize("players", [0, 1, 7])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(GameError, match="2 to 6 players"):
        GAME.seat_names(players)


def test_setup_puts_every_jockey_on_the_start_with_nine_cubes_and_rolls() -> None:
    state = GAME.setup(("1", "2", "3"), {}, ScriptedRng([5]))
    assert state.positions == (0, 0, 0)
    assert state.hands == (9, 9, 9)
    assert state.roll == 5
    assert state.round == 1
    assert state.finish == 13
    assert GAME.phase(state).seats == ("1", "2", "3")
    assert "the die shows 5" in GAME.phase(state).prompt


def test_a_1_rolled_at_setup_is_rolled_again_and_the_first_round_of_bids_is_round_1() -> None:
    state = GAME.setup(("1", "2"), {}, ScriptedRng([1, 3]))
    assert state.round == 1
    assert state.roll == 3
    assert state.ones_before == 1
    assert state.hands == (9, 9)  # nobody had a discarded cube to take back
    assert GAME.phase(state).prompt.startswith("Round 1: the die shows 3 (after a 1, which gave every player back")


def test_options_change_the_river_and_the_stamina() -> None:
    state = GAME.setup(("1", "2"), {"spaces": "5", "stamina": "3"}, ScriptedRng([4]))
    assert state.finish == 6
    assert state.hands == (3, 3)


@pytest.mark.parametrize(
    ("options", "message"),
    [({"speed": "3"}, "unknown option"), ({"spaces": "0"}, "spaces=0"), ({"stamina": "many"}, "stamina=many")],
)
def test_bad_options_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(0))


# --- the roll of 1 -----------------------------------------------------------------


def test_a_roll_of_1_gives_every_player_one_discarded_cube_back_and_is_rolled_again() -> None:
    state = race([0, 0, 0], [9, 9, 9], roll=3, round=4)
    result = GAME.resolve(state, bids(2, 1, 0), ScriptedRng([1, 6]))
    after = result.state
    # bids: 7, 8, 9 in hand; the 1 gives one back to the two who discarded
    assert after.hands == (8, 9, 9)
    assert after.round == 5
    assert after.roll == 6
    assert after.ones_before == 1
    kinds = [e.kind for e in result.events]
    assert kinds == ["bids", "move", "move", "roll-one", "roll"]
    one = result.events[3]
    assert one.phase == "Round 5"
    assert one.text == (
        "The die shows 1: every player takes back one discarded stamina cube "
        "(seats 1, 2 take one back each); nobody bids on a 1, the die is rolled again."
    )
    assert one.seats is None


def test_several_1s_in_a_row_each_return_a_cube_in_the_same_numbered_round() -> None:
    state = race([0, 0], [5, 9], roll=2)
    result = GAME.resolve(state, bids(3, 0), ScriptedRng([1, 1, 1, 2]))
    # seat 1: 2 left after bidding, +3 back; seat 2 had nothing discarded
    assert result.state.hands == (5, 9)
    assert result.state.round == 2
    assert result.state.ones_before == 3
    assert [e.kind for e in result.events].count("roll-one") == 3
    assert {e.phase for e in result.events if e.kind.startswith("roll")} == {"Round 2"}
    assert "(after 3 rolls of 1, each giving every player back one discarded cube)" in GAME.phase(result.state).prompt


def test_a_cube_taken_back_never_exceeds_the_stamina() -> None:
    state = race([0, 0], [9, 8], roll=2)
    result = GAME.resolve(state, bids(0, 0), ScriptedRng([1, 1, 4]))
    assert result.state.hands == (9, 9)
    assert "seat 2 takes one back" in result.events[2].text
    assert "nobody has a discarded cube" in result.events[3].text


# --- bidding and moving ----------------------------------------------------------------


def test_example_1a_the_highest_bidder_moves_the_roll_the_others_one_space() -> None:
    # Ringo 3, John 2, Mitchelle 2, Paul 1, Georgette 1, Lucy 1; the die shows 4
    state = race([0, 0, 0, 0, 0, 0], roll=4)
    result = GAME.resolve(state, bids(3, 2, 2, 1, 1, 1), ScriptedRng([2]))
    assert result.state.positions == (4, 1, 1, 1, 1, 1)
    assert result.state.hands == (6, 7, 7, 8, 8, 8)
    assert result.state.last_bids == (3, 2, 2, 1, 1, 1)
    moves = [e for e in result.events if e.kind == "move"]
    assert [e.seat for e in moves] == ["1", "2", "3", "4", "5", "6"]  # the highest bidder first
    assert moves[0].text == "Seat 1 bid the most, 3, and moves 4 spaces, from space 0 to space 4."
    assert moves[1].text == "Seat 2 bid 2, less than the most, and moves 1 space, from space 0 to space 1."


def test_bids_are_revealed_publicly_when_the_round_is_resolved() -> None:
    state = race([0, 0, 0], roll=5)
    result = GAME.resolve(state, bids(2, 0, 4), ScriptedRng([3]))
    event = result.events[0]
    assert event.kind == "bids"
    assert event.seats is None
    assert event.text == "Bids revealed (the die shows 5): seat 1 bid 2, seat 2 bid 0, seat 3 bid 4."
    assert event.data["bids"] == {"1": 2, "2": 0, "3": 4}


def test_tied_highest_bidders_all_move_the_roll() -> None:
    state = race([2, 3, 0], roll=6)
    result = GAME.resolve(state, bids(4, 4, 1), ScriptedRng([2]))
    assert result.state.positions == (8, 9, 1)


def test_a_zero_bid_does_not_move() -> None:
    state = race([2, 3, 0], roll=6)
    result = GAME.resolve(state, bids(2, 0, 1), ScriptedRng([2]))
    assert result.state.positions == (8, 3, 1)
    assert result.state.hands == (7, 9, 8)


def test_when_everybody_bids_0_nobody_moves() -> None:
    state = race([2, 3], roll=6)
    result = GAME.resolve(state, bids(0, 0), ScriptedRng([4]))
    assert result.state.positions == (2, 3)
    assert result.state.hands == (9, 9)
    assert result.events[1].text == "Nobody bid any stamina: no jockey moves."
    assert result.state.round == 2 and result.state.roll == 4


def test_the_next_round_is_rolled_at_the_end_of_the_resolution() -> None:
    state = race([0, 0], roll=3, round=7)
    result = GAME.resolve(state, bids(1, 0), ScriptedRng([5]))
    assert (result.state.round, result.state.roll, result.state.ones_before) == (8, 5, 0)
    assert result.events[-1].kind == "roll"
    assert result.events[-1].phase == "Round 8"


# --- crossing the finish line -------------------------------------------------------------


def test_example_1b_the_highest_bidder_crosses_first_and_wins() -> None:
    # Ringo (seat 1) is 4 from the finish; Paul (4) and Georgette (5) one space from it
    state = race([9, 0, 0, 12, 12, 0], roll=4)
    result = GAME.resolve(state, bids(3, 2, 2, 1, 1, 1), ScriptedRng([]))
    assert result.state.positions == (13, 1, 1, 13, 13, 1)
    assert GAME.outcome(result.state) == Outcome(("1",), "Seat 1 wins: crossed the finish line first.")
    assert result.events[-1].kind == "win"


def test_tied_highest_bidders_crossing_together_share_the_victory() -> None:
    state = race([10, 11, 12], roll=3)
    result = GAME.resolve(state, bids(2, 2, 1), ScriptedRng([]))
    outcome = GAME.outcome(result.state)
    assert outcome is not None
    assert outcome.winners == ("1", "2")
    assert outcome.reason == "Seats 1 and 2 share the victory: crossed the finish line first, with equal bids."


def test_one_space_movers_crossing_together_the_highest_bid_wins() -> None:
    state = race([0, 12, 12], roll=2)
    result = GAME.resolve(state, bids(5, 3, 1), ScriptedRng([]))
    outcome = GAME.outcome(result.state)
    assert outcome is not None
    assert outcome.winners == ("2",)
    assert "tie broken by the highest bid" in outcome.reason


def test_one_space_movers_crossing_together_with_equal_bids_share() -> None:
    state = race([0, 12, 12], roll=2)
    result = GAME.resolve(state, bids(5, 2, 2), ScriptedRng([]))
    assert GAME.outcome(result.state) == Outcome(
        ("2", "3"), "Seats 2 and 3 share the victory: crossed the finish line first, with equal bids."
    )


def test_a_lone_one_space_crosser_wins_even_with_a_small_bid() -> None:
    state = race([0, 12], roll=3)
    result = GAME.resolve(state, bids(4, 1), ScriptedRng([]))
    assert GAME.outcome(result.state) == Outcome(("2",), "Seat 2 wins: crossed the finish line first.")


def test_reaching_space_13_crosses_but_space_12_does_not() -> None:
    result = GAME.resolve(race([11, 11], roll=2), bids(1, 0), ScriptedRng([6]))
    assert result.state.positions == (13, 11)
    assert GAME.outcome(result.state) is not None
    result = GAME.resolve(race([10, 11], roll=2), bids(1, 0), ScriptedRng([6]))
    assert result.state.positions == (12, 11)
    assert GAME.outcome(result.state) is None


def test_resolving_a_finished_race_is_refused() -> None:
    state = race([0, 12], roll=3)
    done = GAME.resolve(state, bids(4, 1), ScriptedRng([])).state
    with pytest.raises(GameError, match="over"):
        GAME.resolve(done, bids(0, 0), ScriptedRng([]))
    assert GAME.validate(done, "1", [Bid(0)]) == [OrderProblem(None, "the game is over")]


# --- every cube discarded -----------------------------------------------------------------


def test_when_every_cube_is_discarded_the_most_advanced_jockey_wins() -> None:
    state = race([5, 3, 4], [2, 1, 1], roll=2)
    result = GAME.resolve(state, bids(2, 1, 1), ScriptedRng([]))
    assert result.state.positions == (7, 4, 5)
    assert result.state.hands == (0, 0, 0)
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("1",)
    assert "every stamina cube is discarded" in outcome.reason


def test_all_discarded_tie_on_position_goes_to_the_highest_last_bid() -> None:
    state = race([5, 6, 0], [1, 0, 3], roll=2)
    # seat 3 bids the most and moves 2 (to 2); seat 1 bids its last cube and moves 1 (to 6)
    result = GAME.resolve(state, bids(1, 0, 3), ScriptedRng([]))
    assert result.state.positions == (6, 6, 2)
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("1",)


def test_all_discarded_tie_on_position_and_bid_shares() -> None:
    state = race([6, 6], [1, 1], roll=3)
    result = GAME.resolve(state, bids(1, 1), ScriptedRng([]))
    assert result.state.positions == (9, 9)
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("1", "2")


def test_the_race_goes_on_while_anybody_has_a_cube() -> None:
    state = race([5, 3], [1, 2], roll=2)
    result = GAME.resolve(state, bids(1, 1), ScriptedRng([4]))
    assert result.state.hands == (0, 1)
    assert GAME.outcome(result.state) is None
    assert GAME.forced_orders(result.state, "1") == [Bid(0)]


# --- orders ------------------------------------------------------------------------------------


def test_a_bid_within_the_hand_is_accepted() -> None:
    state = race([0, 0], [4, 9])
    assert GAME.validate(state, "1", [Bid(4)]) == []
    assert GAME.validate(state, "1", [Bid(0)]) == []
    assert GAME.submission_summary(state, "1", [Bid(3)]) == "You bid 3 of the 4 stamina cubes in your hand."


def test_a_bid_above_the_hand_is_refused_naming_the_order() -> None:
    state = race([0, 0], [4, 1])
    assert GAME.validate(state, "1", [Bid(5)]) == [OrderProblem(0, "BID 5: you have only 4 stamina cubes in hand")]
    assert GAME.validate(state, "2", [Bid(2)]) == [OrderProblem(0, "BID 2: you have only 1 stamina cube in hand")]


@pytest.mark.parametrize("orders", [[], [Bid(1), Bid(2)]])
def test_a_round_is_exactly_one_bid(orders: list[Bid]) -> None:
    state = race([0, 0])
    assert GAME.validate(state, "1", orders) == [
        OrderProblem(None, "a round is exactly one order: send one BID, e.g. BID 2")
    ]


def test_an_unknown_seat_is_refused() -> None:
    assert GAME.validate(race([0, 0]), "3", [Bid(0)]) == [OrderProblem(None, "it is not your turn: waiting for seats 1, 2")]


def test_resolve_refuses_a_bid_the_seat_cannot_pay() -> None:
    with pytest.raises(IllegalOrder, match="seat 2: BID 3: you have only 2"):
        GAME.resolve(race([0, 0], [9, 2]), bids(1, 3), ScriptedRng([4]))


def test_resolve_needs_every_seat() -> None:
    with pytest.raises(GameError, match="no orders for seat 2"):
        GAME.resolve(race([0, 0]), {"1": [Bid(1)]}, ScriptedRng([4]))


def test_nmr_default_is_bid_0() -> None:
    state = race([0, 0], [9, 9])
    assert GAME.default_orders(state, "1") == [Bid(0)]
    assert GAME.validate(state, "1", GAME.default_orders(state, "1")) == []


def test_a_seat_that_holds_bids_its_nmr_default() -> None:
    """NOORDERS stores an empty entry: resolve bids the NMR default, BID 0, for it."""
    state = race([0, 0], [9, 9])
    held = GAME.resolve(state, {"1": [], "2": [Bid(2)]}, ScriptedRng([4]))
    assert held == GAME.resolve(state, {"1": [Bid(0)], "2": [Bid(2)]}, ScriptedRng([4]))


def test_a_player_without_cubes_is_forced_to_bid_0_others_choose() -> None:
    state = race([0, 0], [0, 3])
    assert GAME.forced_orders(state, "1") == [Bid(0)]
    assert GAME.forced_orders(state, "2") is None
    assert GAME.validate(state, "1", [Bid(0)]) == []


def test_sample_orders_are_legal_bids() -> None:
    state = race([0, 0], [3, 0])
    rng = GameRng(3)
    for _ in range(30):
        orders = GAME.sample_orders(state, "1", rng)
        assert GAME.validate(state, "1", orders) == []
    assert GAME.sample_orders(state, "2", rng) == [Bid(0)]


# --- scores, view, help ---------------------------------------------------------------------------


def test_scores_are_the_jockeys_positions() -> None:
    assert GAME.scores(race([3, 7])) == {"1": 3, "2": 7}


def test_view_shows_the_river_the_die_and_the_readers_cubes() -> None:
    state = race([0, 13, 4], [9, 2, 5], roll=6, round=3, last_bids=[0, 3, 1])
    view = GAME.view(state, "3")
    assert view["roll"] == 6 and view["round"] == 3
    assert view["you"] == {"seat": "3", "in_hand": 5, "discarded": 4}
    assert view["river"][0]["seats"] == ["1"]
    assert view["river"][4]["seats"] == ["3"]
    assert view["river"][13] == {"space": 13, "label": "13+", "seats": ["2"], "text": "2", "width": 3}
    assert len(view["river"]) == 14
    assert view["last_bids"] == {"1": 0, "2": 3, "3": 1}
    assert GAME.view(state, None)["you"] is None


def test_hand_counts_are_public_because_discards_are_open() -> None:
    state = race([0, 0], [4, 7])
    for reader in ("1", "2", None):
        jockeys = GAME.view(state, reader)["jockeys"]
        assert [(j["in_hand"], j["discarded"]) for j in jockeys] == [(4, 5), (7, 2)]


def test_help_gives_the_syntax_and_the_decisions() -> None:
    text = GAME.help()
    for phrase in ("BID 3", "BID 0", "a roll of 1", "share the victory", "Hands are public", "NMR", "spaces=N"):
        assert phrase in text


def test_dump_load_round_trip() -> None:
    state = race([1, 2], [3, 4], roll=5, round=9, last_bids=[1, 0])
    assert GAME.load(GAME.dump(state)) == state
