"""Worked examples for every rule of The Three Pyramids."""

from __future__ import annotations

import pytest
from three_pyramids_builders import GAME, play, table

from pbem.core import GameError, GameRng, IllegalOrder, OrderProblem, Outcome
from pbem.core.bag import Bag
from pbem.games.three_pyramids.orders import Play
from pbem.games.three_pyramids.rules import legal_plays
from pbem.games.three_pyramids.state import COLOURS, full_bag

# --- seats, options, setup ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_sit_in_seats_1_to_n(players: int) -> None:
    assert GAME.seat_names(players) == tuple(str(n) for n in range(1, players + 1))


@pytest.mark.parametrize("players", [1, 5, 6])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(GameError, match="2 to 4 players"):
        GAME.seat_names(players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_draws_ten_hidden_cubes_each_from_the_54(players: int) -> None:
    seats = GAME.seat_names(players)
    state = GAME.setup(seats, {}, GameRng(1))
    assert all(hand.size == 10 for hand in state.hands)
    assert state.bag.size == 54 - 10 * players
    total = state.bag
    for hand in state.hands:
        total = total + hand
    assert total == full_bag()
    assert all(not any(pyramid) for pyramid in state.pyramids)
    assert state.round == 1 and state.scores == tuple(0 for _ in seats)
    assert GAME.phase(state).seats == ("1",)
    assert GAME.phase(state).prompt == "Round 1 of 3: seat 1 to play."


def test_setup_is_deterministic_for_a_seed() -> None:
    assert GAME.setup(("1", "2"), {}, GameRng(9)) == GAME.setup(("1", "2"), {}, GameRng(9))


def test_the_start_option_names_or_draws_the_first_player() -> None:
    assert GAME.phase(GAME.setup(("1", "2", "3"), {"start": "3"}, GameRng(0))).seats == ("3",)
    starters = {GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(seed)).seat_to_play for seed in range(30)}
    assert starters == {"1", "2", "3"}


@pytest.mark.parametrize(
    ("options", "message"),
    [({"start": "5"}, "start=5"), ({"first": "2"}, "unknown option"), ({"rounds": "2"}, "unknown option")],
)
def test_bad_options_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2", "3"), options, GameRng(0))


# --- legal plays ---------------------------------------------------------------------


def test_an_empty_pyramid_takes_exactly_one_cube_of_any_colour() -> None:
    state = table({"1": "red red blue", "2": "white"})
    plays = legal_plays(state, "1")
    assert [str(p) for p in plays if p.pyramid == "LEFT"] == ["PLAY LEFT blue", "PLAY LEFT red"]
    assert GAME.validate(state, "1", [play("LEFT red red")]) == [
        OrderProblem(0, "PLAY LEFT red red: the LEFT pyramid is empty, so you must play exactly one cube to it")
    ]


def test_one_cube_must_match_a_colour_on_the_pyramid_on_any_side() -> None:
    state = table({"1": "red blue", "2": "white"}, {"LEFT": {"2": "red"}})
    assert GAME.validate(state, "1", [play("LEFT red")]) == []
    assert GAME.validate(state, "1", [play("LEFT blue")]) == [
        OrderProblem(
            0,
            "PLAY LEFT blue: no blue cube is on the LEFT pyramid; a single cube must match a colour "
            "already on it (two cubes must both be colours not on it)",
        )
    ]


def test_a_matching_cube_may_match_the_players_own_side() -> None:
    state = table({"1": "red", "2": "white"}, {"LEFT": {"1": "red"}})
    assert GAME.validate(state, "1", [play("LEFT red")]) == []


def test_two_cubes_must_both_be_colours_not_on_the_pyramid() -> None:
    state = table({"1": "red blue green green", "2": "white"}, {"LEFT": {"2": "red"}})
    assert GAME.validate(state, "1", [play("LEFT blue green")]) == []
    assert GAME.validate(state, "1", [play("LEFT green green")]) == []
    assert GAME.validate(state, "1", [play("LEFT red blue")]) == [
        OrderProblem(
            0,
            "PLAY LEFT red blue: red is already on the LEFT pyramid; two cubes must both be colours "
            "not on it (one cube must match)",
        )
    ]


def test_cubes_must_be_in_the_hand() -> None:
    state = table({"1": "red blue", "2": "white"}, {"LEFT": {"2": "white"}})
    assert GAME.validate(state, "1", [play("CENTER black")]) == [
        OrderProblem(0, "PLAY CENTER black: you have no black cube in your hand")
    ]
    assert GAME.validate(state, "1", [play("LEFT red red")]) == [
        OrderProblem(0, "PLAY LEFT red red: you have only one red cube in your hand")
    ]


def test_example_17a_ringos_options() -> None:
    # John (1) green on CENTER; Paul (2) blue on LEFT; Georgette (3) blue on LEFT; Ringo (4) red on
    # RIGHT; John two yellow on LEFT; Paul red on RIGHT; Georgette blue and black on RIGHT.
    state = table(
        {
            "1": "green yellow yellow white",
            "2": "blue red white",
            "3": "blue blue black white",
            "4": "red red yellow blue green black white white",
        }
    )
    rng = GameRng(0)
    for seat, text in [
        ("1", "CENTER green"),
        ("2", "LEFT blue"),
        ("3", "LEFT blue"),
        ("4", "RIGHT red"),
        ("1", "LEFT yellow yellow"),
        ("2", "RIGHT red"),
        ("3", "RIGHT blue black"),
    ]:
        assert GAME.phase(state).seats == (seat,)
        assert GAME.validate(state, seat, [play(text)]) == []
        state = GAME.resolve(state, {seat: [play(text)]}, rng).state
    assert state.seat_to_play == "4"
    singles = sorted(str(p) for p in legal_plays(state, "4") if len(p.colours) == 1)
    assert singles == [
        "PLAY CENTER green",
        "PLAY LEFT blue",
        "PLAY LEFT yellow",
        "PLAY RIGHT black",
        "PLAY RIGHT blue",
        "PLAY RIGHT red",
    ]  # the book: yellow or blue on LEFT, green on CENTER, red, blue or black on RIGHT
    pairs = [str(p) for p in legal_plays(state, "4") if p.pyramid == "RIGHT" and len(p.colours) == 2]
    assert pairs == ["PLAY RIGHT green white", "PLAY RIGHT green yellow", "PLAY RIGHT white white",
                     "PLAY RIGHT white yellow"]


# --- submissions ---------------------------------------------------------------------


def test_only_the_seat_to_play_may_send_orders() -> None:
    state = table({"1": "red", "2": "blue"}, to_play="2")
    assert GAME.validate(state, "1", [play("LEFT red")]) == [
        OrderProblem(None, "it is not your turn: waiting for seat 2")
    ]


def test_a_turn_is_exactly_one_play() -> None:
    state = table({"1": "red blue", "2": "blue"})
    assert GAME.validate(state, "1", [play("LEFT red"), play("CENTER blue")]) == [
        OrderProblem(None, "a turn is exactly one order; send one PLAY")
    ]


def test_passing_is_not_allowed_while_a_play_exists() -> None:
    state = table({"1": "red", "2": "blue"})
    assert GAME.validate(state, "1", []) == [
        OrderProblem(None, "a turn is exactly one PLAY order; you may not pass while you can play")
    ]


def test_a_seat_that_holds_plays_its_nmr_default() -> None:
    """NOORDERS stores an empty entry: resolve plays the NMR default (the first legal play), not a pass."""
    state = table({"1": "red", "2": "blue"})
    held = GAME.resolve(state, {"1": []}, GameRng(0))
    assert held == GAME.resolve(state, {"1": GAME.default_orders(state, "1")}, GameRng(0))
    assert GAME.default_orders(state, "1") != []


def test_an_illegal_play_is_refused_by_resolve() -> None:
    state = table({"1": "red", "2": "blue"})
    with pytest.raises(IllegalOrder, match="no blue cube"):
        GAME.resolve(state, {"1": [play("LEFT blue")]}, GameRng(0))


def test_submission_summary_counts_the_cubes_left() -> None:
    state = table({"1": "red red blue", "2": "blue"})
    assert GAME.submission_summary(state, "1", [play("LEFT red")]) == "2 cubes will stay in your hand."


# --- turns ---------------------------------------------------------------------------


def test_a_play_moves_the_cubes_from_the_hand_to_the_players_side() -> None:
    state = table({"1": "red red blue", "2": "blue white", "3": "green"}, {"LEFT": {"2": "black"}})
    result = GAME.resolve(state, {"1": [play("LEFT red blue")]}, GameRng(0))
    after = result.state
    assert after.hand("1") == Bag.of(["red"])
    assert after.pyramid("LEFT") == (("red", "blue"), ("black",), ())
    assert after.seat_to_play == "2"
    assert result.events[0].text == "Seat 1 plays two cubes to the LEFT pyramid: red and blue."
    assert result.events[0].seats is None


def test_a_player_who_cannot_play_passes_automatically() -> None:
    # seat 2 holds only red and red is on every pyramid... and pairs need two cubes
    pyramids = {"LEFT": {"1": "red"}, "CENTER": {"1": "blue"}, "RIGHT": {"1": "green"}}
    state = table({"1": "red blue", "2": "white", "3": "yellow yellow"}, pyramids)
    result = GAME.resolve(state, {"1": [play("LEFT red")]}, GameRng(0))
    after = result.state
    assert after.passed == (False, True, False)
    assert after.seat_to_play == "3"
    assert result.events[1].kind == "pass"
    assert result.events[1].text == "Seat 2 cannot play and passes for the rest of the round (1 cube left in hand)."


def test_passed_players_take_no_more_turns() -> None:
    state = table({"1": "red red", "2": "red red", "3": "red red"}, {"LEFT": {"3": "red"}}, passed=["2"])
    after = GAME.resolve(state, {"1": [play("LEFT red")]}, GameRng(0)).state
    assert after.seat_to_play == "3"
    after = GAME.resolve(after, {"3": [play("LEFT red")]}, GameRng(0)).state
    assert after.seat_to_play == "1"


def test_the_last_player_who_can_play_goes_on_alone() -> None:
    state = table({"1": "red red red", "2": "", "3": ""}, {"LEFT": {"2": "red"}}, passed=["2", "3"])
    after = GAME.resolve(state, {"1": [play("LEFT red")]}, GameRng(0)).state
    assert after.seat_to_play == "1"
    assert after.round == 1


def test_only_the_pass_is_forced_never_a_single_legal_play() -> None:
    # gateway-island-hosting.md, X3: "force only the pass, never a single legal play".
    pyramids = {"LEFT": {"2": "red"}, "CENTER": {"2": "blue"}, "RIGHT": {"2": "green"}}
    one_play = table({"1": "red", "2": "white"}, pyramids)
    assert legal_plays(one_play, "1") == [play("LEFT red")]
    assert GAME.forced_orders(one_play, "1") is None  # asked: playing it would tell the table about the hand
    assert GAME.default_orders(one_play, "1") == [play("LEFT red")]  # NMR: the first (here the only) play
    state = table({"1": "white", "2": "white"}, pyramids)
    assert GAME.forced_orders(state, "1") == []  # a pass is public by the rules
    state = table({"1": "red blue", "2": "white"}, pyramids)
    assert GAME.forced_orders(state, "1") is None


def test_a_pass_sent_for_a_seat_that_cannot_play_is_accepted() -> None:
    pyramids = {"LEFT": {"2": "red"}, "CENTER": {"2": "blue"}, "RIGHT": {"2": "green"}}
    state = table({"1": "white", "2": "red white"}, pyramids)
    assert GAME.validate(state, "1", []) == []
    result = GAME.resolve(state, {"1": []}, GameRng(0))
    assert result.state.passed == (True, False)
    assert result.state.seat_to_play == "2"


def test_nmr_default_is_the_first_legal_play_pyramid_then_colours_alphabetically() -> None:
    state = table({"1": "yellow red", "2": "white"})
    assert GAME.default_orders(state, "1") == [play("LEFT red")]
    # LEFT holds blue: a pair of blacks sorts before the single blue
    state = table({"1": "blue black black", "2": "white"}, {"LEFT": {"2": "blue"}})
    assert GAME.default_orders(state, "1") == [play("LEFT black black")]
    # nothing fits on LEFT: CENTER comes next
    state = table({"1": "red", "2": "white"}, {"LEFT": {"2": "blue"}})
    assert GAME.default_orders(state, "1") == [play("CENTER red")]
    assert GAME.validate(state, "1", GAME.default_orders(state, "1")) == []


def test_sample_orders_are_legal() -> None:
    state = table({"1": "red red blue green white", "2": "white"}, {"LEFT": {"2": "blue"}})
    rng = GameRng(4)
    for _ in range(40):
        assert GAME.validate(state, "1", GAME.sample_orders(state, "1", rng)) == []


# --- round end and scoring --------------------------------------------------------------


def _example_17b_before_last_play():  # type: ignore[no-untyped-def]
    # John 1, Paul 2, Georgette 3, Ringo 4. Ringo plays his last cube to RIGHT, then all have passed.
    pyramids = {
        "LEFT": {"1": "red red blue blue", "2": "green green green", "3": "yellow yellow yellow black black",
                 "4": "white white"},
        "CENTER": {"1": "black black white", "3": "blue", "4": "red"},
        "RIGHT": {"1": "green", "2": "blue blue yellow", "3": "red red", "4": "white white"},
    }
    return table({"1": "", "2": "black", "3": "", "4": "white"}, pyramids, to_play="4", passed=["1", "2", "3"])


def test_example_17b_the_round_is_scored_when_everybody_has_passed() -> None:
    state = _example_17b_before_last_play()
    result = GAME.resolve(state, {"4": [play("RIGHT white")]}, GameRng(3))
    texts = [e.text for e in result.events]
    assert texts[1] == "Seat 4 cannot play and passes for the rest of the round (0 cubes left in hand)."
    assert texts[2] == (
        "LEFT pyramid: seat 3 has the most cubes (5) and scores 12; "
        "seat 1 4 points (4 cubes), seat 2 3 points (3 cubes), seat 4 2 points (2 cubes)."
    )
    assert texts[3] == (
        "CENTER pyramid: seat 1 has the most cubes (3) and scores 12; "
        "seat 2 0 points (no cubes), seat 3 1 point (1 cube), seat 4 1 point (1 cube)."
    )
    assert texts[4] == (
        "RIGHT pyramid: seats 2, 4 tie for the most cubes (3) and score 12; "
        "seat 1 1 point (1 cube), seat 3 2 points (2 cubes)."
    )
    assert texts[5] == (
        "Round 1 is over: seat 1 +17 (total 17), seat 2 +15 (total 15), seat 3 +15 (total 15), seat 4 +15 (total 15)."
    )
    assert result.state.scores == (17, 15, 15, 15)


def test_the_next_round_starts_fresh_with_the_lowest_score_first() -> None:
    state = _example_17b_before_last_play()
    result = GAME.resolve(state, {"4": [play("RIGHT white")]}, GameRng(3))
    after = result.state
    assert after.round == 2
    assert all(hand.size == 10 for hand in after.hands)
    assert after.bag.size == 14
    assert all(not any(p) for p in after.pyramids)
    assert after.passed == (False, False, False, False)
    assert after.seat_to_play in ("2", "3", "4")  # tied lowest at 15: drawn
    assert after.first == after.to_play
    first_event = next(e for e in result.events if e.kind == "first-player")
    assert "tie for the lowest score (15)" in first_event.text
    draws = [e for e in result.events if e.kind == "draw"]
    assert [e.seats for e in draws] == [(s,) for s in _rotation(after.seat_to_play)]
    drawn = Bag()
    for e in draws:
        drawn = drawn.add(e.data["cubes"])
    assert drawn + after.bag == full_bag()


def _rotation(first: str) -> list[str]:
    seats = ["1", "2", "3", "4"]
    i = seats.index(first)
    return seats[i:] + seats[:i]


def test_a_single_lowest_score_plays_first_without_a_draw() -> None:
    state = table({"1": "", "2": "", "3": "red"}, {"LEFT": {"3": "red"}}, to_play="3", passed=["1", "2"],
                  scores=[20, 5, 30])
    after = GAME.resolve(state, {"3": [play("LEFT red")]}, GameRng(0)).state
    # seat 3 scores 12 (+0 for others): 20, 5, 42 -> seat 2 starts round 2
    assert after.scores == (20, 5, 42)
    assert after.seat_to_play == "2"


def test_a_pyramid_nobody_played_on_scores_nothing() -> None:
    state = table({"1": "", "2": "red"}, {"LEFT": {"2": "red"}}, to_play="2", passed=["1"])
    result = GAME.resolve(state, {"2": [play("LEFT red")]}, GameRng(0))
    assert "Nobody played on the CENTER pyramid: it scores nothing." in [e.text for e in result.events]
    assert result.state.scores == (0, 12)


def test_the_game_ends_after_round_3_with_the_highest_score() -> None:
    state = table({"1": "", "2": "red"}, {"LEFT": {"1": "blue"}}, to_play="2", passed=["1"], round=3,
                  scores=[40, 30])
    result = GAME.resolve(state, {"2": [play("CENTER red")]}, GameRng(0))
    # LEFT: seat 1 alone scores 12; CENTER: seat 2 alone scores 12
    assert result.state.finished
    assert result.state.scores == (52, 42)
    assert GAME.outcome(result.state) == Outcome(("1",), "Seat 1 has the highest score, 52.")
    assert not any(e.kind == "draw" for e in result.events)
    with pytest.raises(GameError, match="over"):
        GAME.resolve(result.state, {"2": []}, GameRng(0))
    assert GAME.validate(result.state, "1", []) == [OrderProblem(None, "the game is over")]


def test_equal_highest_scores_share_the_victory() -> None:
    state = table({"1": "", "2": "red"}, {"LEFT": {"1": "blue"}}, to_play="2", passed=["1"], round=3,
                  scores=[30, 30])
    result = GAME.resolve(state, {"2": [play("CENTER red")]}, GameRng(0))
    assert GAME.outcome(result.state) == Outcome(("1", "2"), "Seats 1, 2 share the highest score, 42.")


def test_the_game_is_not_over_before_round_3_ends() -> None:
    assert GAME.outcome(table({"1": "red", "2": "blue"}, round=3)) is None


def test_scores_are_the_score_track() -> None:
    assert GAME.scores(table({"1": "", "2": ""}, scores=[7, 9])) == {"1": 7, "2": 9}


def test_help_gives_the_syntax_and_the_decisions() -> None:
    text = GAME.help()
    for phrase in ("PLAY LEFT red", "PLAY CENTER blue blue", "empty pyramid", "scores nothing", "NMR",
                   "PLAY LEFT black black", "start=random", "lowest score"):
        assert phrase in text


def test_dump_load_round_trip() -> None:
    state = table({"1": "red blue", "2": "white white"}, {"RIGHT": {"2": "green"}}, passed=["2"], round=2)
    assert GAME.load(GAME.dump(state)) == state


def test_colours_are_the_six_of_the_book() -> None:
    assert set(COLOURS) == {"red", "blue", "green", "yellow", "black", "white"}
    assert full_bag().size == 54
    assert isinstance(play("LEFT red"), Play)
