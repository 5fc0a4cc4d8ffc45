"""BaseGame's shared guard for resolve: the orders of the owing seats, checked (on the tiny test game)."""

from __future__ import annotations

import pytest
from tiny.orders import Add
from tiny.rules import TinyGame
from tiny.state import TinyState

from pbem.core import GameError, IllegalOrder

GAME = TinyGame()


def test_owed_orders_returns_the_checked_orders_of_the_owing_seats() -> None:
    state = TinyState(("1", "2"), total=3, target=10, to_move=1)
    assert GAME.owed_orders(state, {"2": (Add(2),), "1": [Add(3)]}) == {"2": [Add(2)]}


def test_owed_orders_names_every_problem_of_a_refused_submission() -> None:
    state = TinyState(("1", "2"), total=8, target=10, to_move=0)
    with pytest.raises(IllegalOrder, match=r"^seat 1: ADD 3: the total may not pass 10$"):
        GAME.owed_orders(state, {"1": [Add(3)]})
    with pytest.raises(IllegalOrder, match=r"^seat 1: a turn is exactly one ADD$"):
        GAME.owed_orders(state, {"1": [Add(1), Add(1)]})


def test_owed_orders_refuses_a_missing_entry_and_a_finished_game() -> None:
    with pytest.raises(GameError, match="no orders for seat 1, who owes them"):
        GAME.owed_orders(TinyState(("1", "2"), total=8, target=10, to_move=0), {"2": [Add(1)]})
    with pytest.raises(GameError, match="the game is over"):
        GAME.owed_orders(TinyState(("1", "2"), total=10, target=10, to_move=0, last="2"), {"1": [Add(1)]})


def test_an_empty_entry_a_seat_that_held_stands_for_its_nmr_default() -> None:
    """NOORDERS stores an empty submission: the seat holds, and its NMR default is played."""
    assert GAME.owed_orders(TinyState(("1", "2"), 3, 10, 0), {"1": []}) == {"1": [Add(1)]}
