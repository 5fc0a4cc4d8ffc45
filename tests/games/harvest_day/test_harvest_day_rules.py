"""Worked examples for every rule of Harvest Day (rule book game 5 with examples 5A-5C,
CLARIFICATIONS, hosting plan section 4.5)."""

from __future__ import annotations

import pytest
from harvest_builders import GAME, island

from pbem.core import GameError, GameRng, IllegalOrder, OrderProblem
from pbem.games.harvest_day.orders import Move, Reveal
from pbem.games.harvest_day.rules import legal_moves
from pbem.games.harvest_day.state import neighbours


def _reveal(state, one, two):  # type: ignore[no-untyped-def]
    return GAME.resolve(state, {"1": [Reveal(one)], "2": [Reveal(two)]}, GameRng(0))


def _move(state, seat, source, target):  # type: ignore[no-untyped-def]
    return GAME.resolve(state, {seat: [Move(source, target)]}, GameRng(0))


# --- setup and sides ------------------------------------------------------------------------


def test_two_farmers_with_ten_workers_each_on_an_empty_island() -> None:
    """[C] 10 workers each; [R] 2 players."""
    state = GAME.setup(("1", "2"), {}, GameRng(0))
    assert state.unplaced == (10, 10) and state.workers == ((0,) * 6, (0,) * 6) and state.side == "a"
    with pytest.raises(GameError, match="2 to 2 players"):
        GAME.seat_names(3)


def test_side_a_is_a_line_and_side_b_a_ring() -> None:
    """[C] side A: a line 0-1-2-3-4-5; side B: a ring (5 also next to 0)."""
    assert [neighbours("a", t) for t in range(6)] == [(1,), (0, 2), (1, 3), (2, 4), (3, 5), (4,)]
    assert [neighbours("b", t) for t in range(6)] == [(1, 5), (0, 2), (1, 3), (2, 4), (3, 5), (0, 4)]
    assert GAME.setup(("1", "2"), {"side": "b"}, GameRng(0)).side == "b"


@pytest.mark.parametrize(("options", "message"), [({"side": "c"}, "option side=c: give a or b"),
                                                  ({"workers": "8"}, "unknown option")])
def test_bad_options_are_refused_by_name(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(0))


# --- a round ------------------------------------------------------------------------------------


def test_the_reveal_is_owed_by_both_farmers_at_once() -> None:
    """[R] "each Farmer must reveal a number from 0 to 5" at the same time: one sealed phase."""
    phase = GAME.phase(island())
    assert phase.name == "reveal" and phase.seats == ("1", "2")
    assert GAME.validate(island(), "1", [Reveal(6)]) == [OrderProblem(0, "REVEAL 6: reveal a number from 0 to 5")]
    assert GAME.validate(island(), "1", [Move(0, 1)])[0].message.startswith("MOVE 0-1: this is the reveal")
    assert GAME.validate(island(), "1", [])[0].message == "send exactly one order: REVEAL n, e.g. REVEAL 3"


def test_example_5a_an_even_sum_places_a_second_worker_on_the_same_territory() -> None:
    """[R] Example 5A: John reveals 1, Paul 5; the sum 6 is even, so each adds a second worker."""
    result = _reveal(island(), 1, 5)
    state = result.state
    assert state.on("1", 1) == 2 and state.on("2", 5) == 2
    assert state.unplaced == (8, 8) and state.round == 2
    assert GAME.phase(state).name == "reveal"
    assert result.events[0].text == "Seat 1 reveals 1, seat 2 reveals 5: the sum 6 is even, so each places two " \
                                    "workers there."


def test_example_5b_an_odd_sum_makes_each_move_a_worker_lower_revealer_first() -> None:
    """[R] Example 5B: John reveals 2, Paul 3; the sum 5 is odd; John (lower) moves a worker from
    1 to 0, then Paul moves. (The book's Paul moves "from 5 to 3", which is no neighbour on
    either side as CLARIFICATIONS draws them: see the next test.)"""
    after_5a = _reveal(island(), 1, 5).state
    state = _reveal(after_5a, 2, 3).state
    assert state.on("1", 2) == 1 and state.on("2", 3) == 1 and state.unplaced == (7, 7)
    assert GAME.phase(state).name == "move" and GAME.phase(state).seats == ("1",)
    assert GAME.validate(state, "2", [Move(5, 4)]) == [OrderProblem(None, "it is not your turn: waiting for seat 1")]
    state = _move(state, "1", 1, 0).state
    assert state.on("1", 1) == 1 and state.on("1", 0) == 1
    assert GAME.phase(state).seats == ("2",)
    state = _move(state, "2", 5, 4).state
    assert state.on("2", 5) == 1 and state.on("2", 4) == 1
    assert GAME.phase(state).name == "reveal" and state.round == 3


def test_a_move_goes_to_an_adjacent_territory_only() -> None:
    """[R] "MOVE one of their Workers from ANY territory to an adjacent one"."""
    state = island({1: 2}, {5: 2, 3: 1}, reveals=(2, 3), movers=("2", "1"))
    assert GAME.validate(state, "2", [Move(5, 3)]) == [
        OrderProblem(0, "MOVE 5-3: territory 3 is not next to 5 (its neighbours: 4)")]
    assert GAME.validate(state, "2", [Move(2, 1)]) == [OrderProblem(0, "MOVE 2-1: you have no worker on territory 2")]
    assert GAME.validate(state, "2", [Move(5, 9)]) == [OrderProblem(0, "MOVE 5-9: the territories are 0 to 5")]
    assert GAME.validate(state, "2", [Reveal(3)])[0].message.startswith("REVEAL 3: the reveal of this round is over")
    with pytest.raises(IllegalOrder, match="not next to"):
        _move(state, "2", 5, 3)
    ring = island({1: 2}, {5: 2}, side="b", reveals=(2, 3), movers=("2", "1"))
    assert GAME.validate(ring, "2", [Move(5, 0)]) == []  # [C] on side B, 5 is next to 0


def test_the_move_may_take_the_worker_placed_this_round() -> None:
    """[D] "ANY territory": the worker just placed may move."""
    state = _reveal(island(), 2, 3).state
    assert Move(2, 1) in legal_moves(state, "1") and Move(2, 3) in legal_moves(state, "1")


def test_another_round_while_each_holds_two_or_more_then_the_end() -> None:
    """[R] "If the Farmers have 2 or more unplaced Workers, a new round starts ... Otherwise, the game ends"."""
    state = island({0: 4, 1: 4}, {4: 4, 5: 4}, round=5)  # 2 each in hand
    after = _reveal(state, 2, 2).state  # even: both placed, none left
    assert after.finished and GAME.outcome(after) is not None
    state = island({0: 4, 2: 3}, {4: 4, 5: 3}, round=6)  # 3 each in hand
    after = _reveal(state, 2, 3).state  # odd: one placed each, 2 left, the moves come first
    assert not after.finished and GAME.phase(after).name == "move"
    after = _move(_move(after, "1", 0, 1).state, "2", 5, 4).state
    assert not after.finished and after.unplaced == (2, 2) and after.round == 7
    state = island({0: 5, 2: 3}, {4: 5, 5: 3}, round=6)  # 2 each; odd leaves 1
    after = _reveal(state, 1, 2).state
    after = _move(_move(after, "1", 0, 1).state, "2", 5, 4).state
    assert after.finished and after.unplaced == (1, 1)


# --- scoring -------------------------------------------------------------------------------------


def test_example_5c_a_tie_on_points_goes_to_the_higher_sum_of_territory_numbers() -> None:
    """[R] Example 5C: John controls 0 and 4, Paul 2 and 5, 1 and 3 tied: 2-2 on points, Paul
    wins with 7 tie-breaker points against 4."""
    state = island({0: 2, 1: 1, 3: 2, 4: 3, 2: 1}, {1: 1, 2: 2, 3: 2, 5: 2})
    state = type(state)(**{**state.__dict__, "unplaced": (1, 1), "finished": True})
    assert GAME.scores(state) == {"1": 2, "2": 2}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("2",)
    assert outcome.reason == "Seat 2 ties on 2 territories and wins the tie-break with a sum of 7 against 4."


def test_more_territories_win_and_ties_on_the_sum_go_to_the_highest_territory() -> None:
    """[R] "If still tied, the Farmer with the single highest value territory wins"."""
    more = island({0: 1, 1: 1, 2: 1}, {5: 3})
    more = type(more)(**{**more.__dict__, "finished": True})
    assert GAME.outcome(more).winners == ("1",)  # type: ignore[union-attr]
    highest = island({0: 1, 5: 1}, {2: 1, 3: 1})  # sums 5 and 5, highest 5 against 3
    highest = type(highest)(**{**highest.__dict__, "finished": True})
    outcome = GAME.outcome(highest)
    assert outcome is not None and outcome.winners == ("1",) and "highest territory, 5, against 3" in outcome.reason


def test_a_complete_tie_is_a_shared_win() -> None:
    """[D] tied on points, sum and highest territory (e.g. nobody controls anything): shared."""
    state = island({0: 2, 3: 1}, {0: 2, 3: 1})
    state = type(state)(**{**state.__dict__, "finished": True})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1", "2") and outcome.kind.value == "shared"


# --- NMR and forced plays --------------------------------------------------------------------------


def test_the_nmr_default_reveals_0_and_moves_the_lowest_worker_to_its_lowest_neighbour() -> None:
    """[C] NMR: REVEAL 0; on a move, the worker from the lowest-numbered territory that can move,
    to its lowest neighbour."""
    assert GAME.default_orders(island(), "1") == [Reveal(0)]
    state = island({2: 1, 4: 2}, {0: 1, 5: 2}, side="b", reveals=(2, 3), movers=("1", "2"))
    assert GAME.default_orders(state, "1") == [Move(2, 1)]
    later = island({2: 1, 4: 2}, {0: 1, 5: 2}, side="b", reveals=(2, 3), movers=("2",))
    assert GAME.default_orders(later, "2") == [Move(0, 1)]


def test_a_move_with_a_single_legal_play_is_forced_and_a_reveal_never() -> None:
    """Plan 4.5: forced when exactly one move is legal (every worker on territory 0 of side A)."""
    state = island({0: 3}, {4: 1}, reveals=(0, 1), movers=("1", "2"))
    assert GAME.forced_orders(state, "1") == [Move(0, 1)]
    assert GAME.forced_orders(state, "2") is None  # not his turn yet
    assert GAME.forced_orders(island({0: 3}, {4: 1}, side="b", reveals=(0, 1), movers=("1",)), "1") is None
    assert GAME.forced_orders(island(), "1") is None


def test_sample_orders_cover_every_reveal_and_every_legal_move() -> None:
    rng = GameRng(2)
    assert {GAME.sample_orders(island(), "1", rng)[0] for _ in range(200)} == {Reveal(n) for n in range(6)}
    state = island({1: 1, 4: 1}, {2: 1}, reveals=(1, 2), movers=("1", "2"))
    seen = {GAME.sample_orders(state, "1", rng)[0] for _ in range(200)}
    assert seen == set(legal_moves(state, "1")) == {Move(1, 0), Move(1, 2), Move(4, 3), Move(4, 5)}
    assert all(GAME.validate(state, "1", [m]) == [] for m in seen)


def test_the_game_is_over_after_the_end() -> None:
    state = _reveal(island({0: 4, 1: 4}, {4: 4, 5: 4}), 2, 2).state
    assert GAME.validate(state, "1", [Reveal(1)])[0].message == "the game is over"
    with pytest.raises(GameError):
        _reveal(state, 1, 1)
