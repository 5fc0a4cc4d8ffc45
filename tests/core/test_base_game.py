"""BaseGame's shared guards: whose turn it is, and the orders a one-seat resolve may apply."""

from __future__ import annotations

import pytest
from tiny.orders import Add
from tiny.rules import TinyGame
from tiny.state import TinyState

from pbem.core import GameError, IllegalOrder

GAME = TinyGame()
STATE = TinyState(("1", "2"), 5, 10, 0)


def test_checked_orders_returns_the_seats_valid_orders() -> None:
    assert GAME.checked_orders(STATE, "1", {"1": (Add(2),)}) == [Add(2)]


def test_checked_orders_refuses_a_missing_entry_an_illegal_play_and_a_finished_game() -> None:
    with pytest.raises(GameError, match="no orders for seat 1, whose turn it is"):
        GAME.checked_orders(STATE, "1", {"2": [Add(1)]})
    with pytest.raises(IllegalOrder, match="seat 1: a turn is exactly one ADD"):
        GAME.checked_orders(STATE, "1", {"1": [Add(1), Add(1)]})
    with pytest.raises(IllegalOrder, match="seat 2: seat 2 owes no orders now"):
        GAME.checked_orders(STATE, "2", {"2": [Add(1)]})
    with pytest.raises(GameError, match="the game is over"):
        GAME.checked_orders(TinyState(("1", "2"), 10, 10, 0, last="2"), "1", {"1": [Add(1)]})
