"""Worked examples for every rule of Johnny and the Toe-Sap Fungus."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from pbem.core import Game, GameError, GameRng, OrderProblem
from pbem.games import find_game
from pbem.games.toe_sap_fungus import board, scoring
from pbem.games.toe_sap_fungus.orders import MoveOrder, OfferOrder, RankOrder, ShellOrder, ValueOrder
from pbem.games.toe_sap_fungus.rules import ToeSapFungus
from pbem.games.toe_sap_fungus.state import COLOURS, FINAL, ORDER, OVER, PLAY, VALUE, ToeSapState

GAME = ToeSapFungus()
RNG = GameRng(0)


def beach(
    players: int = 4,
    *,
    pieces: Mapping[str, str] | None = None,
    shells: Iterable[str] | None = None,
    cownivores: tuple[str, ...] | None = None,
    sap: Mapping[str, str] | None = None,
    seats: Mapping[str, Mapping[str, Any]] | None = None,
    to_move: str = "1",
    stage: str = PLAY,
    start: str = "1",
    **extra: Any,
) -> ToeSapState:
    """A position built from the starting one: override pieces, shells (None keeps the
    14 of the set-up, give () for none), Cownivores, toe-sap, per-seat fields."""
    state = GAME.setup(GAME.seat_names(players), {"start": start}, GameRng(0))
    for seat, square in (pieces or {}).items():
        state = state.with_player(replace(state.player(seat), square=square))
    for seat, fields in (seats or {}).items():
        fields = dict(fields)
        if "collected" in fields and isinstance(fields["collected"], Mapping):
            fields["collected"] = tuple(fields["collected"].get(c, 0) for c in COLOURS)
        state = state.with_player(replace(state.player(seat), **fields))
    return replace(
        state,
        shells=frozenset(state.shells if shells is None else shells),
        cownivores=cownivores or state.cownivores,
        sap=frozenset((sap or {}).items()),
        to_move=to_move,
        stage=stage,
        **extra,
    )


def play(state: ToeSapState, *orders: Any) -> tuple[ToeSapState, list[str]]:
    """Validate (must be clean) and resolve one turn of the seat to move."""
    seat = state.to_move
    assert seat is not None
    assert GAME.validate(state, seat, list(orders)) == []
    resolution = GAME.resolve(state, {seat: list(orders)}, RNG)
    return resolution.state, [e.text for e in resolution.events]


def problems(state: ToeSapState, *orders: Any, seat: str | None = None) -> list[OrderProblem]:
    return GAME.validate(state, seat or state.to_move or "", list(orders))


# ------------------------------------------------------------------- set up


def test_registry_finds_the_game() -> None:
    assert isinstance(find_game("toe-sap-fungus"), ToeSapFungus)
    assert isinstance(GAME, Game)


@pytest.mark.parametrize("count", [1, 5])
def test_seat_names_refuse_bad_player_counts(count: int) -> None:
    with pytest.raises(GameError):
        GAME.seat_names(count)


def test_setup_four_players_follows_the_diagram() -> None:
    state = GAME.setup(GAME.seat_names(4), {}, GameRng(1))
    assert [(p.seat, p.square, p.colours) for p in state.players] == [
        ("1", "e8", ("blue",)),
        ("2", "h4", ("green",)),
        ("3", "d1", ("orange",)),
        ("4", "a5", ("white",)),
    ]
    assert state.shells == frozenset("a8 h8 b7 g7 c6 f6 e5 d4 c3 f3 b2 g2 a1 h1".split())
    assert state.cownivores == ("d5", "e4")
    assert all(p.cows == 6 and p.hand == (20,) and p.shells == 0 for p in state.players)
    assert state.to_move == "1" and state.turn_order == ("1", "2", "3", "4")
    assert GAME.phase(state).seats == ("1",)


def test_setup_three_players_leave_a5_and_white_unused() -> None:
    state = GAME.setup(GAME.seat_names(3), {}, GameRng(1))
    assert [p.square for p in state.players] == ["e8", "h4", "d1"]
    assert state.owner_of("white") is None


def test_setup_two_players_own_two_colours_of_forty_stones() -> None:
    state = GAME.setup(GAME.seat_names(2), {}, GameRng(1))
    one, two = state.players
    assert (one.square, one.colours, one.hand) == ("e8", ("blue", "orange"), (20, 20))
    assert (two.square, two.colours, two.hand) == ("d1", ("green", "white"), (20, 20))
    assert one.stones_left == 40


def test_start_random_draws_the_first_seat_from_the_rng() -> None:
    firsts = set()
    for seed in range(20):
        state = GAME.setup(GAME.seat_names(4), {"start": "random"}, GameRng(seed))
        assert state.to_move == GameRng(seed).choice(("1", "2", "3", "4"))
        at = int(state.to_move or "0") - 1
        assert state.turn_order == tuple(str((at + k) % 4 + 1) for k in range(4))
        firsts.add(state.to_move)
    assert len(firsts) > 1


def test_start_option_names_a_seat_and_bad_options_are_refused() -> None:
    assert GAME.setup(GAME.seat_names(3), {"start": "2"}, GameRng(0)).turn_order == ("2", "3", "1")
    with pytest.raises(GameError):
        GAME.setup(GAME.seat_names(3), {"start": "5"}, GameRng(0))
    with pytest.raises(GameError):
        GAME.setup(GAME.seat_names(3), {"size": "9"}, GameRng(0))


# ------------------------------------------------------------------- moving


def test_move_drops_a_stone_on_the_square_left() -> None:
    state, events = play(beach(), MoveOrder("e8", "e7"))
    assert state.player("1").square == "e7"
    assert state.sap == frozenset({("e8", "blue")})
    assert state.player("1").hand == (19,)
    assert state.to_move == "2"
    assert events == ["Seat 1 moved e8-e7 and dropped a blue stone on e8."]


def test_move_must_start_on_own_square_and_go_one_step() -> None:
    state = beach()
    assert problems(state, MoveOrder("e8", "e6")) == [OrderProblem(0, "MOVE e8-e6: e6 is not next to e8")]
    assert problems(state, MoveOrder("d8", "d7")) == [OrderProblem(0, "MOVE d8-d7: your piece is on e8, not d8")]
    assert problems(state, MoveOrder("e8", "e8"))[0].index == 0


def test_moving_onto_own_toe_sap_is_refused() -> None:
    state = beach(sap={"e7": "blue"})
    assert problems(state, MoveOrder("e8", "e7")) == [OrderProblem(0, "MOVE e8-e7: e7 holds your own blue toe-sap")]


def test_moving_onto_a_cownivore_or_a_piece_is_refused() -> None:
    state = beach(pieces={"2": "d8"}, cownivores=("f7", "e4"))
    assert problems(state, MoveOrder("e8", "f7")) == [OrderProblem(0, "MOVE e8-f7: a Cownivore stands on f7")]
    assert problems(state, MoveOrder("e8", "d8")) == [OrderProblem(0, "MOVE e8-d8: seat 2's piece stands on d8")]


def test_moving_onto_a_shell_collects_it() -> None:
    state, events = play(beach(pieces={"1": "b8"}), MoveOrder("b8", "a8"))
    assert state.player("1").shells == 1
    assert "a8" not in state.shells
    assert events == ["Seat 1 moved b8-a8, collected the shell on a8 and dropped a blue stone on b8."]


def test_moving_onto_another_colour_collects_it() -> None:
    state, events = play(beach(sap={"e7": "green"}), MoveOrder("e8", "e7"))
    assert state.player("1").collected == (0, 1, 0, 0)
    assert state.sap == frozenset({("e8", "blue")})
    assert events == ["Seat 1 moved e8-e7, collected a green stone and dropped a blue stone on e8."]


def test_two_colour_player_drops_the_colour_with_more_stones_ties_first_colour() -> None:
    tie = beach(2)
    state, _ = play(tie, MoveOrder("e8", "e7"))
    assert state.sap == frozenset({("e8", "blue")})
    more_orange = beach(2, seats={"1": {"hand": (5, 9)}})
    state, _ = play(more_orange, MoveOrder("e8", "e7"))
    assert state.sap == frozenset({("e8", "orange")})
    assert state.player("1").hand == (5, 8)


def test_two_colour_player_may_name_the_colour() -> None:
    state, events = play(beach(2), MoveOrder("e8", "e7", "orange"))
    assert state.sap == frozenset({("e8", "orange")})
    assert state.player("1").hand == (20, 19)
    assert events == ["Seat 1 moved e8-e7 and dropped an orange stone on e8."]


def test_naming_a_colour_not_owned_or_used_up_is_refused() -> None:
    state = beach(2, seats={"1": {"hand": (0, 7)}})
    assert problems(state, MoveOrder("e8", "e7", "green")) == [
        OrderProblem(0, "MOVE e8-e7 GREEN: green is not your colour (yours: blue, orange)")
    ]
    assert problems(state, MoveOrder("e8", "e7", "blue")) == [
        OrderProblem(0, "MOVE e8-e7 BLUE: you have no blue stones left")
    ]


def test_two_colour_player_cannot_step_on_either_own_colour() -> None:
    state = beach(2, sap={"e7": "orange", "d7": "green"})
    assert problems(state, MoveOrder("e8", "e7"))[0].message == "MOVE e8-e7: e7 holds your own orange toe-sap"
    assert problems(state, MoveOrder("e8", "d7")) == []


def test_legal_moves_of_a_two_colour_player_list_each_colour() -> None:
    state = beach(2, pieces={"1": "e7"}, sap={"e6": "blue"})
    moves = list(board.move_turns(state, "1"))
    assert MoveOrder("e7", "d7", "blue") in moves and MoveOrder("e7", "d7", "orange") in moves
    assert not any(m.target == "e6" for m in moves)
    one_colour = beach(2, pieces={"1": "e7"}, seats={"1": {"hand": (0, 3)}})
    assert MoveOrder("e7", "d7") in list(board.move_turns(one_colour, "1"))


# -------------------------------------------------------------------- shells


def test_shell_jump_needs_a_shell() -> None:
    assert problems(beach(), ShellOrder("c2")) == [OrderProblem(0, "SHELL c2: you have no shell to trade")]


def test_shell_jump_lands_anywhere_free_without_dropping() -> None:
    state, events = play(beach(seats={"1": {"shells": 2}}), ShellOrder("c2"))
    assert state.player("1").square == "c2"
    assert state.player("1").shells == 1
    assert state.sap == frozenset()
    assert state.player("1").hand == (20,)
    assert len(state.shells) == 14
    assert events == ["Seat 1 traded a shell and sailed from e8 to c2."]


def test_shell_jump_onto_another_colour_collects_it() -> None:
    state, events = play(beach(seats={"1": {"shells": 1}}, sap={"c2": "orange"}), ShellOrder("c2"))
    assert state.player("1").collected == (0, 0, 1, 0)
    assert state.sap == frozenset()
    assert events == ["Seat 1 traded a shell and sailed from e8 to c2, collecting an orange stone."]


def test_shell_jump_refuses_piece_shell_cownivore_and_own_toe_sap() -> None:
    state = beach(seats={"1": {"shells": 1}}, sap={"c2": "blue"})
    assert problems(state, ShellOrder("h4"))[0].message == "SHELL h4: seat 2's piece stands on h4"
    assert problems(state, ShellOrder("e8"))[0].message == "SHELL e8: your piece is already there"
    assert problems(state, ShellOrder("b2"))[0].message == "SHELL b2: a shell lies on b2"
    assert problems(state, ShellOrder("d5"))[0].message == "SHELL d5: a Cownivore stands on d5"
    assert problems(state, ShellOrder("c2"))[0].message == "SHELL c2: c2 holds your own blue toe-sap"


# ---------------------------------------------------------------- Cownivores


def test_offer_one_leg_collects_every_colour_on_its_way_for_the_offerer() -> None:
    state = beach(pieces={"1": "a8"}, shells=(), sap={"d6": "blue", "d7": "green", "d8": "white"})
    state, events = play(state, OfferOrder(("d5", "d8")))
    assert state.cownivores == ("d8", "e4")
    assert state.player("1").cows == 5
    assert state.player("1").collected == (1, 1, 0, 1)
    assert state.sap == frozenset()
    assert events == [
        "Seat 1 offered a cow (5 cows left): the Cownivore went d5-d8 "
        "and collected 1 blue, 1 green and 1 white toe-sap for seat 1."
    ]


def test_offer_two_legs_passes_over_shells_pieces_and_the_other_cownivore() -> None:
    # leg 1 d5-d2 passes d4 (shell) and d3 (green toe-sap); leg 2 d2-h6 passes e3
    # (the other Cownivore), f4 (seat 2's piece), g5 (orange toe-sap) and lands on
    # h6 (white toe-sap).
    state = beach(
        pieces={"2": "f4"},
        shells=("d4",),
        cownivores=("d5", "e3"),
        sap={"d3": "green", "g5": "orange", "h6": "white", "c6": "blue"},
    )
    state, events = play(state, OfferOrder(("d5", "d2", "h6")))
    assert state.cownivores == ("h6", "e3")
    assert state.shells == frozenset({"d4"})  # the shell passed over stays
    assert state.player("2").square == "f4"
    assert state.player("1").collected == (0, 1, 1, 1)
    assert state.sap == frozenset({("c6", "blue")})
    assert "collected 1 green, 1 orange and 1 white toe-sap for seat 1" in events[0]


def test_offer_collects_its_own_colour_and_counts_nothing_twice() -> None:
    state = beach(pieces={"1": "a8"}, shells=(), sap={"d6": "blue"})
    state, events = play(state, OfferOrder(("d5", "d7", "d4")))
    assert state.player("1").collected == (1, 0, 0, 0)
    assert state.cownivores == ("d4", "e4")


def test_offer_second_leg_may_return_to_its_start() -> None:
    state, _ = play(beach(shells=()), OfferOrder(("d5", "d7", "d5")))
    assert state.cownivores == ("d5", "e4")


def test_offer_refuses_blocked_landings() -> None:
    state = beach(cownivores=("d5", "d2"), shells=("d8", "b7"), pieces={"2": "b5", "3": "g1"})
    cases = {
        ("d5", "d8"): "the Cownivore cannot stop on d8 (a shell is there)",
        ("d5", "d2"): "the Cownivore cannot stop on d2 (a Cownivore is there)",
        ("d5", "b5"): "the Cownivore cannot stop on b5 (seat 2's piece is there)",
        ("d5", "d7", "b7"): "the Cownivore cannot stop on b7 (a shell is there)",
        ("d5", "d8", "a5"): "the Cownivore cannot stop on d8 (a shell is there)",
        ("d5", "e7"): "d5 to e7 is not a straight line (queen move)",
        ("d5", "d5"): "the leg d5-d5 must cover at least one square",
        ("d6", "d7"): "there is no Cownivore on d6",
    }
    for squares, message in cases.items():
        order = OfferOrder(squares)
        assert problems(state, order) == [OrderProblem(0, f"{order}: {message}")]
    assert problems(state, OfferOrder(("d5", "d1"))) == []  # passes over the other Cownivore


def test_no_cows_no_offer() -> None:
    state = beach(seats={"1": {"cows": 0}})
    assert problems(state, OfferOrder(("d5", "d7"))) == [OrderProblem(0, "OFFER d5-d7: you have no cows left to offer")]
    assert list(board.offer_turns(state, "1")) == []


def test_last_cow_can_be_offered() -> None:
    state, events = play(beach(seats={"1": {"cows": 1}}, shells=()), OfferOrder(("d5", "d7")))
    assert state.player("1").cows == 0
    assert events == ["Seat 1 offered a cow (0 cows left): the Cownivore went d5-d7 and collected nothing."]


# ------------------------------------------------------- turns and passing


def boxed_in(**extra: Any) -> ToeSapState:
    """Seat 1 in the a8 corner fenced by its own toe-sap, no shells, no cows."""
    seats = {"1": {"cows": 0}, **extra.pop("seats", {})}
    sap = extra.pop("sap", {"a7": "blue", "b7": "blue", "b8": "blue"})
    return beach(
        pieces={"1": "a8"},
        shells=(),
        sap=sap,
        seats=seats,
        **extra,
    )


def test_a_seat_without_legal_turn_passes_automatically() -> None:
    state = boxed_in()
    assert GAME.forced_orders(state, "1") == []
    assert GAME.validate(state, "1", []) == []
    assert GAME.sample_orders(state, "1", GameRng(1)) == []
    state, events = play(state)
    assert events == ["Seat 1 has no legal turn and passes."]
    assert state.to_move == "2"
    assert state.player("1").hand == (20,)


def test_forced_orders_gives_the_only_legal_turn() -> None:
    state = boxed_in(sap={"a7": "blue", "b7": "green", "b8": "blue"})
    assert GAME.forced_orders(state, "1") == [MoveOrder("a8", "b7")]
    assert GAME.forced_orders(beach(), "1") is None
    assert GAME.forced_orders(beach(), "2") is None


def test_sending_nothing_is_refused_while_a_turn_exists_and_nmr_passes() -> None:
    state = beach()
    assert problems(state) == [OrderProblem(None, "a turn is exactly one order; send one (MOVE, SHELL or OFFER)")]
    assert GAME.default_orders(state, "1") == []
    resolution = GAME.resolve(state, {"1": []}, RNG)
    assert [e.text for e in resolution.events] == ["Seat 1 sent no order and passes."]
    assert resolution.state.sap == frozenset() and resolution.state.to_move == "2"


def test_a_turn_is_exactly_one_order() -> None:
    found = problems(beach(), MoveOrder("e8", "e7"), MoveOrder("e8", "d7"))
    assert found == [OrderProblem(None, "a turn is exactly one order; you sent 2: send one")]


def test_only_the_seat_to_move_may_send() -> None:
    assert problems(beach(), MoveOrder("h4", "h5"), seat="2") == [
        OrderProblem(None, "it is not your turn: waiting for seat 1")
    ]


def test_scoring_orders_are_refused_during_play() -> None:
    assert problems(beach(), ValueOrder("blue")) == [
        OrderProblem(0, "VALUE BLUE: the toe-sap values are chosen only after play ends")
    ]


def test_turns_go_round_in_the_turn_order() -> None:
    state = beach(3, start="3", to_move="3")
    state, _ = play(state, MoveOrder("d1", "d2"))
    assert state.to_move == "1"
    state, _ = play(state, MoveOrder("e8", "e7"))
    assert state.to_move == "2"


def test_play_ends_when_nobody_has_a_legal_turn() -> None:
    state = beach(
        2,
        pieces={"1": "a8", "2": "h1"},
        shells=(),
        sap={"a7": "blue", "b7": "orange", "b8": "blue", "g1": "green", "g2": "white", "h2": "green"},
        seats={"1": {"cows": 0}, "2": {"cows": 0}},
    )
    state, events = play(state)
    assert events[-2:] == [
        "No player has a legal turn: play ends.",
        "Seat 2 has the most cows (0) and chooses the colour worth 5 points.",
    ]
    assert state.stage == VALUE


# --------------------------------------------------------------- final round


def test_dropping_the_last_stone_starts_a_final_round_after_the_dropper() -> None:
    state = beach(3, to_move="2", seats={"2": {"hand": (1,)}})
    state, events = play(state, MoveOrder("h4", "h5"))
    assert events == [
        "Seat 2 moved h4-h5 and dropped a green stone on h4.",
        "Seat 2 dropped his last stone: every player gets one final turn, in the order 3, 1, 2.",
    ]
    assert (state.stage, state.to_move, state.final_queue) == (FINAL, "3", ("3", "1", "2"))
    assert GAME.phase(state).name == FINAL
    state, _ = play(state, MoveOrder("d1", "d2"))
    assert state.to_move == "1"
    state, _ = play(state, MoveOrder("e8", "e7"))
    assert state.to_move == "2"
    state, events = play(state, MoveOrder("h5", "h6"))
    assert events[0] == "Seat 2 moved h5-h6 and had no stone left to drop."
    assert events[1] == "The final round is over."
    assert state.stage == VALUE
    assert ("h5", "green") not in state.sap


def test_a_second_last_stone_in_the_final_round_changes_nothing() -> None:
    state = beach(2, seats={"1": {"hand": (0, 1)}, "2": {"hand": (1, 0)}})
    state, _ = play(state, MoveOrder("e8", "e7"))
    assert state.final_queue == ("2", "1")
    state, events = play(state, MoveOrder("d1", "d2"))
    assert len(events) == 1 and state.final_queue == ("1",)
    state, _ = play(state, MoveOrder("e7", "e6"))
    assert state.stage == VALUE


def test_two_colour_player_triggers_only_with_both_colours_empty() -> None:
    state = beach(2, seats={"1": {"hand": (1, 3)}})
    state, _ = play(state, MoveOrder("e8", "e7", "blue"))
    assert state.stage == PLAY


def test_final_round_passes_count_as_final_turns() -> None:
    state = boxed_in(stage=FINAL, final_queue=("1", "2"), to_move="1")
    state, events = play(state)
    assert events == ["Seat 1 has no legal turn and passes."]
    assert state.final_queue == ("2",) and state.to_move == "2"


# ------------------------------------------------------------------ scoring


def scoring_state(**extra: Any) -> ToeSapState:
    """Three players at the end of play, values not chosen yet."""
    seats = {
        "1": {"cows": 2, "shells": 1, "collected": {"blue": 2, "green": 4, "orange": 1}},
        "2": {"cows": 3, "shells": 0, "collected": {"orange": 5, "white": 0}},
        "3": {"cows": 3, "shells": 3, "collected": {"blue": 3, "green": 1}},
    }
    for seat, fields in extra.pop("seats", {}).items():
        seats[seat] = {**seats[seat], **fields}
    return beach(3, seats=seats, **extra)


def test_value_chooser_is_most_cows_then_most_collected() -> None:
    state = scoring_state()
    assert scoring.cow_leader(state) == "2"  # 3 cows each for 2 and 3; 2 has 5 stones, 3 has 4


def test_value_chooser_tie_goes_to_the_later_seat_in_turn_order() -> None:
    seats = {"3": {"collected": {"blue": 4, "green": 1}}}
    assert scoring.cow_leader(scoring_state(seats=seats)) == "3"
    # with seat 3 starting, seat 2 plays last and wins the tie
    rotated = scoring_state(seats=seats, start="3", to_move="3")
    assert rotated.turn_order == ("3", "1", "2")
    assert scoring.cow_leader(rotated) == "2"


def test_shell_chooser_is_most_shells_with_the_same_ties() -> None:
    assert scoring.shell_leader(scoring_state()) == "3"
    tied = scoring_state(seats={"1": {"shells": 3}})
    assert scoring.shell_leader(tied) == "1"  # 7 collected against 4


def test_value_and_order_phases_set_the_values_and_name_a_hero() -> None:
    state = scoring_state(stage=VALUE, to_move="2")
    assert GAME.phase(state).seats == ("2",)
    assert problems(state, MoveOrder("h4", "h5")) == [OrderProblem(0, "MOVE h4-h5: play is over; send VALUE")]
    assert problems(state, RankOrder(("blue", "green", "white")))[0].index == 0
    state, events = play(state, ValueOrder("orange"))
    assert events == [
        "Seat 2 made orange toe-sap worth 5 points.",
        "Seat 3 has the most shells (3) and orders the other colours (3, 2, 1 points).",
    ]
    assert (state.stage, state.to_move, state.value_colour) == (ORDER, "3", "orange")
    assert problems(state, ValueOrder("blue"))[0].index == 0
    assert problems(state, RankOrder(("orange", "blue", "green"))) == [
        OrderProblem(0, "ORDER ORANGE BLUE GREEN: name each of blue, green, white once")
    ]
    assert problems(state, RankOrder(("blue", "blue", "green")))[0].index == 0
    state, events = play(state, RankOrder(("blue", "green", "white")))
    assert state.stage == OVER
    # seat 1: 2 blue x3 + 4 green x2 + 1 orange x5 = 19; seat 2: 5 orange x5 = 25;
    # seat 3: 3 blue x3 + 1 green x2 = 11
    assert GAME.scores(state) == {"1": 19, "2": 25, "3": 11}
    assert events == [
        "Seat 3 ordered the colours: orange 5, blue 3, green 2, white 1.",
        "Seat 1 scores 19 points from 7 collected stones.",
        "Seat 2 scores 25 points from 5 collected stones.",
        "Seat 3 scores 11 points from 4 collected stones.",
        "Seat 2 is the toe-sap hero of the island!",
    ]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("2",)


def test_final_score_tie_goes_to_most_collected_then_later_seat() -> None:
    over = dict(stage=OVER, to_move=None, value_colour="blue", order_colours=("green", "orange", "white"))
    # seat 1: 5 blue = 25 (5 stones); seat 2: 5 green + 5 orange = 25 (10 stones)
    seats = {"1": {"collected": {"blue": 5}}, "2": {"collected": {"green": 5, "orange": 5}}, "3": {"collected": {}}}
    state = beach(3, seats=seats, **over)
    assert GAME.scores(state) == {"1": 25, "2": 25, "3": 0}
    assert scoring.winner(state) == "2"
    seats["1"] = {"collected": {"green": 5, "orange": 5}}
    state = beach(3, seats=seats, **over)
    assert scoring.winner(state) == "2"  # same points and stones: seat 2 is later than seat 1
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("2",)


def test_scores_show_collected_stones_until_the_values_are_set() -> None:
    state = scoring_state()
    assert GAME.scores(state) == {"1": 7, "2": 5, "3": 4}
    assert GAME.scores(replace(state, stage=ORDER, value_colour="green")) == {"1": 7, "2": 5, "3": 4}


def test_scoring_choices_are_never_forced() -> None:
    assert GAME.forced_orders(scoring_state(stage=VALUE, to_move="2"), "2") is None
    assert GAME.forced_orders(scoring_state(stage=ORDER, to_move="3", value_colour="blue"), "3") is None


def test_nmr_value_picks_the_choosers_most_collected_colour() -> None:
    state = scoring_state(stage=VALUE, to_move="1")
    assert GAME.default_orders(state, "1") == [ValueOrder("green")]
    tie = scoring_state(stage=VALUE, to_move="3", seats={"3": {"collected": {"green": 3, "white": 3}}})
    assert GAME.default_orders(tie, "3") == [ValueOrder("green")]
    nothing = scoring_state(stage=VALUE, to_move="3", seats={"3": {"collected": {}}})
    assert GAME.default_orders(nothing, "3") == [ValueOrder("blue")]


def test_nmr_order_maximises_the_choosers_points_ties_in_colour_order() -> None:
    state = scoring_state(stage=ORDER, to_move="1", value_colour="green")
    assert GAME.default_orders(state, "1") == [RankOrder(("blue", "orange", "white"))]
    tie = scoring_state(stage=ORDER, to_move="3", value_colour="blue", seats={"3": {"collected": {"white": 2, "orange": 2}}})
    assert GAME.default_orders(tie, "3") == [RankOrder(("orange", "white", "green"))]


def test_nmr_in_scoring_phases_is_applied_by_resolve() -> None:
    state = scoring_state(stage=VALUE, to_move="1")
    resolution = GAME.resolve(state, {"1": GAME.default_orders(state, "1")}, RNG)
    assert resolution.state.value_colour == "green"
    resolution = GAME.resolve(state, {"1": []}, RNG)
    assert resolution.state.value_colour == "green"


# ----------------------------------------------------------------- the rest


def test_view_is_public_and_complete() -> None:
    state = beach(2, sap={"e7": "green"}, seats={"1": {"shells": 2, "collected": {"white": 1}}})
    view = GAME.view(state, "2")
    assert view == {**GAME.view(state, None), "seats": view["seats"]}
    assert view["pieces"] == {"1": "e8", "2": "d1"}
    assert view["toe_sap"] == {"e7": "green"}
    assert view["cownivores"] == ["d5", "e4"]
    assert view["rows"][0] == {"rank": 8, "cells": ["S", ".", ".", ".", "1", ".", ".", "S"]}
    assert view["rows"][1]["cells"][4] == "G"
    one = view["seats"][0]
    assert (one["cows"], one["shells"], one["stones_left"], one["collected"]["white"]) == (6, 2, {"blue": 20, "orange": 20}, 1)
    assert view["stage"] == PLAY


def test_help_names_every_order_and_the_rulings() -> None:
    text = GAME.help()
    for word in ("MOVE e8-e7", "MOVE e8-e7 BLUE", "SHELL c2", "OFFER d5-d8-a5", "OFFER d5-d8", "VALUE", "ORDER", "start=random"):
        assert word in text
    assert "other Cownivore" in text and "leaves the game" in text


def test_submission_summary_names_the_stone() -> None:
    assert GAME.submission_summary(beach(2), "1", [MoveOrder("e8", "e7")]) == "You will drop a blue stone on e8."
    assert GAME.submission_summary(beach(2), "1", [ShellOrder("c2")]) == ""
