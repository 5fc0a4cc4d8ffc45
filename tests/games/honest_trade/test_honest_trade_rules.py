"""Worked examples for every rule of An Honest Trade (rule book game 18, CLARIFICATIONS, hosting
plan section 4.18 with its [D] decisions)."""

from __future__ import annotations

import pytest
from trade_builders import GAME, answer, orders_of, problems, run, trade, trader

from pbem.core import GameError, GameRng, IllegalOrder
from pbem.core.protocol import SILENCE_PASS
from pbem.games.honest_trade.state import (
    COLOURS,
    DISCARD,
    REACTOR_WINDOW,
    TARGET,
    WINDOW,
)

# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_trader_starts_with_five_action_cubes_in_a_row_and_a_secret_colour(players: int) -> None:
    """[R] "Each player takes 1 cube of each of the following colors ... in a line"; "Each player
    draws 1 Secret cube from the bag"; [D] a supply of 10 black cubes and 10 discs."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(players))
    assert all(t.row == COLOURS and not t.pushed and t.blacks == t.discs == 0 for t in state.traders)
    assert len(state.secrets) == players and set(state.secrets) <= set(COLOURS)
    assert (state.supply_blacks, state.supply_discs) == (10, 10)


def test_the_bag_holds_two_cubes_per_colour_so_two_traders_may_share_a_colour_but_never_three() -> None:
    """[R] "Place 2 cubes in the bag of each of the following colors"."""
    shared = 0
    for seed in range(200):
        secrets = GAME.setup(GAME.seat_names(5), {}, GameRng(seed)).secrets
        assert max(secrets.count(c) for c in COLOURS) <= 2
        shared += len(set(secrets)) < 5
    assert shared > 0


def test_the_secret_colours_are_sealed_draws_not_listed_in_reports() -> None:
    rng = GameRng(5)
    GAME.setup(GAME.seat_names(4), {"start": "random"}, rng)
    assert len(rng.sealed_draws) == 4
    assert len(rng.draws) == 1 and rng.draws[0][1] == 4  # the first player only, drawn among 4 seats


@pytest.mark.parametrize("players", [2, 6])
def test_three_to_five_players(players: int) -> None:
    with pytest.raises(GameError, match="3 to 5 players"):
        GAME.seat_names(players)


def test_the_options_set_the_window_the_supply_and_the_first_player() -> None:
    state = GAME.setup(GAME.seat_names(3), {"window_hours": "3", "cubes": "20", "discs": "4", "start": "2"},
                       GameRng(0))
    assert (state.window_hours, state.supply_blacks, state.supply_discs, state.actor) == (3, 20, 4, "2")
    assert GAME.setup(GAME.seat_names(3), {}, GameRng(0)).window_hours == 12  # [C] default 12 hours


@pytest.mark.parametrize(("options", "message"), [
    ({"window_hours": "0"}, r"option window_hours=0: give a whole number from 1 to 720"),
    ({"cubes": "2"}, r"option cubes=2: give a whole number from 3 to 60"),
    ({"discs": "many"}, r"option discs=many: give a whole number from 3 to 60"),
    ({"start": "9"}, r"start=9"),
    ({"bag": "3"}, r"unknown option"),
])
def test_bad_options_are_refused_by_name(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(GAME.seat_names(3), options, GameRng(0))


# --- the shape of a turn -----------------------------------------------------------------------


def test_after_an_action_every_other_living_seat_answers_in_one_short_window_where_silence_is_pass() -> None:
    """Plan 4.18 turn shape step 2: one simultaneous sealed window, X2 short deadline (window_hours),
    silence = PASS; seats listed clockwise from the actor; an eliminated seat is not asked."""
    state = trade("red white blue green", to_play="2", window_hours=5,
                  traders={"4": trader(out=True)})
    assert GAME.phase(state).seats == ("2",) and GAME.phase(state).deadline_hours is None
    window = GAME.phase(answer(state, {"2": "ACT RED"}).state)
    assert (window.name, window.seats, window.deadline_hours, window.silence) == ("window", ("3", "1"), 5,
                                                                                  SILENCE_PASS)
    assert window.is_window


def test_a_window_nobody_answers_lets_the_action_stand() -> None:
    """[C] window NMR: PASS."""
    state, _ = run(trade("red white blue"), {"1": "ACT YELLOW DISCS"}, {})
    assert state.trader("1").discs == 2 and state.actor == "2"


def test_turns_go_clockwise_skipping_eliminated_traders() -> None:
    """[R] "players take turns going clockwise"."""
    state = trade("red white blue green", to_play="3", traders={"4": trader(out=True)})
    state, _ = run(state, {"3": "ACT RED"}, {})
    assert state.actor == "1" and state.turn == 2


# --- actions -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "blacks", "discs", "supply"), [
    ("ACT RED", 1, 0, (9, 10)),
    ("ACT WHITE", 0, 1, (10, 9)),
    ("ACT YELLOW CUBES", 2, 0, (8, 10)),
    ("ACT YELLOW DISCS", 0, 2, (10, 8)),
])
def test_red_white_and_yellow_take_from_the_supply(text: str, blacks: int, discs: int,
                                                   supply: tuple[int, int]) -> None:
    """[C] red takes 1 black cube; white 1 disc; yellow 2 black cubes or 2 discs."""
    state, _ = run(trade("green green blue"), {"1": text}, {})
    assert (state.trader("1").blacks, state.trader("1").discs) == (blacks, discs)
    assert (state.supply_blacks, state.supply_discs) == supply


def test_an_action_pushes_its_cube_out_of_the_starting_row() -> None:
    """[R] "push one of your Action cubes forward so it is no longer in line with the others"."""
    state, texts = run(trade("green green blue"), {"1": "ACT WHITE"}, {})
    assert state.trader("1").row == ("red", "yellow", "green", "blue") and state.trader("1").pushed == ("white",)
    assert texts[0] == "Seat 1 pushes white to take 1 disc."


def test_only_a_cube_still_in_the_starting_row_can_act() -> None:
    """[R] "You can only perform an action using cubes you have not yet pushed forward"."""
    state = trade("green green blue", traders={"1": trader("red green blue", "white")})
    assert problems(state, "1", "ACT WHITE")[0] == (
        "ACT WHITE: your white cube is pushed forward already; your starting row holds red, green, blue")
    assert problems(state, "1", "ACT YELLOW CUBES")[0] == (
        "ACT YELLOW CUBES: your yellow cube was discarded; your starting row holds red, green, blue")


@pytest.mark.parametrize(("kind", "victim", "thief"), [("CUBES", (0, 2), (2, 0)), ("DISCS", (2, 0), (0, 2))])
def test_green_steals_up_to_two_cubes_or_two_discs_from_one_player(kind: str, victim: tuple[int, int],
                                                                  thief: tuple[int, int]) -> None:
    """[C] green steals up to 2 black cubes or up to 2 discs from one other player, not one of each."""
    state = trade("red red blue", traders={"2": trader(blacks=2, discs=2)})
    state, texts = run(state, {"1": f"ACT GREEN 2 {kind}"}, {})
    assert (state.trader("2").blacks, state.trader("2").discs) == victim
    assert (state.trader("1").blacks, state.trader("1").discs) == thief
    assert texts[-1] == f"Seat 1 steals 2 {'black cubes' if kind == 'CUBES' else 'discs'} from seat 2."


def test_green_steals_what_there_is_and_an_empty_hand_is_a_legal_target() -> None:
    """[R] "up to 2"; [D] an action whose effect is impossible may still be taken."""
    state = trade("red red blue", traders={"2": trader(blacks=1)})
    state, texts = run(state, {"1": "ACT GREEN 2 CUBES"}, {})
    assert state.trader("1").blacks == 1 and state.trader("2").blacks == 0
    state, texts = run(trade("red red blue"), {"1": "ACT GREEN 3 DISCS"}, {})
    assert texts[-1] == "Seat 1 steals no discs from seat 3." and state.actor == "2"


def test_green_names_another_living_trader() -> None:
    state = trade("red red blue green", traders={"4": trader(out=True)})
    assert problems(state, "1", "ACT GREEN 1 CUBES")[0] == "ACT GREEN 1 CUBES: you cannot rob yourself"
    assert problems(state, "1", "ACT GREEN 4 CUBES")[0] == "ACT GREEN 4 CUBES: seat 4 is out of the game"
    assert problems(state, "1", "ACT GREEN 7 CUBES")[0] == "ACT GREEN 7 CUBES: there is no seat 7 (seats 1, 2, 3, 4)"


def test_blue_swaps_a_black_cube_for_a_supply_disc_and_back() -> None:
    """[C] blue: swap one of your black cubes for a supply disc, or one of your discs for a black cube."""
    state = trade("red red green", traders={"1": trader(blacks=1, discs=1)})
    after, texts = run(state, {"1": "ACT BLUE CUBE"}, {})
    assert (after.trader("1").blacks, after.trader("1").discs, after.supply_blacks, after.supply_discs) == (0, 2, 10, 8)
    assert texts[-1] == "Seat 1 swaps a black cube for a disc."
    after, _ = run(state, {"1": "ACT BLUE DISC"}, {})
    assert (after.trader("1").blacks, after.trader("1").discs, after.supply_blacks, after.supply_discs) == (2, 0, 8, 10)


def test_blue_with_nothing_to_swap_may_still_be_taken_and_does_nothing() -> None:
    """[D] "An action whose effect is impossible may still be taken and does nothing, e.g. blue with
    nothing to swap. This keeps bluffing and refreshing possible."""
    state = trade("red red green")
    assert problems(state, "1", "ACT BLUE CUBE") == []
    after, texts = run(state, {"1": "ACT BLUE CUBE"}, {})
    assert texts[-1] == "Seat 1 swaps nothing: seat 1 has no black cube."
    assert after.trader("1").pushed == ("blue",) and (after.trader("1").blacks, after.trader("1").discs) == (0, 0)
    state = trade("red red green", traders={"1": trader(discs=1)}, supply=(0, 10))
    assert run(state, {"1": "ACT BLUE DISC"}, {})[1][-1] == "Seat 1 swaps nothing: the supply has no black cube."


def test_a_short_supply_gives_what_is_there() -> None:
    """[D] "If the supply is short, a player takes what is there"."""
    state, texts = run(trade("green green blue", supply=(1, 0)), {"1": "ACT YELLOW CUBES"}, {})
    assert state.trader("1").blacks == 1 and state.supply_blacks == 0
    assert texts[-1] == "Seat 1 takes 1 black cube (the supply held only 1 black cube)."
    state, texts = run(trade("green green blue", supply=(1, 0)), {"1": "ACT WHITE"}, {})
    assert state.trader("1").discs == 0 and texts[-1] == "Seat 1 takes no discs (the supply held only no discs)."


# --- accusations ------------------------------------------------------------------------------------


def test_a_right_accusation_puts_the_actor_out_and_voids_his_action() -> None:
    """[R] "If the accusation is correct: The Secret cube is revealed and the accused player is
    eliminated. The accused player's action or reaction is canceled and has no effect." [D] his
    black cubes and discs go back to the supply."""
    state = trade("yellow red blue white", traders={"1": trader(blacks=2, discs=1)}, supply=(8, 9))
    state, texts = run(state, {"1": "ACT YELLOW CUBES"}, {"3": "ACCUSE"})
    assert state.trader("1").out and (state.trader("1").blacks, state.trader("1").discs) == (0, 0)
    assert (state.supply_blacks, state.supply_discs) == (10, 10)
    assert texts[1:] == [
        "Seat 3 accuses seat 1 of using the secret colour in the action (yellow): right.",
        ("Seat 1 is out of the game (rightly accused); seat 1's secret colour was yellow. 2 black cubes and 1 disc "
        "go back to the supply."),
    ]
    assert state.actor == "2" and state.step == "act"


def test_accusations_come_before_reactions_so_a_caught_actor_is_never_reacted_to() -> None:
    """Plan 4.18: "Accusations first. If right, the actor is out and the turn ends"; a REACT not
    used stays sealed."""
    state, texts = run(trade("yellow red blue white"), {"1": "ACT YELLOW CUBES"},
                       {"2": "REACT", "4": "ACCUSE\nREACT"})
    assert state.trader("1").out and state.trader("2").row == COLOURS and state.trader("4").row == COLOURS
    _, plain = run(trade("yellow red blue white"), {"1": "ACT YELLOW CUBES"}, {"4": "ACCUSE"})
    assert texts == plain


def test_several_accusers_of_the_truth_pay_nothing() -> None:
    """[D] "Several players may accuse in the same window ... If the accusation is right, nobody pays"."""
    state, texts = run(trade("red yellow blue white"), {"1": "ACT RED"},
                       {"2": "ACCUSE PAY green", "3": "ACCUSE", "4": "ACCUSE"})
    assert state.trader("1").out and all(len(state.trader(s).cubes) == 5 for s in "234")
    assert texts[1].startswith("Seats 2, 3 and 4 accuse seat 1") and texts[1].endswith(": right.")


def test_a_wrong_accusation_costs_every_accuser_a_cube_and_the_action_stands() -> None:
    """[R] "The Trader who made the accusation must discard one of their Action cubes ... The Action
    ... takes effect as normal"; [D] if wrong, every accuser pays; PAY names the cube at once,
    without it the accuser owes a discard after the action."""
    state = trade("green blue white red")
    state, texts = run(state, {"1": "ACT RED"}, {"2": "ACCUSE PAY red", "4": "ACCUSE"})
    assert texts[1:4] == [
        ("Seats 2 and 4 accuse seat 1 of using the secret colour in the action (red): wrong, red is not seat 1's "
        "secret colour. The action stands."),
        "Seat 2 discards red to pay for the wrong accusation.",
        "Seat 4 owes a discard for the wrong accusation.",
    ]
    assert texts[4] == "Seat 1 takes 1 black cube."
    assert state.trader("2").discarded == ("red",) and state.trader("1").cleared == ("red",)
    assert state.step == DISCARD and GAME.phase(state).seats == ("4",)
    state, texts = run(state, {"4": "DISCARD green"})
    assert state.trader("4").discarded == ("green",) and state.actor == "2"


def test_a_wrong_accuser_never_pays_with_his_secret_colour() -> None:
    """[R] "They cannot discard the one of the same color as their Secret cube"."""
    state = answer(trade("green blue white red"), {"1": "ACT RED"}).state
    assert problems(state, "2", "ACCUSE PAY blue")[0] == "ACCUSE PAY BLUE: you may not pay with your secret colour"
    assert problems(state, "2", "ACCUSE PAY red") == []
    state = answer(trade("green blue white red", traders={"2": trader("white green", "blue")}), {"1": "ACT RED"}).state
    assert problems(state, "2", "ACCUSE PAY red")[0] == "ACCUSE PAY RED: you have no red cube to pay with"


def test_a_discard_may_take_a_pushed_or_an_unpushed_cube() -> None:
    """[D] "A discard may take a pushed or an unpushed cube ("in front of them" [R])"."""
    state = trade("green blue white red", traders={"3": trader("red white blue", "yellow green")})
    state, _ = run(state, {"1": "ACT RED"}, {"3": "ACCUSE PAY yellow"})
    assert state.trader("3").row == ("red", "white", "blue") and state.trader("3").pushed == ("green",)
    state = trade("green blue white red", traders={"3": trader("red white blue", "yellow green")})
    state, _ = run(state, {"1": "ACT RED"}, {"3": "ACCUSE"}, {"3": "DISCARD red"})
    assert state.trader("3").row == ("white", "blue")


def test_a_wrong_accuser_left_with_his_secret_colour_alone_is_out() -> None:
    """[R] a player is eliminated "If their only remaining cube matches their Secret color"."""
    state = trade("green blue white red", traders={"2": trader("blue yellow", blacks=1)}, supply=(9, 10))
    state, texts = run(state, {"1": "ACT WHITE"}, {"2": "ACCUSE PAY yellow"})
    assert state.trader("2").out and state.supply_blacks == 10
    assert "Seat 2 is out of the game (the only action cube left is the secret colour); seat 2's secret colour " \
           "was blue. 1 black cube go back to the supply." in texts
    assert state.actor == "3"


# --- reactions ---------------------------------------------------------------------------------------


def _example_18a(lucy_reacts: bool) -> tuple[object, list[str]]:
    """Example 18A with John (seat 1) to play; Paul (2) is on his left; Georgette (3) has lost her
    white cube; Ringo (4) has white as his secret; Lucy (5)."""
    state = trade("green red blue white red", traders={"3": trader("red yellow green blue")})
    state, texts = run(state, {"1": "ACT YELLOW CUBES"})
    window = GAME.phase(state)
    assert window.name == "window" and window.seats == ("2", "3", "4", "5")
    assert problems(state, "3", "REACT")[0] == (
        "REACT: cancelling yellow takes your white cube, which was discarded; send ACCUSE or PASS")
    # Nobody accuses; Paul prefers to keep his white cube; Ringo reacts although white is his secret.
    state, more = run(state, {"2": "PASS", "4": "REACT", **({"5": "REACT"} if lucy_reacts else {})})
    texts += more
    assert state.step == REACTOR_WINDOW and state.reactor == "4" and state.trader("4").pushed == ("white",)
    assert GAME.phase(state).seats == ("1", "2", "3", "5")  # every living seat but the reactor, the actor too
    # Georgette accuses Ringo, rightly: he is out and his reaction has no effect.
    state, more = run(state, {"3": "ACCUSE"})
    return state, texts + more


def test_example_18a_a_reactor_caught_is_out_and_the_next_react_clockwise_still_applies() -> None:
    """[R] Example 18A: "Ringo reveals his Secret cube since the accusation was correct and he is
    eliminated. The reaction does NOT take effect, so original action is still valid, but Lucy still
    has the opportunity to react if she wishes"; plan 4.18 step 3."""
    state, texts = _example_18a(lucy_reacts=True)
    assert state.trader("4").out and texts[-4:] == [
        "Seat 3 accuses seat 4 of using the secret colour in the reaction (white): right.",
        "Seat 4 is out of the game (rightly accused); seat 4's secret colour was white.",
        "Seat 4's reaction has no effect.",
        "Seat 5 reacts with white to cancel seat 1's yellow.",
    ]
    assert state.step == REACTOR_WINDOW and state.reactor == "5"
    state, texts = run(state, {})  # nobody accuses Lucy: the yellow is cancelled
    assert texts == ["Seat 1's yellow is cancelled by seat 5's white."]
    assert state.trader("1").blacks == 0 and state.supply_blacks == 10 and state.actor == "2"


def test_example_18a_without_lucy_the_action_stands() -> None:
    """[R] Example 18A: "the original action is still valid"."""
    state, texts = _example_18a(lucy_reacts=False)
    assert texts[-2:] == ["Nobody cancels seat 1's yellow.", "Seat 1 takes 2 black cubes."]
    assert state.trader("1").blacks == 2 and state.actor == "2"


def test_reactions_are_taken_clockwise_from_the_actor_and_the_others_keep_their_cubes() -> None:
    """[R] "starting with the player on the left and going clockwise"; plan 4.18: "The first seat
    still holding the cancelling cube unpushed reacts; the others keep their cubes"."""
    state, texts = run(trade("red red red red", to_play="3"), {"3": "ACT GREEN 1 DISCS"},
                       {"1": "REACT", "2": "REACT", "4": "REACT"})
    assert state.reactor == "4" and texts[-1] == "Seat 4 reacts with blue to cancel seat 3's green."
    assert state.trader("1").row == COLOURS and state.trader("2").row == COLOURS
    state, texts = run(state, {})
    assert texts == ["Seat 3's green is cancelled by seat 4's blue."]


@pytest.mark.parametrize(("action", "cancel"), [("ACT YELLOW DISCS", "white"), ("ACT GREEN 2 CUBES", "blue"),
                                                ("ACT BLUE CUBE", "yellow")])
def test_white_cancels_yellow_blue_cancels_green_yellow_cancels_blue(action: str, cancel: str) -> None:
    """[C] reactions: white cancels yellow, blue cancels green, yellow cancels blue."""
    state, _texts = run(trade("red red red", traders={"1": trader(blacks=1)}), {"1": action}, {"2": "REACT"})
    assert state.trader("2").pushed == (cancel,) and state.reactor == "2"


@pytest.mark.parametrize("action", ["ACT RED", "ACT WHITE"])
def test_red_and_white_cannot_be_cancelled(action: str) -> None:
    """[R] "the red and white actions cannot be canceled"."""
    state = answer(trade("green green green"), {"1": action}).state
    colour = action.split()[1].lower()
    assert problems(state, "2", "REACT")[0] == f"REACT: a {colour} action cannot be cancelled; send ACCUSE or PASS"
    assert problems(state, "2", "ACCUSE") == []


def test_a_reaction_needs_the_cancelling_cube_in_the_starting_row() -> None:
    """[R] "If a player has already advanced the Action cube or no longer has it, they cannot cancel"."""
    state = answer(trade("green green green", traders={"2": trader("red yellow green blue", "white")}),
                   {"1": "ACT YELLOW CUBES"}).state
    assert problems(state, "2", "REACT")[0] == (
        "REACT: cancelling yellow takes your white cube, which is pushed forward already; send ACCUSE or PASS")


def test_a_react_is_skipped_when_its_cube_went_to_pay_for_a_wrong_accusation() -> None:
    """Plan 4.18: REACT is conditional, taken by "the first seat still holding the cancelling cube"."""
    state, _texts = run(trade("red green green blue"), {"1": "ACT YELLOW CUBES"},
                       {"2": "ACCUSE PAY white\nREACT", "3": "REACT"})
    assert state.trader("2").discarded == ("white",) and state.reactor == "3"


def test_a_reaction_gets_a_window_and_a_wrong_accusation_there_costs_the_accuser_and_cancels_the_action() -> None:
    """Plan 4.18 step 3: "Otherwise the action is cancelled"; the actor may accuse the reactor."""
    state, texts = run(trade("red green yellow", traders={"1": trader(blacks=2)}), {"1": "ACT YELLOW CUBES"},
                       {"2": "REACT"}, {"1": "ACCUSE", "3": "ACCUSE PAY red"})
    assert texts[-4:] == [
        ("Seats 1 and 3 accuse seat 2 of using the secret colour in the reaction (white): wrong, white is not seat "
        "2's secret colour. The reaction stands."),
        "Seat 1 owes a discard for the wrong accusation.",
        "Seat 3 discards red to pay for the wrong accusation.",
        "Seat 1's yellow is cancelled by seat 2's white.",
    ]
    assert state.trader("1").blacks == 2 and state.step == DISCARD and GAME.phase(state).seats == ("1",)
    assert state.trader("2").cleared == ("white",)


def test_refresh_after_a_reaction_that_empties_the_starting_row() -> None:
    """[R] "If, after performing an action or a reaction, you no longer have any Action cubes in your
    starting row, take them all back"."""
    state = trade("red green yellow", traders={"2": trader("white", "red yellow green blue")})
    state, texts = run(state, {"1": "ACT YELLOW CUBES"}, {"2": "REACT"})
    assert state.trader("2").row == COLOURS and "Seat 2's starting row is empty: all of seat 2's action cubes " \
                                                   "come back to it." in texts


def test_refresh_after_an_action_with_the_last_cube() -> None:
    state = trade("red green yellow", traders={"1": trader("white", "red yellow green blue")})
    state, _texts = run(state, {"1": "ACT WHITE"})
    assert state.trader("1").row == COLOURS and state.step == WINDOW


def test_refresh_at_the_start_of_a_turn_after_a_discard_emptied_the_row() -> None:
    """[D] "A player whose starting row is empty at the start of his turn refreshes then. This can
    follow a discard."."""
    state = trade("blue green yellow", traders={"2": trader("white", "red green blue")})
    state, texts = run(state, {"1": "ACT RED"}, {"2": "ACCUSE PAY white"})
    assert state.actor == "2" and state.trader("2").row == ("red", "green", "blue")
    assert texts[-1] == "Seat 2's starting row is empty at the start of the turn: all of seat 2's action cubes come " \
                        "back to it."


# --- three of a kind --------------------------------------------------------------------------------


def test_three_of_a_kind_goes_back_and_the_chosen_player_discards() -> None:
    """[R] "If, at the end of the action, you have 3 black cubes or 3 discs ... immediately return
    them to the supply and choose another player. The chosen player must discard one Action cube"."""
    state = trade("green blue red", traders={"1": trader(blacks=2)}, supply=(8, 10))
    state, texts = run(state, {"1": "ACT RED"}, {})
    assert state.step == TARGET and GAME.phase(state).seats == ("1",)
    assert texts[-1] == "Seat 1 has 3 black cubes: 3 go back to the supply and seat 1 chooses a player to discard."
    assert state.trader("1").blacks == 0 and state.supply_blacks == 10
    assert problems(state, "1", "TARGET 1")[0] == "TARGET 1: you cannot name yourself"
    state, texts = run(state, {"1": "TARGET 3"})
    assert texts == ["Seat 1 chooses seat 3 to discard."] and GAME.phase(state).seats == ("3",)
    assert problems(state, "3", "DISCARD red")[0] == "DISCARD RED: you may not discard your secret colour"
    state, texts = run(state, {"3": "DISCARD blue"})
    assert texts == ["Seat 3 discards blue."] and state.actor == "2"


def test_a_target_named_in_advance_discards_without_asking_the_actor_again() -> None:
    """Plan 4.18 step 1: "optionally TARGET <seat> to name the victim in advance"."""
    state = trade("green blue red", traders={"1": trader(discs=1)})
    state, texts = run(state, {"1": "ACT YELLOW DISCS\nTARGET 2"}, {})
    assert texts[-1] == "Seat 1 named seat 2 in advance: seat 2 must discard."
    assert state.step == DISCARD and GAME.phase(state).seats == ("2",)


def test_a_target_named_in_advance_and_unused_is_never_told() -> None:
    """Plan 4.18: "ACCUSE, REACT, PAY and TARGET stay sealed until used"."""
    named, texts = run(trade("green blue red"), {"1": "ACT RED\nTARGET 2"}, {})
    unnamed, plain = run(trade("green blue red"), {"1": "ACT RED"}, {})
    assert texts == plain and named == unnamed and named.target == ""


def test_four_of_a_kind_returns_three_and_keeps_the_rest() -> None:
    """[D] "Reaching 4 cubes or discs (2 held and 2 taken): return 3, keep the rest; one victim per 3
    returned"."""
    state = trade("green blue red", traders={"1": trader(blacks=2)})
    state, texts = run(state, {"1": "ACT YELLOW CUBES\nTARGET 3"}, {})
    assert state.trader("1").blacks == 1 and state.supply_blacks == 9
    assert texts[-2] == "Seat 1 has 4 black cubes: 3 go back to the supply and seat 1 chooses a player to discard."
    assert state.owes("3") == 1


def test_a_target_out_by_the_end_of_the_action_is_replaced_by_the_target_step() -> None:
    """[D] a TARGET named in advance who is out when the three of a kind happens: the actor names
    another."""
    state = trade("green blue red white", traders={"1": trader(blacks=2), "2": trader("blue yellow")})
    state, _texts = run(state, {"1": "ACT RED\nTARGET 2"}, {"2": "ACCUSE PAY yellow"})
    assert state.trader("2").out and state.step == TARGET
    assert problems(state, "1", "TARGET 2")[0] == "TARGET 2: seat 2 is out of the game"


def test_a_wrong_accusers_discard_comes_before_the_victims_name_is_asked() -> None:
    """Plan 4.18 steps 4 and 5: discards, then the target, then the victim discards."""
    state = trade("green blue red white", traders={"1": trader(blacks=2)})
    state, _ = run(state, {"1": "ACT RED"}, {"3": "ACCUSE"})
    assert state.step == DISCARD and GAME.phase(state).seats == ("3",)
    state, _ = run(state, {"3": "DISCARD white"})
    assert state.step == TARGET
    state, _ = run(state, {"1": "TARGET 3"})
    assert GAME.phase(state).seats == ("3",)
    state, _ = run(state, {"3": "DISCARD blue"})
    assert state.trader("3").discarded == ("white", "blue") and state.actor == "2"


def test_a_victim_who_also_accused_wrongly_owes_both_discards_at_once() -> None:
    state = trade("green blue red white", traders={"1": trader(blacks=2)})
    state = answer(answer(state, {"1": "ACT RED\nTARGET 3"}).state, {"3": "ACCUSE"}).state
    assert state.owes("3") == 2 and GAME.phase(state).prompt.startswith("Discards owed: 2 discards by seat 3.")
    assert problems(state, "3", "DISCARD blue") == ["you owe 2 discards: send 2 DISCARD lines"]
    assert problems(state, "3", "DISCARD blue\nDISCARD blue") == ["each DISCARD names a different cube"]
    state, _texts = run(state, {"3": "DISCARD blue\nDISCARD RANDOM"}, rng=GameRng(3))
    assert len(state.trader("3").discarded) == 2 and "red" not in state.trader("3").discarded


# --- eliminations and the end -----------------------------------------------------------------------


def test_a_trader_with_two_cubes_who_owes_a_discard_loses_the_other_and_is_out() -> None:
    """[R] eliminated "If their only remaining cube matches their Secret color"; plan: "a seat with 2
    cubes left must discard its only non-secret cube" (a forced play, the count is public)."""
    state = trade("green blue red white", traders={"1": trader(blacks=2), "3": trader("red white", discs=2)})
    state = answer(state, {"1": "ACT RED\nTARGET 3"}).state
    state = answer(state, {}).state
    assert GAME.forced_orders(state, "3") is not None
    assert [str(o) for o in GAME.forced_orders(state, "3")] == ["DISCARD WHITE"]
    state, texts = run(state, {"3": "DISCARD white"})
    assert state.trader("3").out and texts[-1] == (
        "Seat 3 is out of the game (the only action cube left is the secret colour); seat 3's secret colour was "
        "red. 2 discs go back to the supply.")
    assert state.supply_discs == 10


def test_the_last_trader_left_wins() -> None:
    """[R] "The game ends when only one player is left. That player is the winner."; every secret is
    told at the end."""
    state = trade("green blue red", traders={"3": trader(out=True)})
    state, texts = run(state, {"1": "ACT GREEN 2 CUBES"}, {"2": "ACCUSE"})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("2",) and outcome.reason == "Seat 2 is the last trader left."
    assert texts[-1] == "The game is over. The secret colours were: seat 1 green, seat 2 blue, seat 3 red."
    assert GAME.scores(state) == {"1": 0, "2": 5, "3": 0}
    assert problems(state, "2", "ACT RED")[0] == "the game is over"
    with pytest.raises(GameError, match="the game is over"):
        GAME.resolve(state, {"2": orders_of("ACT RED")}, GameRng(0))


def test_traders_who_go_out_at_the_same_moment_as_the_last_ones_share_the_victory() -> None:
    """[D] (plan section 3: ties the book does not settle are shared wins): seat 2 reacted after
    accusing seat 1 wrongly without PAY; seats 1 and 3 accuse seat 2 wrongly; all three owe a discard
    with two cubes each and go out together."""
    tables = {s: trader("white yellow" if s == "2" else "white blue") for s in "123"}
    tables["1"] = trader("yellow", "blue")
    state = trade("blue yellow blue", traders=tables)
    state, _ = run(state, {"1": "ACT YELLOW CUBES"}, {"2": "ACCUSE\nREACT"}, {"1": "ACCUSE", "3": "ACCUSE"})
    assert state.step == DISCARD and set(GAME.phase(state).seats) == {"1", "2", "3"}
    assert all(GAME.forced_orders(state, s) is not None for s in "123")
    state, _texts = run(state, {s: "\n".join(str(o) for o in GAME.forced_orders(state, s)) for s in "123"})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1", "2", "3") and outcome.kind.value == "shared"
    assert outcome.reason == "Seats 1, 2 and 3 went out at the same moment, the last traders left: they share the " \
                             "victory."


# --- NMR defaults and forced plays -------------------------------------------------------------------


@pytest.mark.parametrize(("row", "blacks", "expected"), [
    ("red white yellow green blue", 0, "ACT RED"),
    ("white yellow green blue", 0, "ACT WHITE"),
    ("yellow green blue", 0, "ACT YELLOW CUBES"),
    ("green blue", 0, "ACT GREEN 2 CUBES"),
    ("blue", 1, "ACT BLUE CUBE"),
    ("blue", 0, "ACT BLUE DISC"),
])
def test_the_nmr_action_is_the_first_cube_in_the_order_red_white_yellow_green_blue(row: str, blacks: int,
                                                                                  expected: str) -> None:
    """Plan 4.18 NMR: "the first available cube in the order red, white, yellow, green, blue ...
    Arguments: CUBES; the green target is the next living seat; blue gives a cube if the seat has
    one, else a disc"."""
    state = trade("red red red", traders={"1": trader(row, blacks=blacks)})
    assert [str(o) for o in GAME.default_orders(state, "1")] == [expected]


def test_the_nmr_green_robs_the_next_living_seat() -> None:
    state = trade("red red red red", to_play="3", traders={"3": trader("green"), "4": trader(out=True)})
    assert [str(o) for o in GAME.default_orders(state, "3")] == ["ACT GREEN 1 CUBES"]


def test_the_nmr_in_a_window_is_pass_and_nmr_target_is_the_next_living_seat() -> None:
    """[C] window: PASS; [D] target: the next living seat clockwise."""
    state = answer(trade("red red red red", traders={"2": trader(out=True)}), {"1": "ACT RED"}).state
    assert all([str(o) for o in GAME.default_orders(state, s)] == ["PASS"] for s in ("3", "4"))
    state = trade("red blue red red", to_play="4", traders={"4": trader(blacks=2), "1": trader(out=True)})
    state = answer(answer(state, {"4": "ACT RED"}).state, {}).state
    assert state.step == TARGET and [str(o) for o in GAME.default_orders(state, "4")] == ["TARGET 2"]


def test_the_nmr_discard_is_drawn_at_random_among_the_cubes_that_are_not_the_secret_colour() -> None:
    """[D] "Discard: a random legal cube from the game RNG. A fixed order would reveal the secret
    whenever it skips that colour." The draw is sealed: its place in the list would tell it too."""
    state = trade("green blue red", traders={"1": trader(blacks=2), "3": trader("red white blue")})
    state = answer(answer(state, {"1": "ACT RED\nTARGET 3"}).state, {}).state
    assert [str(o) for o in GAME.default_orders(state, "3")] == ["DISCARD RANDOM"]
    seen = set()
    for seed in range(30):
        rng = GameRng(seed)
        after = answer(state, {}, rng).state
        seen |= set(after.trader("3").discarded) - {"yellow", "green"}
        assert rng.draws == [] and len(rng.sealed_draws) == 1
    assert seen == {"white", "blue"}


def test_windows_are_never_forced() -> None:
    """Plan 4.18: "Windows are never forced, since ACCUSE is always possible"."""
    state = answer(trade("red red red", traders={"2": trader("red white"), "3": trader("red blue", "yellow")}),
                   {"1": "ACT YELLOW CUBES"}).state
    assert GAME.forced_orders(state, "2") is None and GAME.forced_orders(state, "3") is None


def test_a_single_red_or_white_cube_in_the_row_is_played_and_nothing_else_is() -> None:
    state = trade("red red red", traders={"1": trader("white", "red yellow green blue")})
    assert [str(o) for o in GAME.forced_orders(state, "1")] == ["ACT WHITE"]
    assert GAME.forced_orders(trade("red red red", traders={"1": trader("yellow", "red")}), "1") is None
    assert GAME.forced_orders(trade("red red red", traders={"1": trader("red white")}), "1") is None


def test_the_only_other_trader_left_is_the_victim() -> None:
    state = trade("red blue green", traders={"1": trader(blacks=2), "3": trader(out=True)})
    state = answer(answer(state, {"1": "ACT RED"}).state, {}).state
    assert [str(o) for o in GAME.forced_orders(state, "1")] == ["TARGET 2"]


def test_a_discard_with_a_choice_is_not_forced() -> None:
    state = trade("green blue red", traders={"1": trader(blacks=2), "3": trader("red white blue")})
    state = answer(answer(state, {"1": "ACT RED\nTARGET 3"}).state, {}).state
    assert GAME.forced_orders(state, "3") is None


def test_sample_orders_make_every_kind_of_legal_play() -> None:
    """The robots (and the conformance test) play ACT of every colour, TARGET, PASS, ACCUSE with and
    without PAY, REACT, DISCARD of a colour and RANDOM."""
    rng = GameRng(1)
    seen: set[str] = set()
    act = trade("red red red")
    window = answer(act, {"1": "ACT YELLOW CUBES"}).state
    discard = answer(answer(trade("green blue red", traders={"1": trader(blacks=2)}), {"1": "ACT RED\nTARGET 3"}
                            ).state, {}).state
    for state, seat in ((act, "1"), (window, "2"), (discard, "3")):
        for _ in range(300):
            orders = GAME.sample_orders(state, seat, rng)
            assert GAME.validate(state, seat, orders) == []
            seen |= {" ".join(str(o).split()[:2]) if str(o).startswith(("ACT", "DISCARD")) else str(o).split()[0] +
                     (" PAY" if "PAY" in str(o) else "") for o in orders}
    assert {"ACT RED", "ACT WHITE", "ACT YELLOW", "ACT GREEN", "ACT BLUE", "TARGET", "PASS", "ACCUSE",
            "ACCUSE PAY", "REACT", "DISCARD RANDOM"} <= seen
    assert any(s.startswith("DISCARD") and s != "DISCARD RANDOM" for s in seen)


# --- validation -------------------------------------------------------------------------------------


def test_each_step_takes_its_own_orders_and_says_what_it_wants() -> None:
    state = trade("red red red")
    assert problems(state, "1", "PASS")[0] == (
        "PASS: not now; it is your turn to act: ACT RED, ACT WHITE, ACT YELLOW CUBES|DISCS, ACT GREEN <seat> "
        "CUBES|DISCS or ACT BLUE CUBE|DISC, and perhaps TARGET <seat>")
    assert problems(state, "1", "TARGET 2") == ["a turn is one ACT line (e.g. ACT RED), with at most one TARGET line"]
    assert problems(state, "1", "ACT RED\nACT WHITE") == [
        "a turn is one ACT line (e.g. ACT RED), with at most one TARGET line"]
    assert problems(state, "2", "ACT RED") == ["it is not your turn: waiting for seat 1"]
    window = answer(state, {"1": "ACT YELLOW CUBES"}).state
    assert problems(window, "2", "PASS\nACCUSE") == ["PASS goes alone: to accuse or react, leave PASS out"]
    assert problems(window, "2", "ACCUSE\nACCUSE") == ["send each of PASS, ACCUSE and REACT at most once"]
    assert problems(window, "2", "ACCUSE\nREACT") == []
    reactor = answer(window, {"2": "REACT"}).state
    assert problems(reactor, "3", "REACT")[0] == (
        "REACT: not now; answer seat 2's reaction with PASS or ACCUSE [PAY <colour>]")


def test_the_lines_of_a_submission_go_together() -> None:
    """A refused line refuses the whole submission: a lost ACCUSE or TARGET would change its meaning."""
    window = answer(trade("red blue red"), {"1": "ACT YELLOW CUBES"}).state
    found = GAME.validate(window, "2", orders_of("ACCUSE PAY blue\nREACT"))
    assert [(p.index, p.message) for p in found] == [
        (0, "ACCUSE PAY BLUE: you may not pay with your secret colour"),
        (None, "these orders go together, so none is stored: send them again with the refused line corrected")]


def test_resolve_refuses_a_refused_submission_and_reads_an_empty_entry_as_the_nmr_default() -> None:
    state = trade("red red red")
    with pytest.raises(IllegalOrder, match="seat 1: ACT GREEN 1 CUBES: you cannot rob yourself"):
        GAME.resolve(state, {"1": orders_of("ACT GREEN 1 CUBES")}, GameRng(0))
    assert GAME.resolve(state, {"1": []}, GameRng(0)).state.trader("1").pushed == ("red",)


def test_the_report_names_the_step_and_the_window_prompts_say_what_each_answer_does() -> None:
    window = GAME.phase(answer(trade("red red red"), {"1": "ACT GREEN 3 DISCS"}).state)
    assert window.prompt == (
        "Seat 1 pushed green to steal up to 2 discs from seat 3. Answer ACCUSE if green is seat 1's secret colour "
        "(add PAY <colour> to name your discard if wrong), REACT to cancel it with your blue cube (taken clockwise "
        "from seat 1, if it still stands then), or PASS. No answer is PASS.")
    red = GAME.phase(answer(trade("red red red"), {"1": "ACT RED"}).state)
    assert "(a red action cannot be cancelled), or PASS" in red.prompt
