"""BaseGame's shared guard for resolve: the orders of the seat to play, checked (on the tiny test game)."""

from __future__ import annotations

import pytest
from tiny.orders import Add
from tiny.rules import TinyGame
from tiny.state import TinyState

from pbem.core import GameError, IllegalOrder

GAME = TinyGame()


def test_checked_orders_returns_the_entry_validate_accepts() -> None:
    state = TinyState(("1", "2"), 3, 10, 0)
    assert GAME.checked_orders(state, {"1": (Add(2),)}, "1") == [Add(2)]


def test_checked_orders_names_every_problem() -> None:
    state = TinyState(("1", "2"), 8, 10, 0)
    with pytest.raises(IllegalOrder, match=r"^seat 1: ADD 3: the total may not pass 10$"):
        GAME.checked_orders(state, {"1": [Add(3)]}, "1")
    with pytest.raises(IllegalOrder, match="seat 2: seat 2 owes no orders now"):
        GAME.checked_orders(state, {"2": [Add(1)]}, "2")


def test_checked_orders_refuses_a_missing_seat_and_a_finished_game() -> None:
    with pytest.raises(GameError, match="no orders for seat 1, whose turn it is"):
        GAME.checked_orders(TinyState(("1", "2"), 3, 10, 0), {"2": [Add(1)]}, "1")
    with pytest.raises(GameError, match="the game is over"):
        GAME.checked_orders(TinyState(("1", "2"), 10, 10, 1, last="1"), {"2": [Add(1)]}, "2")


def test_an_empty_entry_a_seat_that_held_stands_for_its_nmr_default() -> None:
    """NOORDERS stores an empty submission: the seat holds, and its NMR default is played."""
    assert GAME.checked_orders(TinyState(("1", "2"), 3, 10, 0), {"1": []}, "1") == [Add(1)]
