"""All in a Day's Work rules, one worked example per rule (rule book chapter 19 and the card
designed in the hosting plan, section 4.19), with the book's examples 19A-19D on that card."""

from __future__ import annotations

import pytest
from days_work_builders import GAME, hand, place, play, table

from pbem.core import GameError, GameRng, IllegalOrder, OutcomeKind
from pbem.games.days_work.actions import hut_points
from pbem.games.days_work.card import CELLS
from pbem.games.days_work.orders import Place


def _problem(state, seat, text):  # type: ignore[no-untyped-def]
    problems = GAME.validate(state, seat, [place(text)])
    return problems[0].message if problems else None


# --- the book's examples on the designed card -----------------------------------


def test_example_19a_temple_step_4_costs_1_green_and_scores_10() -> None:
    """Example 19A: Lucy's cube is on the third space; she spends 1 green to reach the fourth and
    scores 10."""
    lucy = table({"1": "1 green, 1 red"}, temple=(3, 0), scores=(12, 0))
    after = play(lucy, "PLACE TEMPLE")
    assert after.temple == (4, 0) and after.scores == (22, 0)
    assert after.hand("1") == hand("1 red") and after.supply.count("green") == 10


def test_example_19b_the_top_build_space_is_free_and_b1_gives_a_red_back() -> None:
    """Example 19B: Michelle builds with the top action space (free) on the cell of row 1 and
    column b, paying 1 green (row) plus 1 yellow and 1 red (column), and takes 1 red back."""
    michelle = table({"2": "1 green, 1 yellow, 1 red"}, placed=1)
    after = play(michelle, "PLACE BUILD1 HUT b1")
    assert after.huts[[c.name for c in CELLS].index("b1")] == "2"
    assert after.hand("2") == hand("1 red")
    assert after.scores == (0, 0)  # a hut scores at night and at FEAST, not when built


def test_example_19c_build2_costs_a_yellow_and_the_second_market_space_scores_15() -> None:
    """Example 19C: Lucy pays 1 yellow for the second build space, then 2 red + 1 yellow for the
    MARKET, on its second space since she holds the first, and scores 15."""
    lucy = table({"1": "2 red, 2 yellow"}, shops={"MARKET": ("1",)}, scores=(15, 0))
    after = play(lucy, "PLACE BUILD2 SHOP MARKET")
    assert after.shops[1] == ("1", "1") and after.scores == (30, 0)
    assert after.hand("1").size == 0


def test_example_19d_both_players_score_4_for_their_huts() -> None:
    """Example 19D: Lucy's rightmost hut stands on a 2 and her others on 1s; every hut of Michelle
    is worth 1; both score 4 at night. This needs six cells worth 1 (the card's b3 is one)."""
    state = table(huts={"a2": "1", "b2": "1", "d2": "1", "a1": "2", "b1": "2", "c2": "2", "b3": "2"}, placed=5)
    assert hut_points(state, "1") == 4 and hut_points(state, "2") == 4
    after = play(state, "PLACE RED")
    assert after.scores == (4, 4) and after.round == 2
    assert sorted(c.value for c in CELLS) == [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3]


# --- the day ---------------------------------------------------------------------


def test_placements_alternate_first_second_and_the_first_player_changes_each_round() -> None:
    """[R] the players alternate placing their 3 discs; at night the discs come back and the second
    player becomes the first."""
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    order = []
    rng = GameRng(2)
    for _ in range(12):
        order.append(state.to_play)
        state = GAME.resolve(state, {state.to_play: GAME.default_orders(state, state.to_play)}, rng).state
    assert order == ["1", "2", "1", "2", "1", "2", "2", "1", "2", "1", "2", "1"]
    assert state.round == 3 and state.discs == ()


def test_the_first_player_starts_with_a_yellow_and_the_second_with_a_green() -> None:
    """[R] setup: the first player takes 1 yellow, the second 1 green; the box holds 10 of each."""
    state = GAME.setup(("1", "2"), {"start": "2"}, GameRng(1))
    assert state.to_play == "2" and state.hand("2") == hand("1 yellow") and state.hand("1") == hand("1 green")
    assert state.supply == hand("10 red, 9 yellow, 9 green, 10 blue")
    assert state.colour("1") == "white" and state.colour("2") == "black"


def test_a_space_holds_one_disc_a_round() -> None:
    """[R] "place one of your discs in an available Action space (no disc there currently)"."""
    state = play(table(), "PLACE RED")
    assert _problem(state, "2", "PLACE RED") == "PLACE RED: the RED space is taken this round (white's disc)"


def test_a_resource_space_takes_two_or_what_the_supply_has_left() -> None:
    """[R] take the resources shown; [D] a short supply gives what is left."""
    assert play(table(), "PLACE BLUE").hand("1") == hand("2 blue")
    short = play(table({"2": "9 blue"}), "PLACE BLUE")
    assert short.hand("1") == hand("1 blue") and short.supply.count("blue") == 0
    empty = table({"2": "10 blue"})
    assert _problem(empty, "1", "PLACE BLUE") is None  # [D] always legal
    assert play(empty, "PLACE BLUE").hand("1").size == 0


def test_the_temple_climbs_one_step_free_twice_then_paying() -> None:
    """[R] the first two steps are free, each later step costs its resource; points on arrival."""
    state = table()
    state = play(state, "PLACE TEMPLE")
    assert state.temple == (1, 0) and state.scores == (1, 0)
    step_2 = table(temple=(1, 0))
    assert play(step_2, "PLACE TEMPLE").scores == (3, 0)
    assert _problem(table(temple=(2, 0)), "1", "PLACE TEMPLE") == (
        "PLACE TEMPLE: temple step 3 costs 1 red; you have nothing")
    top = table({"1": "2 blue"}, temple=(6, 0))
    assert _problem(top, "1", "PLACE TEMPLE") == "PLACE TEMPLE: your cube stands on the top step of the temple"
    assert play(table({"1": "1 blue"}, temple=(5, 0)), "PLACE TEMPLE").scores == (21, 0)


def test_feast_scores_your_huts_and_nothing_without_huts() -> None:
    """[R] FEAST: score your huts now; [D] 0 without huts, always legal."""
    state = table(huts={"d1": "1", "c1": "1", "a2": "2"})
    assert play(state, "PLACE FEAST").scores == (5, 0)
    assert play(table(), "PLACE FEAST").scores == (0, 0)


def test_a_hut_costs_its_row_plus_its_column_and_the_bonus_comes_after_paying() -> None:
    """[R] pay the sum of the row's and the column's resources; take the bonus after paying."""
    # a1 costs 1 green + 1 yellow and gives 1 blue: the blue cannot pay for anything of this build
    after = play(table({"1": "1 green, 1 yellow"}), "PLACE BUILD1 HUT a1")
    assert after.hand("1") == hand("1 blue")
    assert _problem(table({"1": "1 blue, 1 yellow"}), "1", "PLACE BUILD1 HUT a3") is None  # row 3 blue + a yellow
    assert _problem(table({"1": "1 red, 1 blue"}), "1", "PLACE BUILD1 HUT d3") == (
        "PLACE BUILD1 HUT d3: it costs 1 red, 2 blue for the hut on d3; you have 1 red, 1 blue")


def test_a_build_space_is_paid_as_a_whole_with_its_building() -> None:
    """[D] "A build space needs a legal, affordable building, paid as a whole": the yellow of
    BUILD2/BUILD3 plus the building."""
    state = table({"1": "2 yellow"})
    assert _problem(state, "1", "PLACE BUILD2 HUT a2") is None
    assert _problem(state, "1", "PLACE BUILD3 HUT a2") == (
        "PLACE BUILD3 HUT a2: it costs 2 yellow for BUILD3 and 1 yellow for the hut on a2; you have 2 yellow")
    after = play(state, "PLACE BUILD2 HUT a2")
    assert after.hand("1").size == 0 and after.supply.count("yellow") == 10


def test_a_build_space_must_name_its_building_and_other_spaces_build_nothing() -> None:
    assert "say what you build" in _problem(table(), "1", "PLACE BUILD1")
    assert _problem(table(), "1", "PLACE RED HUT a2") == (
        "PLACE RED HUT a2: only BUILD1, BUILD2, BUILD3 build; send PLACE RED alone")


def test_a_cell_takes_one_hut_and_a_shop_two_spaces_left_to_right() -> None:
    """[R] an available space (no cube on it); the same player may take both spaces of a shop."""
    state = table({"1": "1 yellow, 2 blue"}, huts={"a2": "2"}, shops={"FISH": ("2",)})
    assert _problem(state, "1", "PLACE BUILD1 HUT a2") == "PLACE BUILD1 HUT a2: a hut stands on a2 (black's)"
    after = play(state, "PLACE BUILD1 SHOP FISH")
    assert after.shops[0] == ("2", "1") and after.scores == (8, 0)
    full = table({"1": "1 yellow, 1 blue"}, shops={"FISH": ("2", "2")})
    assert _problem(full, "1", "PLACE BUILD1 SHOP FISH") == "PLACE BUILD1 SHOP FISH: both FISH spaces are built"


def test_a_bonus_the_supply_no_longer_holds_is_lost() -> None:
    """[D] the bonus comes from the supply; an empty supply gives nothing."""
    state = table({"1": "1 green, 1 yellow", "2": "10 blue"})
    after = play(state, "PLACE BUILD1 HUT a1")
    assert after.hand("1").size == 0
    assert GAME.resolve(state, {"1": [place("PLACE BUILD1 HUT a1")]}, GameRng(1)).events[0].text.endswith(
        "(no blue is left in the supply for the bonus).")


def test_eight_buildings_at_most_and_the_game_ends_after_that_night() -> None:
    """[R] 8 building cubes each; "If at least one player has built 8 buildings the game ends"
    after the night, and the round is always completed."""
    seven = {name: "1" for name in ("a1", "b1", "c1", "d1", "a2", "b2", "c2")}
    state = table({"1": "1 red, 1 blue", "2": "2 yellow, 1 blue"}, huts=seven)
    assert state.buildings_left("1") == 1
    state = play(state, "PLACE BUILD1 HUT d2")
    assert state.buildings_left("1") == 0
    assert _problem(play(state, "PLACE RED"), "1", "PLACE BUILD2 HUT a3") == (
        "PLACE BUILD2 HUT a3: you have built all 8 of your buildings")
    state = play(state, "PLACE RED", "PLACE YELLOW", "PLACE BUILD2 HUT a3", "PLACE FEAST")
    assert GAME.outcome(state) is None and state.to_play == "2"  # black still places his third disc
    state = play(state, "PLACE GREEN")
    outcome = GAME.outcome(state)
    assert state.finished and outcome is not None and outcome.winners == ("1",)
    assert outcome.reason.startswith("White (seat 1) built all 8 buildings: the game ends after the night.")
    # white's huts are worth 1+1+2+3+1+1+1+2 = 12: the FEAST and the night; black's a3 is worth 2
    assert state.scores == (24, 2)


def test_the_night_scores_both_players_huts() -> None:
    """[R] PHASE 2: both players score their huts."""
    state = table(huts={"d3": "1", "c1": "2", "a2": "2"}, placed=5, scores=(10, 20))
    after = play(state, "PLACE RED")
    assert after.scores == (13, 23)


def test_the_higher_score_wins_and_a_tie_is_a_draw() -> None:
    """[R] "The player with the most points wins. In case of a tie, the game is a draw" (Outcome.draw)."""
    last = table(placed=5, round=20, scores=(40, 41))
    outcome = GAME.outcome(play(last, "PLACE RED"))
    assert outcome is not None and outcome.winners == ("2",)
    assert outcome.reason == ("Round 20 was the last one allowed (max_rounds=20): the game ends. Black (seat 2) "
                              "wins with 41 points to 40.")
    tied = GAME.outcome(play(table(placed=5, round=20, scores=(41, 41)), "PLACE RED"))
    assert tied is not None and tied.kind is OutcomeKind.DRAW and tied.winners == ()
    assert tied.reason.endswith("Both players have 41 points: the game is a draw.")


def test_max_rounds_caps_the_game() -> None:
    """[D] option max_rounds, default 20."""
    state = GAME.setup(("1", "2"), {"max_rounds": "1"}, GameRng(1))
    rng = GameRng(3)
    for _ in range(6):
        state = GAME.resolve(state, {state.to_play: GAME.default_orders(state, state.to_play)}, rng).state
    assert state.finished and state.round == 1
    assert GAME.setup(("1", "2"), {}, GameRng(1)).max_rounds == 20


def test_a_player_with_no_open_space_passes_his_disc() -> None:
    """[D] "A player with no legal space passes that disc": the service plays the pass."""
    taken = tuple((space, "2" if i % 2 else "1") for i, space in enumerate(("RED", "YELLOW", "GREEN", "BLUE",
                                                                                "FEAST")))
    state = table(discs=taken, placed=5, temple=(0, 6), first=0)
    assert state.to_play == "2"
    assert GAME.forced_orders(state, "2") == []
    assert GAME.default_orders(state, "2") == []
    after = GAME.resolve(state, {"2": []}, GameRng(1))
    assert after.events[0].text == "Black (seat 2) has no space open to a disc and passes."
    assert after.state.round == 2


def test_exactly_one_open_space_is_played_for_the_player() -> None:
    taken = tuple((space, "1") for space in ("RED", "YELLOW", "GREEN", "BLUE", "FEAST"))
    state = table(discs=taken, placed=5, temple=(0, 0), first=0)
    assert GAME.forced_orders(state, "2") == [Place("TEMPLE")]
    assert GAME.forced_orders(table(), "1") is None


def test_nmr_takes_the_first_free_resource_then_feast_temple_and_the_first_building() -> None:
    """Plan 4.19 NMR: the first free of RED, YELLOW, GREEN, BLUE; then FEAST; TEMPLE if legal; the
    first legal building on BUILD1, BUILD2, BUILD3 (cells a1..d3, then FISH, MARKET, JEWELS)."""
    assert GAME.default_orders(table(), "1") == [Place("RED")]
    three = tuple((space, "2") for space in ("RED", "YELLOW", "GREEN"))
    assert GAME.default_orders(table(discs=three, placed=3, first=1), "1") == [Place("BLUE")]
    four = (*three, ("BLUE", "2"))
    assert GAME.default_orders(table(discs=four, placed=4), "1") == [Place("FEAST")]
    five = (*four, ("FEAST", "2"))
    assert GAME.default_orders(table(discs=five, placed=5, first=1), "1") == [Place("TEMPLE")]
    no_temple = table({"1": "1 red, 1 yellow"}, discs=five, placed=5, first=1, temple=(6, 0))
    assert GAME.default_orders(no_temple, "1") == [Place("BUILD1", hut="a2")]
    shop_only = table({"1": "1 blue, 1 yellow"}, discs=five, placed=5, first=1, temple=(6, 0),
                      huts={"a2": "2", "a3": "2"})
    assert GAME.default_orders(shop_only, "1") == [Place("BUILD1", shop="FISH")]


@pytest.mark.parametrize(("options", "message"), [
    ({"max_rounds": "0"}, "option max_rounds=0: give a whole number from 1 to 100"),
    ({"max_rounds": "x"}, "option max_rounds=x: give a whole number from 1 to 100"),
    ({"start": "9"}, "option start=9"),
    ({"card": "b"}, "unknown option 'card'"),
])
def test_bad_options_are_refused_naming_the_option(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(1))


def test_a_turn_is_one_place_by_the_seat_to_play() -> None:
    state = table()
    assert GAME.validate(state, "2", [Place("RED")])[0].message == "it is not your turn: waiting for seat 1"
    assert "exactly one order" in GAME.validate(state, "1", [Place("RED"), Place("BLUE")])[0].message
    assert "you may pass only when no space is open" in GAME.validate(state, "1", [])[0].message
    with pytest.raises(IllegalOrder):
        GAME.resolve(state, {"1": [Place("BUILD1")]}, GameRng(1))


def test_the_check_reply_tells_the_hand_and_score_the_placement_leaves() -> None:
    """The check reply says what the placement leaves in hand and the score it reaches (1 point,
    not "1 points")."""
    assert GAME.submission_summary(table({"1": "1 yellow"}), "1", [Place("TEMPLE")]) == (
        "You will hold 1 yellow and have 1 point before the night.")
    assert GAME.submission_summary(table({"1": "1 yellow"}, temple=(1, 0), scores=(1, 0)), "1",
                                   [Place("TEMPLE")]) == "You will hold 1 yellow and have 4 points before the night."
    assert GAME.submission_summary(table(), "1", [Place("BUILD1")]) == ""
