"""Worked examples for every rule of The Kentucksea Derby (rule book game 10, hosting plan §4.10)."""

from __future__ import annotations

import pytest
from kentucksea_derby_builders import GAME, ScriptedRng, bids, derby

from pbem.core import GameError, GameRng, Outcome
from pbem.core.protocol import SILENCE_PASS
from pbem.games.kentucksea_derby.orders import Bet, Bid, Speed, SpeedPass
from pbem.games.kentucksea_derby.racing import COLOURS, SPEED_TABLE, final_order, player_score, roll_racers, speed
from pbem.games.kentucksea_derby.state import STAGE_BET, STAGE_BID, STAGE_OVER, STAGE_REBID, STAGE_SPEED

# --- setup, options, rivals -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "laps"), [(3, 2), (4, 2), (5, 3), (6, 3)])
def test_laps_by_player_count_and_the_speed_column_drawn_from_the_bag(players: int, laps: int) -> None:
    """Rule book: 2 laps with 3-4 players, 3 with 5-6; setup 6: the speed column is drawn from the bag."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(players))
    assert state.laps == laps
    assert sorted(state.column) == sorted(COLOURS)
    assert state.stage == STAGE_BET and state.shells == (40,) * players
    assert GAME.phase(state).seats == GAME.seat_names(players) and GAME.phase(state).name == "bet"
    assert len({GAME.setup(("1", "2", "3"), {}, GameRng(seed)).column for seed in range(8)}) > 1


def test_each_rival_is_the_racer_above_and_the_top_racers_rival_is_the_bottom_one() -> None:
    """Rule book, Determining Rivals; plan §4.10: fixed for the game; seats ride red, blue, green, ... (§3)."""
    state = derby(3, column=("green", "red", "white", "blue", "black", "yellow"))
    assert [state.racer(s) for s in state.seats] == ["red", "blue", "green"]
    assert state.rivals == ("green", "white", "yellow")


@pytest.mark.parametrize("players", [2, 7])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(GameError, match="3 to 6 players"):
        GAME.seat_names(players)


def test_without_betting_everybody_has_20_shells_and_bids_at_once() -> None:
    """Plan §4.10 [D]: betting=no gives 20 shells each and no adjustments."""
    state = GAME.setup(("1", "2", "3"), {"betting": "no"}, GameRng(1))
    assert state.shells == (20, 20, 20) and state.bets == (0, 0, 0) and state.stage == STAGE_BID
    assert GAME.phase(state).name == "bid"


@pytest.mark.parametrize(("options", "message"), [
    ({"betting": "maybe"}, "option betting=maybe: give yes or no"),
    ({"rebid_hours": "0"}, "option rebid_hours=0: give a whole number from 1 to 720"),
    ({"laps": "2"}, "unknown option 'laps'"),
])
def test_bad_options_are_refused_naming_option_and_value(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2", "3"), options, GameRng(1))


# --- bets -------------------------------------------------------------------------------------------


def test_example_10a_a_bet_is_paid_from_the_40_shells() -> None:
    """Example 10A: John bets 15 and moves his score cube from 40 to 25 (no adjustment applies here:
    his rival is nobody's racer and his racer is nobody's rival)."""
    state = derby(3, column=("black", "red", "white", "blue", "yellow", "green"), shells=(40, 40, 40),
                  stage=STAGE_BET)
    result = GAME.resolve(state, {"1": [Bet(15)], "2": [Bet(0)], "3": [Bet(40)]}, ScriptedRng([]))
    assert result.state.shells == (25, 40, 0) and result.state.bets == (15, 0, 40)
    assert result.events[0].text == "Bets revealed: seat 1 bets 15, seat 2 bets 0, seat 3 bets 40."
    assert result.state.stage == STAGE_BID and GAME.phase(result.state).seats == ("1", "2")


def test_example_10b_adjustments_for_rivals_that_are_players() -> None:
    """Example 10B: Georgette's rival is John (bet +5); John's rival is Paul (bet +5) and John is
    Georgette's rival (+10 shells); Paul's rival is the black racer, and Paul is John's rival (+10
    shells); Ringo's rival is the white racer and Ringo is nobody's rival (nothing)."""
    # seat 1 John (red), 2 Paul (blue), 3 Georgette (green), 4 Ringo (yellow)
    column = ("black", "blue", "red", "green", "white", "yellow")
    state = derby(4, column=column, shells=(40,) * 4, stage=STAGE_BET)
    assert state.rivals == ("blue", "black", "red", "white")
    result = GAME.resolve(state, {s: [Bet(10)] for s in "1234"}, ScriptedRng([]))
    assert result.state.bets == (15, 10, 15, 10)
    assert result.state.shells == (40, 40, 30, 30)
    assert [e.text for e in result.events[1:]] == [
        "Seat 1: its bet gains 5 (its rival blue is seat 2's) and it gains 10 shells (its racer is a player's rival).",
        "Seat 2: it gains 10 shells (its racer is a player's rival).",
        "Seat 3: its bet gains 5 (its rival red is seat 1's).",
    ]


def test_a_bet_is_0_to_your_shells() -> None:
    """Plan §4.10 [D]: BET n, 0..shells, before the adjustments."""
    state = derby(3, shells=(40, 40, 40), stage=STAGE_BET)
    assert GAME.validate(state, "1", [Bet(40)]) == []
    assert GAME.validate(state, "1", [Bet(41)])[0].message == "BET 41: you have 40 shells"
    assert GAME.validate(state, "1", [Bid(3)])[0].message == "BID 3: the bets come first; send BET n"


# --- bids and re-bids -------------------------------------------------------------------------------


def test_example_10c_ties_rebid_among_the_tied_seats_only_separate_ties_in_the_same_phase() -> None:
    """Example 10C: John and Ringo bid 1, Michelle 2, Paul, Georgette and Lucy 3; John and Ringo re-bid 1
    and 1, then 2 and 1; Paul bids 3 against Georgette's and Lucy's 1, who then bid 2 and 3. Final order
    Paul, Lucy, Georgette, Michelle, John, Ringo; spent 6, 7, 6, 2, 4, 3."""
    # seats: 1 John, 2 Ringo, 3 Michelle, 4 Paul, 5 Georgette, 6 Lucy; 20 shells each
    state = derby(6, betting=False)
    state = GAME.resolve(state, bids(s1=1, s2=1, s3=2, s4=3, s5=3, s6=3), ScriptedRng([])).state
    assert state.stage == STAGE_REBID
    assert GAME.phase(state).seats == ("4", "5", "6", "1", "2")
    assert GAME.phase(state).prompt.startswith("Round 1, tie re-bid (seats 4, 5, 6 for places 1-3; seats 1, 2 for "
                                               "places 5-6)")
    state = GAME.resolve(state, bids(s4=3, s5=1, s6=1, s1=1, s2=1), ScriptedRng([])).state
    assert GAME.phase(state).seats == ("5", "6", "1", "2")
    result = GAME.resolve(state, bids(s5=2, s6=3, s1=2, s2=1), ScriptedRng([]))
    state = result.state
    assert state.order == ("4", "6", "5", "3", "1", "2")
    assert state.spent == (4, 3, 2, 6, 6, 7)
    assert state.shells == (16, 17, 18, 14, 14, 13)
    assert result.events[-1].text == "Turn order: 4, 6, 5, 3, 1, 2."


def test_a_bid_is_1_to_5_and_never_more_than_your_shells() -> None:
    """Rule book: "the minimum bid is 1 and the maximum is 5 (you cannot bid 0)"."""
    state = derby(3, shells=(20, 3, 20))
    assert GAME.validate(state, "1", [Bid(5)]) == []
    assert GAME.validate(state, "1", [Bid(0)])[0].message == "BID 0: bid from 1 to 5 (5 at most, and you have 20 shells)"
    assert GAME.validate(state, "1", [Bid(6)])[0].index == 0
    assert GAME.validate(state, "2", [Bid(4)])[0].message == "BID 4: bid from 1 to 3 (5 at most, and you have 3 shells)"
    assert GAME.validate(state, "1", [SpeedPass()])[0].message == "SPEED PASS: send BID n for the turn order"
    assert GAME.validate(state, "1", [Bid(1), Bid(2)])[0].message == "send one order now: BID n"


def test_no_bid_pays_the_minimum_and_nmr_sends_no_bid() -> None:
    """CLARIFICATIONS: NMR BID 1; a seat without a bid (NMR, no answer, NOORDERS) pays 1."""
    state = derby(3)
    assert GAME.default_orders(state, "1") == []
    assert GAME.validate(state, "1", []) == []
    result = GAME.resolve(state, bids(s1=None, s2=2, s3=3), ScriptedRng([]))
    assert result.state.order == ("3", "2", "1") and result.state.shells == (19, 18, 17)
    assert result.events[0].text == "Bids revealed: seat 1 no bid (1), seat 2 2, seat 3 3."


def test_a_group_tied_three_times_in_a_row_is_ordered_by_the_speed_column() -> None:
    """Plan §4.10 [D] safety: a group that ties 3 times in a row is ordered by the speed column, higher
    racer first."""
    state = derby(3, column=("black", "green", "white", "red", "yellow", "blue"))
    state = GAME.resolve(state, bids(s1=2, s2=2, s3=1), ScriptedRng([])).state
    state = GAME.resolve(state, bids(s1=1, s2=1), ScriptedRng([])).state
    assert state.stage == STAGE_REBID and state.ties[0] == 2
    result = GAME.resolve(state, bids(s1=4, s2=4), ScriptedRng([]))
    assert result.state.order == ("1", "2", "3")  # red (row 4) above blue (row 6)
    assert "Seats 1 and 2 tied 3 times in a row: the speed column orders them, higher racer first." in [
        e.text for e in result.events]


def test_a_group_whose_members_all_sent_no_bid_is_ordered_by_the_speed_column() -> None:
    """Plan §4.10 [D] safety: a group in which every member was NMR is ordered by the speed column."""
    state = derby(4, column=("yellow", "black", "green", "blue", "white", "red"))
    result = GAME.resolve(state, bids(s1=None, s2=None, s3=None, s4=3), ScriptedRng([]))
    assert result.state.order == ("4", "3", "2", "1")
    assert result.state.stage == STAGE_SPEED


def test_a_tied_member_without_shells_takes_the_groups_last_place() -> None:
    """Plan §4.10 [D]: a member who runs out of shells while re-bidding takes the group's last place; a
    lone member left is not asked again."""
    state = derby(4, shells=(2, 20, 2, 20))
    result = GAME.resolve(state, bids(s1=2, s2=2, s3=2, s4=1), ScriptedRng([]))
    assert result.state.order == ("2", "1", "3", "4")
    texts = [e.text for e in result.events]
    assert ("Seat 2 is the only one of seats 1, 2 and 3 with shells left: it takes the first of their places "
            "without bidding again.") in texts
    assert "Seats 1 and 3 have no shells left to re-bid and take the last of the tied places." in texts


def test_players_without_shells_do_not_bid_and_take_the_last_places_in_the_previous_order() -> None:
    """Plan §4.10 [D]: players without shells do not bid and take the last places, in their previous turn
    order; they do not move the speed column either (rule book IMPORTANT)."""
    state = derby(4, shells=(0, 5, 0, 5), order=("3", "2", "4", "1"), round=2)
    assert GAME.phase(state).seats == ("2", "4")
    result = GAME.resolve(state, bids(s2=1, s4=2), ScriptedRng([]))
    assert result.state.order == ("4", "2", "3", "1")
    assert result.state.speakers == ("2", "4")


def test_a_rebid_is_a_short_answer_window_where_silence_bids_1() -> None:
    """Plan §4.10 and X2: a short deadline for rebid; silence there is no bid, recorded as passed."""
    state = GAME.setup(("1", "2", "3"), {"betting": "no", "rebid_hours": "8"}, GameRng(2))
    state = GAME.resolve(state, bids(s1=3, s2=3, s3=1), ScriptedRng([])).state
    phase = GAME.phase(state)
    assert phase.name == "rebid" and phase.seats == ("1", "2")
    assert phase.deadline_hours == 8 and phase.silence == SILENCE_PASS
    assert GAME.phase(derby(3)).is_window is False


# --- speed moves --------------------------------------------------------------------------------------


def test_example_10d_speed_moves_in_reverse_turn_order_keep_the_others_in_order() -> None:
    """Example 10D: Ringo (last in turn order) puts green on top, white moving down; then John puts blue
    (his rival) last, yellow and red moving up."""
    column = ("white", "green", "black", "blue", "yellow", "red")
    state = derby(3, column=column, stage=STAGE_SPEED, order=("1", "2", "3"), speakers=("3", "2", "1"))
    assert GAME.phase(state).seats == ("3",)
    state = GAME.resolve(state, {"3": [Speed("green", 1)]}, ScriptedRng([])).state
    assert state.column == ("green", "white", "black", "blue", "yellow", "red")
    result = GAME.resolve(state, {"2": [Speed("blue", 6)]}, ScriptedRng([]))
    assert result.state.column == ("green", "white", "black", "yellow", "red", "blue")
    assert result.events[0].text == ("Seat 2 moves the blue racer to row 6: the speed column reads green, white, "
                                     "black, yellow, red, blue.")
    assert GAME.phase(result.state).seats == ("1",)


def test_a_speed_move_must_change_the_column_and_pass_leaves_it() -> None:
    """Rule book: "move 1 cube ... to any other space"; "You are also allowed to choose not to move"."""
    state = derby(3, stage=STAGE_SPEED, speakers=("1",))
    assert GAME.validate(state, "1", [Speed("red", 1)])[0].message == (
        "SPEED red 1: the red racer is on row 1 already; send SPEED PASS to leave the column as it is")
    assert GAME.validate(state, "1", [SpeedPass()]) == []
    assert GAME.default_orders(state, "1") == [SpeedPass()]


# --- the race -------------------------------------------------------------------------------------------


def test_the_speed_table_checks_against_example_10e() -> None:
    """Example 10E: with the column blue, red, black, yellow, green, white, a 6 moves them 4, 4, 5, 4, 3, 1
    and a 2 moves them 5, 4, 3, 6, 6, 2."""
    column = ("blue", "red", "black", "yellow", "green", "white")
    progress = {c: 0 for c in COLOURS}
    _, six = roll_racers(column, progress, (), 3, 6)
    assert six.moves == (("blue", 4), ("red", 4), ("black", 5), ("yellow", 4), ("green", 3), ("white", 1))
    _, two = roll_racers(column, progress, (), 3, 2)
    assert [steps for _, steps in two.moves] == [5, 4, 3, 6, 6, 2]
    assert [[speed(row, die) for die in range(1, 7)] for row in range(6)] == [list(r) for r in SPEED_TABLE]
    assert [SPEED_TABLE[row][0] for row in range(6)] == [6, 5, 4, 3, 2, 1]  # CLARIFICATIONS: die 1 column


def test_example_10f_racers_crossing_on_one_roll_finish_in_the_order_they_moved() -> None:
    """Example 10F: red finished earlier; Michelle rolls 5: green crosses, then black; yellow, white and
    blue move without crossing. Blue is 4th (most advanced of the rest); yellow and white share a space
    and yellow, higher in the speed column, is 5th."""
    column = ("green", "black", "yellow", "blue", "white", "red")
    progress = {"red": 75, "green": 70, "black": 69, "yellow": 60, "blue": 63, "white": 62}
    after, roll = roll_racers(column, progress, ("red",), 3, 5)
    assert roll.finished == ("green", "black")
    assert ("red", 2) not in roll.moves and after["red"] == 75
    assert after["yellow"] == after["white"] == 64 and after["blue"] == 66
    assert final_order(column, after, ("red", "green", "black")) == ("red", "green", "black", "blue", "yellow", "white")


def test_the_race_phase_rolls_once_per_player_in_turn_order_and_ends_at_the_end_of_the_round() -> None:
    """Rule book phase 3 and End of the game: the round continues after a racer finishes; finished
    racers do not move again [D]; racers start on the line [D]."""
    column = ("red", "blue", "green", "yellow", "black", "white")
    state = derby(3, column=column, stage=STAGE_SPEED, order=("2", "3", "1"), speakers=("1",),
                  progress={"red": 45, "blue": 30})
    result = GAME.resolve(state, {"1": [SpeedPass()]}, ScriptedRng([1, 6, 1]))
    final = result.state
    assert final.stage == STAGE_OVER and final.finished == ("red",)
    rolls = [e for e in result.events if e.kind == "roll"]
    assert [e.seat for e in rolls] == ["2", "3", "1"]
    assert rolls[0].text == "Seat 2 rolls 1: red +6, blue +5, green +4, yellow +3, black +2, white +1; red crosses the line and finishes 1st."
    assert rolls[1].text.startswith("Seat 3 rolls 6: blue +4, green +5")
    assert result.events[-1].text == ("The race is over. Final order: 1st red, 2nd blue, 3rd green, 4th yellow, "
                                      "5th black, 6th white.")


def test_a_racer_crossing_the_line_before_its_last_lap_starts_the_next_one() -> None:
    state = derby(3, stage=STAGE_SPEED, speakers=("1",), progress={"red": 20})
    result = GAME.resolve(state, {"1": [SpeedPass()]}, ScriptedRng([1, 1, 1]))
    assert "red starts lap 2" in result.events[1].text
    assert result.state.stage == STAGE_BID and result.state.round == 2
    assert result.state.progress[0] == 38


def test_without_shells_nobody_is_asked_and_the_rounds_race_on() -> None:
    """Rule book IMPORTANT: without shells you cannot bid or modify the speed, but still roll."""
    state = derby(3, shells=(0, 0, 1), progress={c: 30 for c in COLOURS})
    result = GAME.resolve(state, bids(s3=1), ScriptedRng([6, 6, 6, 6, 6, 6]))
    assert result.state.stage == STAGE_OVER
    kinds = [e.kind for e in result.events]
    assert kinds.count("roll") == 6 and "no-bids" in kinds


# --- scoring --------------------------------------------------------------------------------------------


def test_example_10g_score_is_place_points_plus_bet_times_rival_multiplier_plus_shells() -> None:
    """Example 10G: Georgette finishes first (60), bet 25 on John who is fifth (x4 = 100), 7 shells: 167."""
    assert player_score(0, 4, 25, 7) == 167
    # the same through the game: seat 1 red first, its rival blue fifth
    state = derby(3, column=("blue", "red", "white", "green", "yellow", "black"), shells=(7, 0, 0), bets=(25, 0, 0),
                  stage=STAGE_OVER, finished=("red",),
                  progress={"red": 48, "white": 40, "green": 39, "yellow": 38, "blue": 30, "black": 10})
    assert state.rivals[0] == "blue"
    assert GAME.scores(state)["1"] == 60 + 25 * 4 + 7


def test_a_tie_on_score_goes_to_the_racer_higher_in_the_speed_column() -> None:
    """Rule book: "In the event of a tie, the winner is the tied player with the cube in highest position on
    the Speed Column"."""
    column = ("black", "white", "yellow", "green", "blue", "red")
    progress = {"black": 48, "white": 40, "yellow": 30, "green": 20, "blue": 10, "red": 5}
    state = derby(3, column=column, shells=(50, 15, 0), stage=STAGE_OVER, finished=("black",), progress=progress)
    scores = GAME.scores(state)
    # red 6th: 5 + 50 = 55; blue 5th: 10 + 15 = 25; green 4th: 20
    assert scores == {"1": 55, "2": 25, "3": 20}
    state = derby(3, column=column, shells=(40, 35, 20), stage=STAGE_OVER, finished=("black",), progress=progress)
    assert GAME.scores(state) == {"1": 45, "2": 45, "3": 40}
    assert GAME.outcome(state) == Outcome(("2",), "Seats 1 and 2 have 45 points each; seat 2 wins: its racer, blue, is "
                                                  "highest in the speed column.")


# --- NMR, forced plays, guards ------------------------------------------------------------------------------


def test_nmr_defaults() -> None:
    """CLARIFICATIONS: NMR BID 1, leave the speed column; plan [D]: BET 0."""
    assert GAME.default_orders(derby(3, stage=STAGE_BET, shells=(40,) * 3), "2") == [Bet(0)]
    assert GAME.default_orders(derby(3), "2") == []
    assert GAME.default_orders(derby(3, stage=STAGE_SPEED, speakers=("2",)), "2") == [SpeedPass()]


def test_no_forced_plays_seats_without_a_choice_are_simply_not_asked_and_digests_are_the_default() -> None:
    state = derby(3, shells=(0, 4, 4))
    assert GAME.phase(state).seats == ("2", "3") and GAME.forced_orders(state, "2") is None
    assert GAME.default_reports == "digest"


def test_only_owing_seats_may_send_orders_and_a_finished_race_takes_none() -> None:
    state = derby(3, stage=STAGE_SPEED, speakers=("2", "1"))
    assert GAME.validate(state, "1", [SpeedPass()])[0].message == "it is not your turn: waiting for seat 2"
    with pytest.raises(GameError, match="the race is over"):
        GAME.resolve(derby(3, stage=STAGE_OVER, finished=("red",)), {}, ScriptedRng([]))
    with pytest.raises(GameError, match="no orders for seat 2"):
        GAME.resolve(state, {"1": [SpeedPass()]}, ScriptedRng([]))


def test_the_check_summary_says_what_an_order_leaves() -> None:
    state = derby(3, column=COLOURS, stage=STAGE_SPEED, speakers=("1",))
    assert GAME.submission_summary(state, "1", [Speed("white", 1)]) == (
        "The speed column will read: white, red, blue, green, yellow, black.")
    assert GAME.submission_summary(derby(3), "2", [Bid(4)]) == "You will have 16 shells left."
    assert GAME.submission_summary(derby(3), "2", []) == ""
