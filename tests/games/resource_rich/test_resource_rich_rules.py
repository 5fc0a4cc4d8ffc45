"""Worked examples for every rule of Resource Rich (rule book game 9 with example 9A,
CLARIFICATIONS, hosting plan section 4.9)."""

from __future__ import annotations

import pytest
from rich_builders import GAME, give, keep, rich, seed_rolling

from pbem.core import GameError, GameRng, IllegalOrder, OrderProblem
from pbem.core.bag import Bag
from pbem.games.resource_rich.scoring import gems, pearls, rock, score_piles, shells
from pbem.games.resource_rich.state import full_bag

# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealt"), [(2, 20), (3, 13), (4, 10)])
def test_the_deal_by_player_count(players: int, dealt: int) -> None:
    """[R] 20 cubes each with 2 players, 13 with 3 (the final cube revealed, not used), 10 with 4."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(players))
    assert [h.size for h in state.hands] == [dealt] * players
    assert len(state.unused) == (1 if players == 3 else 0)
    total = Bag.of(state.unused)
    for hand in state.hands:
        total = total + hand
    assert total == full_bag()  # [C] 40 cubes, 10 of each colour
    assert GAME.view(state, None)["unused"] == list(state.unused)


def test_the_deal_is_sealed_and_only_the_die_is_listed() -> None:
    """The draws that deal the hands are sealed: the reports list only the die."""
    rng = GameRng(7)
    GAME.setup(("1", "2", "3"), {}, rng)
    assert len(rng.sealed_draws) == 39
    assert rng.draws and all(n == 6 for _, n, _ in rng.draws)


@pytest.mark.parametrize(("options", "message"), [
    ({"side": "c"}, "option side=c: give a or b"),
    ({"directions": "cw,ccw"}, "option directions=cw,ccw: give 3 of cw, ccw"),
    ({"directions": "cw,up,cw"}, "option directions=cw,up,cw"),
    ({"cubes": "30"}, "unknown option")])
def test_bad_options_are_refused_by_name(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(0))


def test_the_first_die_is_rolled_at_setup_and_shown_in_the_prompt() -> None:
    """Plan 4.9: the die is rolled in the previous resolve and shown in the prompt."""
    state = GAME.setup(("1", "2"), {}, GameRng(seed_rolling(3)))
    assert state.roll == 3 and state.round == 1
    phase = GAME.phase(state)
    assert phase.name == "draft" and phase.seats == ("1", "2")
    assert phase.prompt == ("Round 1: the die shows 3: keep 2 cubes (KEEP c c); the other 18 cubes pass "
                            "clockwise.")


# --- keeping, giving, passing -------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "kept", "given"), [(1, 1, 0), (2, 1, 0), (3, 2, 0), (4, 2, 1), (5, 2, 1)])
def test_the_die_says_how_many_to_keep_and_whether_to_give(roll: int, kept: int, given: int) -> None:
    """[R] 1 or 2: keep 1; 3: keep 2; 4 or 5: keep 2 and give 1."""
    state = rich({"1": "blue blue yellow green red", "2": "red red red green green"}, roll=roll)
    for seat in ("1", "2"):
        orders = GAME.default_orders(state, seat)
        assert GAME.validate(state, seat, orders) == []
        assert len(orders[0].colours) == kept and len(orders) == 1 + given  # type: ignore[union-attr]
    after = GAME.resolve(state, {s: GAME.default_orders(state, s) for s in ("1", "2")}, GameRng(1)).state
    assert [p.size for p in after.kept] == [kept + given] * 2
    assert [h.size for h in after.hands] == [5 - kept - given] * 2


def test_example_9a_keep_two_give_one_against_the_direction_pass_the_rest_with_it() -> None:
    """[R] Example 9A: a 5, clockwise. Paul (seat 2) keeps 2 yellow, gives a red to John on his
    right (seat 1), receives a blue from Georgette on his left (seat 3), passes his remaining cubes
    to Georgette and receives John's."""
    state = rich({"1": "green green green green",
                  "2": "yellow yellow red blue",
                  "3": "blue blue red red"}, roll=5)
    orders = {"1": [keep("green green"), give("green")], "2": [keep("yellow yellow"), give("red")],
              "3": [keep("red red"), give("blue")]}
    result = GAME.resolve(state, orders, GameRng(seed_rolling(1)))  # the next round keeps 1: the hands stay
    after = result.state
    assert after.pile("2") == Bag.of(["yellow", "yellow", "blue"])  # his two, and Georgette's gift
    assert after.pile("1") == Bag.of(["green", "green", "red"])  # John keeps Paul's red
    assert after.pile("3") == Bag.of(["red", "red", "green"])
    assert after.hand("3") == Bag.of(["blue"])  # Paul's remaining cube went to Georgette
    assert after.hand("2") == Bag.of(["green"])  # and Paul received John's
    assert after.hand("1") == Bag.of(["blue"])  # John received Georgette's
    private = [e for e in result.events if e.seats is not None]
    assert {e.text for e in private if e.seats == ("1",)} >= {
        "Seat 2 gives you 1 red (volcanic rock); it goes to your kept pile.",
        "You keep 2 green and give 1 green to seat 3."}
    public = [e.text for e in result.events if e.seats is None]
    assert public[0] == ("Every player keeps 2 cubes, gives 1 to his neighbour against the direction of play "
                         "(counter-clockwise) and passes 1 cube clockwise.")


def test_counter_clockwise_passes_to_the_seat_before_and_gives_to_the_seat_after() -> None:
    state = rich({"1": "blue red", "2": "green red", "3": "yellow red"}, roll=1, discs=1)  # ccw
    assert state.direction == "ccw" and state.passes_to("1") == "3" and state.gives_to("1") == "2"
    orders = {"1": [keep("red")], "2": [keep("red")], "3": [keep("red")]}
    after = GAME.resolve(state, orders, GameRng(seed_rolling(1))).state
    assert after.hand("3") == Bag.of(["blue"]) and after.hand("1") == Bag.of(["green"])


def test_a_draft_must_keep_the_right_number_from_the_hand_and_give_what_is_left() -> None:
    state = rich({"1": "blue blue red", "2": "green green green"}, roll=4)
    assert GAME.validate(state, "1", [keep("blue blue"), give("red")]) == []
    assert GAME.validate(state, "1", [keep("blue"), give("red")]) == [
        OrderProblem(0, "KEEP blue: the die shows 4, so keep exactly 2 cubes"),
        OrderProblem(None, "the die shows 4: send one KEEP of 2 cubes and one GIVE of 1 cube, e.g. KEEP blue "
                           "green, then GIVE red; nothing is stored")]
    assert GAME.validate(state, "1", [keep("blue green"), give("red")])[0] == OrderProblem(
        0, "KEEP blue green: your hand holds only 2 blue, 1 red")
    assert GAME.validate(state, "1", [keep("blue red"), give("red")])[0] == OrderProblem(
        1, "GIVE red: no red cube is left in your hand after the cubes you keep")
    assert GAME.validate(state, "1", [keep("blue blue")])[-1].index is None  # the GIVE is missing
    assert GAME.validate(state, "1", [keep("blue blue"), keep("red"), give("red")])[0].index is None
    with pytest.raises(IllegalOrder, match="keep exactly 2"):
        GAME.resolve(state, {"1": [keep("blue"), give("red")], "2": [keep("green green"), give("green")]},
                     GameRng(0))


def test_a_give_on_a_roll_without_giving_is_refused_alone() -> None:
    state = rich({"1": "blue blue red", "2": "green green green"}, roll=3)
    problems = GAME.validate(state, "1", [keep("blue blue"), give("red")])
    assert problems == [OrderProblem(1, "GIVE red: the die shows 3; you give a cube only on a 4 or 5")]


# --- sixes and the end ---------------------------------------------------------------------------------


def _after_round(roll_faces: tuple[int, ...], **table: object) -> tuple[object, list[str]]:
    state = rich({"1": "blue blue blue blue blue blue", "2": "red red red red red red"}, roll=1, **table)
    rng = GameRng(seed_rolling(*roll_faces))
    result = GAME.resolve(state, {"1": [keep("blue")], "2": [keep("red")]}, rng)
    return result.state, [e.text for e in result.events if e.seats is None]


def test_a_six_covers_the_topmost_direction_space_and_turns_the_direction() -> None:
    """[R] "Result 6: Place a disc on the topmost uncovered Direction of Play space"; [D] the spaces
    are clockwise, counter-clockwise, clockwise."""
    state, texts = _after_round((6, 2))
    assert state.discs == 1 and state.direction == "ccw" and state.roll == 2 and state.round == 3  # type: ignore
    assert "The die shows 6: a disc covers direction space 1; the direction of play is now counter-clockwise." \
        in texts


def test_a_third_six_in_a_row_is_rolled_again() -> None:
    """[R] "If two discs in a row were just placed ... reroll"; [D] only when the two rolls before were 6."""
    state, _ = _after_round((6, 6, 3))
    assert state.discs == 2 and state.roll == 3  # type: ignore[attr-defined]
    state, texts = _after_round((6, 3), sixes=2)
    assert state.discs == 0 and state.roll == 3 and state.sixes == 0  # type: ignore[attr-defined]
    assert texts[-2] == "The die shows 6, a third 6 in a row: it is rolled again."


def test_the_third_disc_ends_the_game_and_the_piles_are_revealed() -> None:
    """[R] the game ends when the third Direction of Play space is covered."""
    state, texts = _after_round((6,), discs=2)
    assert state.finished and state.discs == 3  # type: ignore[attr-defined]
    assert all(h.size == 0 for h in state.hands)  # type: ignore[attr-defined]
    assert "The die shows 6: a disc covers the third direction space and the game ends." in texts
    assert texts[-2] == "Seat 1's kept pile: 1 blue = 1, 0 yellow = 0, 0 green = 0, 0 red = 0; 1 point."
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1",)


def test_a_roll_the_hands_cannot_serve_ends_the_game_at_once_and_the_hands_are_discarded() -> None:
    """[D] "not enough cubes": the game ends before anyone acts, the hands discarded unseen."""
    state = rich({"1": "blue blue blue", "2": "red red red"}, roll=1)
    result = GAME.resolve(state, {"1": [keep("blue")], "2": [keep("red")]}, GameRng(seed_rolling(4)))
    after = result.state
    assert after.finished and all(h.size == 0 for h in after.hands) and after.pile("1").size == 1
    assert "The die shows 4, which needs 3 cubes, but every hand holds only 2" in after.end_reason
    assert not any("blue" in e.text or "red" in e.text for e in result.events if e.kind == "end")


def test_hands_stay_equal_in_size() -> None:
    """Plan 4.9: "Hands always stay equal in size"."""
    state = GAME.setup(("1", "2", "3", "4"), {}, GameRng(11))
    rng = GameRng(3)
    while GAME.outcome(state) is None:
        state = GAME.resolve(state, {s: GAME.sample_orders(state, s, rng) for s in state.seats}, rng).state
        assert len({h.size for h in state.hands}) == 1


# --- scoring ---------------------------------------------------------------------------------------------


def test_side_a_scoring_tables() -> None:
    """[C] side A: pearls 0,1,3,6,10,15 for 0..5, 0 for 6, -5 for 7+; gems 1,3,6,10,15 then 12,9,6,3,0;
    rock 0 when odd, 2:5, 4:12, 6:20, 8:30, 10:40."""
    assert [pearls("a", n) for n in range(9)] == [0, 1, 3, 6, 10, 15, 0, -5, -5]
    assert [gems("a", n) for n in range(11)] == [0, 1, 3, 6, 10, 15, 12, 9, 6, 3, 0]
    assert [rock("a", n) for n in range(11)] == [0, 0, 5, 0, 12, 0, 20, 0, 30, 0, 40]
    assert shells("a", 4, most=False) == 4 and shells("a", 4, most=True) == 10


def test_side_b_scoring_tables() -> None:
    """[C] side B: pearls 0:0, 1:8, 2:5, 3:2, 4:0, 5+:-3; shells the most 3 each; gems 2 each; rock 0 below 5,
    5:15, 6:20, 7:25, 8+:30."""
    assert [pearls("b", n) for n in range(7)] == [0, 8, 5, 2, 0, -3, -3]
    assert [gems("b", n) for n in range(4)] == [0, 2, 4, 6]
    assert [rock("b", n) for n in range(11)] == [0, 0, 0, 0, 0, 15, 20, 25, 30, 30, 30]
    assert shells("b", 4, most=True) == 12 and shells("b", 4, most=False) == 4


def test_the_most_shells_needs_one_and_tied_players_all_get_the_bonus() -> None:
    """[C] "The most shells" needs at least one shell; tied players all get the bonus."""
    piles = [Bag.of(["yellow", "yellow"]), Bag.of(["yellow", "yellow"]), Bag.of(["yellow"]), Bag()]
    assert [p["yellow"] for p in score_piles("a", piles)] == [10, 10, 1, 0]
    assert [p["yellow"] for p in score_piles("b", piles)] == [6, 6, 1, 0]
    assert [p["yellow"] for p in score_piles("a", [Bag(), Bag.of(["blue"])])] == [0, 0]


def test_a_tie_on_points_shares_the_victory() -> None:
    """[R] "In the case of a tie, the tied players share the victory"."""
    state = rich({"1": "blue", "2": "blue"}, {"1": "green", "2": "green"}, roll=1)
    after = GAME.resolve(state, {"1": [keep("blue")], "2": [keep("blue")]}, GameRng(seed_rolling(3))).state
    outcome = GAME.outcome(after)
    assert after.finished and outcome is not None and outcome.winners == ("1", "2")
    assert GAME.scores(after) == {"1": 2, "2": 2}


# --- NMR and forced plays -----------------------------------------------------------------------------------


def test_the_nmr_keeps_and_gives_the_first_cubes_in_colour_order() -> None:
    """[C] NMR: keep and give the first cubes of the hand in colour order blue, yellow, green, red."""
    state = rich({"1": "red green yellow red", "2": "red red red red"}, roll=4)
    assert [str(o) for o in GAME.default_orders(state, "1")] == ["KEEP yellow green", "GIVE red"]
    assert [str(o) for o in GAME.default_orders(rich({"1": "red blue", "2": "red red"}, roll=2), "1")] == ["KEEP blue"]


def test_keep_is_forced_only_when_the_hand_size_equals_the_number_to_keep() -> None:
    """Plan 4.9 (X3): a forced KEEP only when the hand size equals the number to keep, which is public."""
    assert GAME.forced_orders(rich({"1": "red blue", "2": "green red"}, roll=3), "1") == [keep("blue red")]
    assert GAME.forced_orders(rich({"1": "red", "2": "green"}, roll=1), "2") == [keep("green")]
    assert GAME.forced_orders(rich({"1": "red blue green", "2": "red red red"}, roll=4), "1") is None


def test_a_one_colour_hand_is_never_played_for_its_holder() -> None:
    """Plan 4.9 (X3): a one-colour hand must NOT be played automatically: it would tell what it holds."""
    for roll, hand in ((1, "red red"), (3, "blue blue blue"), (4, "green green green"), (5, "red red red red")):
        state = rich({"1": hand, "2": " ".join(["blue"] * len(hand.split()))}, roll=roll)
        assert GAME.forced_orders(state, "1") is None, (roll, hand)


def test_sample_orders_are_legal_and_cover_every_colour() -> None:
    state = rich({"1": "blue yellow green red red", "2": "blue blue blue blue blue"}, roll=5)
    rng = GameRng(4)
    kept, given = set(), set()
    for _ in range(300):
        orders = GAME.sample_orders(state, "1", rng)
        assert GAME.validate(state, "1", orders) == []
        kept.update(orders[0].colours)  # type: ignore[union-attr]
        given.add(orders[1].colour)  # type: ignore[union-attr]
    assert kept == given == {"blue", "yellow", "green", "red"}
