"""Worked examples for every rule of Feaster Island (rule book game 11, hosting plan §4.11)."""

from __future__ import annotations

import pytest
from feaster_island_builders import GAME, ScriptedRng, cube_total, plate, table

from pbem.core import GameError, GameRng, IllegalOrder, Outcome
from pbem.games.feaster_island.orders import Pass, Place, Take
from pbem.games.feaster_island.scoring import dish_results, totals, winners
from pbem.games.feaster_island.state import COLOURS, STAGE_LAST, STAGE_OVER, STAGE_TURN, VALUES

# --- setup and options --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(players: int) -> None:
    assert GAME.seat_names(players) == tuple(str(n) for n in range(1, players + 1))


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(GameError, match="2 to 4 players"):
        GAME.seat_names(players)


def test_setup_puts_one_random_cube_on_each_column_and_draws_for_the_first_player() -> None:
    """Rule book setup 4: "Draw 6 random Dish cubes ... place one in the bottom of each table column";
    plan §4.11: the first roll and draw are made before the first player's orders [D]."""
    state = GAME.setup(("1", "2", "3"), {}, ScriptedRng([4], seed=3))
    assert [len(column) for column in state.columns] == [1] * 6
    assert state.rolled == 4 and len(state.drawn) == 4
    assert sum(state.bag) == 54 - 6 - 4
    assert cube_total(state) == 54
    assert state.stage == STAGE_TURN and state.seat == "1" and state.turn == 1
    phase = GAME.phase(state)
    assert phase.name == "turn" and phase.seats == ("1",)
    assert phase.prompt.startswith("You rolled 4 and drew ")


def test_the_same_seed_deals_the_same_table() -> None:
    assert GAME.setup(("1", "2"), {}, GameRng(8)) == GAME.setup(("1", "2"), {}, GameRng(8))


def test_side_a_and_side_b_dish_values() -> None:
    """CLARIFICATIONS: side A blue 5, red 6, green 7, yellow 8, black 9, white 10; side B the reverse."""
    assert VALUES["a"] == {"blue": 5, "red": 6, "green": 7, "yellow": 8, "black": 9, "white": 10}
    assert VALUES["b"] == {"blue": 10, "red": 9, "green": 8, "yellow": 7, "black": 6, "white": 5}
    assert GAME.setup(("1", "2"), {"side": "B"}, GameRng(1)).side == "b"
    assert GAME.setup(("1", "2"), {}, GameRng(1)).side == "a"


@pytest.mark.parametrize(("options", "message"), [
    ({"side": "c"}, "option side=c: give a or b"),
    ({"start": "9"}, "option start=9"),
    ({"colours": "4"}, "unknown option 'colours'"),
])
def test_bad_options_are_refused_naming_option_and_value(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(1))


def test_start_names_the_first_player() -> None:
    """Plan §3: the first player is seat 1, or start=N / start=random."""
    assert GAME.setup(("1", "2", "3"), {"start": "3"}, GameRng(1)).seat == "3"
    drawn = {GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(seed)).seat for seed in range(20)}
    assert drawn == {"1", "2", "3"}


# --- a turn ------------------------------------------------------------------------------------


def test_example_11a_john_places_three_cubes_and_takes_the_fifth_column() -> None:
    """Example 11A: John rolls 3 and draws 2 yellow and a white, adds them to three different
    columns and takes the 5th column: the 2 white cubes (one he just placed) and the red cube."""
    state = table(["blue", "green", "black", "blue", "red white", "green"], drawn=["yellow", "yellow", "white"])
    orders = [Place((("yellow", 1), ("yellow", 2), ("white", 5))), Take(5)]
    assert GAME.validate(state, "1", orders) == []
    result = GAME.resolve(state, {"1": orders}, ScriptedRng([2]))
    after = result.state
    assert after.plate("1") == {**{c: 0 for c in COLOURS}, "red": 1, "white": 2}
    assert after.columns[4] == ()
    assert after.columns[0] == ("blue", "yellow") and after.columns[1] == ("green", "yellow")
    assert [e.text for e in result.events[:2]] == [
        "Seat 1 placed yellow on column 1, yellow on column 2 and white on column 5.",
        "Seat 1 took column 5: 1 red and 2 white.",
    ]


def test_after_a_turn_the_next_seat_rolls_and_draws() -> None:
    """Rule book: play passes to the next player, who rolls and draws as many cubes as the die shows."""
    state = table(["red"] * 6, drawn=["blue"], players=3, current=2)
    result = GAME.resolve(state, {"3": [Place((("blue", 2),)), Take(1)]}, ScriptedRng([5]))
    assert result.state.seat == "1"
    assert result.state.rolled == 5 and len(result.state.drawn) == 5
    assert result.state.turn == 2
    assert result.events[-1].kind == "roll" and result.events[-1].text.startswith("Seat 1 rolled 5 and drew ")
    assert cube_total(result.state) == cube_total(state)


def test_any_column_with_cubes_may_be_taken_not_only_one_just_placed_on() -> None:
    """Plan §4.11 [D]: the take is of any non-empty column."""
    state = table(["red red", "", "", "", "", ""], drawn=["blue"])
    assert GAME.validate(state, "1", [Place((("blue", 6),)), Take(1)]) == []


def test_placements_may_be_split_over_lines_and_come_after_the_take() -> None:
    state = table([""] * 6, drawn=["blue", "red"])
    assert GAME.validate(state, "1", [Take(2), Place((("blue", 1),)), Place((("red", 2),))]) == []
    result = GAME.resolve(state, {"1": [Take(2), Place((("blue", 1),)), Place((("red", 2),))]}, ScriptedRng([1]))
    assert result.state.plate("1")["red"] == 1


def _messages(state, orders):  # type: ignore[no-untyped-def]
    return [(p.index, p.message) for p in GAME.validate(state, "1", orders)]


def test_each_drawn_cube_goes_on_a_different_column() -> None:
    """Rule book step 2: "Assign each Dish cube to a different table column"."""
    problems = _messages(table([""] * 6, drawn=["blue", "red"]), [Place((("blue", 1), ("red", 1))), Take(1)])
    assert problems[0] == (0, "red:1: column 1 already gets a cube; each cube goes on a different column")
    assert problems[-1][0] is None and "nothing is stored" in problems[-1][1]


def test_a_cube_that_was_not_drawn_cannot_be_placed() -> None:
    problems = _messages(table([""] * 6, drawn=["blue", "red"]), [Place((("blue", 1), ("white", 2))), Take(1)])
    assert problems[0] == (0, "white:2: you drew no white cube (you drew 1 blue and 1 red)")
    problems = _messages(table([""] * 6, drawn=["blue", "red"]), [Place((("blue", 1), ("blue", 2))), Take(1)])
    assert problems[0] == (0, "blue:2: you drew only 1 blue cube")


def test_every_drawn_cube_must_be_placed() -> None:
    problems = _messages(table([""] * 6, drawn=["blue", "red", "red"]), [Place((("blue", 1),)), Take(1)])
    assert problems[0] == (None, "place every drawn cube: 2 red not placed yet")
    assert problems[-1][0] is None


def test_a_turn_takes_exactly_one_column() -> None:
    state = table(["green"] * 6, drawn=["blue"])
    assert _messages(state, [Place((("blue", 1),))])[0] == (None, "send TAKE <column> to take the cubes of one column")
    assert _messages(state, [Place((("blue", 1),)), Take(1), Take(2)])[0] == (
        2, "you take one column a turn: this is a second TAKE")


def test_an_empty_column_cannot_be_taken() -> None:
    state = table(["green", "", "", "", "", ""], drawn=["blue"])
    assert _messages(state, [Place((("blue", 1),)), Take(3)])[0] == (1, "column 3 is empty and gets no cube from you")


def test_pass_is_for_the_last_round_only() -> None:
    state = table(["green"] * 6, drawn=["blue"])
    assert _messages(state, [Pass()])[0] == (0, "PASS is only for the last round: this turn you TAKE a column")


def test_only_the_seat_to_play_may_send_orders() -> None:
    state = table(["green"] * 6, drawn=["blue"])
    assert _messages(state, [])[0][0] is None
    assert GAME.validate(state, "2", [Place((("blue", 1),)), Take(1)])[0].message == "it is not your turn: waiting for seat 1"


def test_resolve_refuses_an_illegal_play() -> None:
    state = table(["green"] * 6, drawn=["blue"])
    with pytest.raises(IllegalOrder, match="seat 1: send TAKE <column>"):
        GAME.resolve(state, {"1": [Place((("blue", 1),))]}, ScriptedRng([]))
    with pytest.raises(GameError, match="no orders for seat 1"):
        GAME.resolve(state, {}, ScriptedRng([]))


# --- NMR and forced plays ----------------------------------------------------------------------


def test_nmr_puts_the_cubes_on_the_lowest_columns_and_takes_the_fullest() -> None:
    """CLARIFICATIONS / plan §4.11: cubes to the lowest free columns, then the column with the most cubes."""
    state = table(["", "red", "red red", "", "", "white white white"], drawn=["blue", "green", "black"])
    assert GAME.default_orders(state, "1") == [Place((("blue", 1), ("green", 2), ("black", 3))), Take(3)]


def test_nmr_takes_the_lowest_of_the_fullest_columns() -> None:
    """Plan §4.11 [D]: ties for the most cubes go to the lowest column."""
    state = table(["", "red red", "", "", "white white", ""], drawn=["blue"])
    assert GAME.default_orders(state, "1") == [Place((("blue", 1),)), Take(2)]


def test_nmr_in_the_last_round_takes_the_fullest_column() -> None:
    state = table(["red", "", "blue blue", "", "green green", ""], stage=STAGE_LAST, last_left=2)
    assert GAME.default_orders(state, "1") == [Take(3)]
    assert GAME.forced_orders(state, "1") is None


def test_a_last_take_with_every_column_empty_is_a_forced_pass() -> None:
    """Plan §4.11: a last-take with every column empty is a forced PASS."""
    state = table([""] * 6, stage=STAGE_LAST, last_left=2)
    assert GAME.forced_orders(state, "1") == [Pass()]
    assert GAME.default_orders(state, "1") == [Pass()]


def test_no_normal_turn_is_forced() -> None:
    state = table([""] * 6, drawn=["blue"])
    assert GAME.forced_orders(state, "1") is None


# --- the end -------------------------------------------------------------------------------------


def test_a_roll_above_the_cubes_in_the_bag_discards_them_and_starts_the_last_round() -> None:
    """Rule book: "The game ends when a player is unable to draw the required number of Dish cubes ...
    The leftover Dish cubes are discarded. Then each player, starting with the current player ...
    may take 1 more table column"."""
    state = table(["red"] * 6, drawn=["blue"], players=3, bag={"white": 2, "black": 1})
    result = GAME.resolve(state, {"1": [Place((("blue", 1),)), Take(1)]}, ScriptedRng([4]))
    after = result.state
    assert after.stage == STAGE_LAST and after.seat == "2" and after.last_left == 3
    assert sum(after.bag) == 0 and after.discarded == 3 and after.drawn == ()
    assert result.events[-1].text == ("Seat 2 rolled 4, but the bag holds only 3 cubes: they are discarded. "
                                      "Last round: every player, seat 2 first, may take one more column.")
    assert GAME.phase(after).name == "last-take" and GAME.phase(after).seats == ("2",)
    assert cube_total(after) == cube_total(state)


def test_a_roll_equal_to_the_cubes_in_the_bag_draws_them_all() -> None:
    state = table(["red"] * 6, drawn=["blue"], bag={"white": 2, "black": 1})
    after = GAME.resolve(state, {"1": [Place((("blue", 1),)), Take(1)]}, ScriptedRng([3])).state
    assert after.stage == STAGE_TURN and sorted(after.drawn) == ["black", "white", "white"] and sum(after.bag) == 0


def test_the_last_round_goes_round_once_then_discards_the_table_and_scores() -> None:
    """Rule book: each player may take 1 more column; "The remaining cubes on the Island Card are then
    discarded"; then scoring."""
    state = table(["red", "blue blue", "", "", "", "white"], players=3, current=1, stage=STAGE_LAST, last_left=3)
    rng = ScriptedRng([])
    state = GAME.resolve(state, {"2": [Take(2)]}, rng).state
    assert state.seat == "3" and state.last_left == 2
    state = GAME.resolve(state, {"3": [Pass()]}, rng).state
    assert state.seat == "1" and state.last_left == 1
    result = GAME.resolve(state, {"1": [Take(6)]}, rng)
    final = result.state
    assert final.stage == STAGE_OVER and final.columns == ((),) * 6 and final.discarded == 1
    assert final.plate("2")["blue"] == 2 and final.plate("1")["white"] == 1
    texts = [e.text for e in result.events]
    assert texts[0] == "Seat 1 took column 6: 1 white."
    assert texts[1] == "The 1 cube left on the table is discarded."
    assert texts[-1] == "Final scores: seat 1 10, seat 2 5, seat 3 0."
    assert GAME.outcome(final) == Outcome(("1",), "Seat 1 has the highest score, 10.")


def test_an_empty_column_cannot_be_taken_in_the_last_round_and_place_is_refused() -> None:
    state = table(["red", "", "", "", "", ""], stage=STAGE_LAST, last_left=2)
    assert _messages(state, [Take(2)]) == [(0, "column 2 is empty")]
    assert _messages(state, [Place((("red", 1),))]) == [(0, "no cubes are drawn in the last round: TAKE <column> or PASS")]
    assert _messages(state, [Take(1), Pass()]) == [(None, "the last round is one order: TAKE <column> or PASS")]
    assert _messages(state, [Pass()]) == []


def test_a_finished_game_takes_no_orders() -> None:
    state = table([""] * 6, stage=STAGE_OVER)
    assert _messages(state, [Pass()]) == [(None, "the game is over")]
    with pytest.raises(GameError, match="over"):
        GAME.resolve(state, {"1": [Pass()]}, ScriptedRng([]))


# --- scoring -----------------------------------------------------------------------------------------


SEATS_11B = ("1", "2", "3", "4")  # John, Paul, Georgette, Ringo
PLATES_11B = (
    plate(blue=2, red=1, green=2, yellow=2, black=3),  # John
    plate(blue=2, red=3, black=1, white=2),  # Paul
    plate(blue=1, red=1, green=2, yellow=3, black=1, white=1),  # Georgette
    plate(blue=3, red=2, yellow=1),  # Ringo
)


def test_example_11b_majorities_and_minorities_on_side_a() -> None:
    """Example 11B: Ringo +5 blue, Paul +6 red, green tied, Georgette +8 yellow, +9 black (the fourth
    player), Paul +10 white; Georgette -5 blue, Paul -8 yellow, Ringo -9 black; red, green and white
    minorities tied. Paul 8, Georgette 3, Ringo -4, and the winner has 9."""
    results = dish_results(SEATS_11B, PLATES_11B, VALUES["a"])
    assert [(r.colour, r.most, r.fewest) for r in results] == [
        ("blue", "4", "3"), ("red", "2", None), ("green", None, None),
        ("yellow", "3", "2"), ("black", "1", "4"), ("white", "2", None),
    ]
    assert totals(SEATS_11B, results) == {"1": 9, "2": 8, "3": 3, "4": -4}
    assert winners(SEATS_11B, results)[0] == ("1",)


def test_a_player_without_a_colour_counts_for_the_fewest() -> None:
    """Plan §4.11 [D]: a player with 0 cubes of a colour counts for the fewest."""
    results = dish_results(("1", "2", "3"), (plate(red=2), plate(red=1), plate()), VALUES["a"])
    red = results[COLOURS.index("red")]
    assert (red.most, red.fewest) == ("1", "3")


def test_ties_for_most_or_fewest_score_nothing() -> None:
    """Rule book: "If there is a tie for the most cubes of a color, nobody scores"; likewise the least."""
    results = dish_results(("1", "2", "3"), (plate(red=2), plate(red=2), plate(red=1)), VALUES["a"])
    red = results[COLOURS.index("red")]
    assert (red.most, red.fewest) == (None, "3")
    results = dish_results(("1", "2"), (plate(red=2), plate(red=2)), VALUES["a"])
    assert (results[1].most, results[1].fewest) == (None, None)


def test_side_b_reverses_the_values() -> None:
    results = dish_results(("1", "2"), (plate(blue=1), plate(white=1)), VALUES["b"])
    assert totals(("1", "2"), results) == {"1": 10 - 5, "2": 5 - 10}


def test_a_tie_on_the_total_goes_to_the_most_colour_majorities() -> None:
    """Rule book: "In case of tie, the player with the most color majorities is the winner"."""
    seats = ("1", "2", "3")
    plates = (plate(red=1, black=2), plate(blue=1, white=1), plate(red=1, green=1))
    results = dish_results(seats, plates, VALUES["a"])
    assert totals(seats, results) == {"1": 9, "2": 9, "3": 7}
    won, reason = winners(seats, results)
    assert won == ("2",)
    assert reason == "Seats 1 and 2 share the highest score, 9; seat 2 wins with the most colour majorities (2)."


def test_then_the_majority_of_the_most_valuable_dish() -> None:
    """Rule book: "If still tied, the player with the majority of the most valuable dish wins"
    (white on side A)."""
    seats = ("1", "2", "3")
    plates = (plate(green=3, black=1), plate(red=1, green=1, white=1), plate(red=1, black=1))
    results = dish_results(seats, plates, VALUES["a"])
    assert totals(seats, results) == {"1": 1, "2": 1, "3": -7}
    won, reason = winners(seats, results)
    assert won == ("2",)
    assert reason == ("Seats 1 and 2 share the highest score, 1, and seats 1 and 2 hold 1 colour majorities each; "
                      "seat 2 wins with the majority of white, the most valuable dish.")


def test_still_tied_without_the_most_valuable_dish_is_a_shared_win() -> None:
    """Plan §4.11 [D]: when neither tied player holds the most valuable dish's majority, they share the win."""
    seats = ("1", "2", "3")
    plates = (plate(blue=1, yellow=1, black=1), plate(red=1, green=1, black=1), plate(white=3))
    results = dish_results(seats, plates, VALUES["a"])
    assert totals(seats, results) == {"1": 13, "2": 13, "3": 1}
    won, reason = winners(seats, results)
    assert won == ("1", "2")
    assert reason == ("Seats 1 and 2 share the victory: 13 points and 2 colour majorities each, and none of them "
                      "holds the majority of white, the most valuable dish.")


def test_on_side_b_blue_is_the_most_valuable_dish() -> None:
    seats = ("1", "2")
    results = dish_results(seats, (plate(blue=1, red=1), plate(red=2, blue=1)), VALUES["b"])
    assert max(results, key=lambda r: r.value).colour == "blue"


def test_a_seat_that_holds_with_noorders_plays_the_nmr_default() -> None:
    """NOORDERS stores an empty submission: the service plays the NMR default instead of failing."""
    state = table(["", "red red", "", "", "", ""], drawn=["blue"])
    result = GAME.resolve(state, {"1": []}, ScriptedRng([1]))
    assert result.state.plate("1")["red"] == 2 and result.state.columns[0] == ("blue",)
