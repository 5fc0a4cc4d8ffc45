"""BaseGame's shared guard for resolve (pbem/core/game.py), on the example game tiny."""

from __future__ import annotations

import pytest
from tiny.orders import Add
from tiny.rules import TinyGame
from tiny.state import TinyState

from pbem.core import GameError, IllegalOrder


def test_owed_orders_returns_the_checked_orders_of_the_owing_seats() -> None:
    game = TinyGame()
    state = TinyState(("1", "2"), total=3, target=10, to_move=1)
    assert game.owed_orders(state, {"2": [Add(2)], "1": [Add(3)]}) == {"2": [Add(2)]}


def test_owed_orders_refuses_a_missing_entry_a_refused_submission_and_a_finished_game() -> None:
    game = TinyGame()
    state = TinyState(("1", "2"), total=8, target=10, to_move=0)
    with pytest.raises(GameError, match="no orders for seat 1, who owes them"):
        game.owed_orders(state, {"2": [Add(1)]})
    with pytest.raises(IllegalOrder, match="seat 1: ADD 3: the total may not pass 10"):
        game.owed_orders(state, {"1": [Add(3)]})
    with pytest.raises(GameError, match="the game is over"):
        game.owed_orders(TinyState(("1", "2"), total=10, target=10, to_move=0, last="2"), {"1": [Add(1)]})


def test_owed_orders_reads_an_empty_entry_as_the_nmr_default() -> None:
    """A seat that held (NOORDERS) is stored with an empty entry: it plays its NMR default, checked
    like any submission, instead of failing the resolution."""
    game = TinyGame()
    state = TinyState(("1", "2"), total=3, target=10, to_move=0)
    assert game.owed_orders(state, {"1": []}) == {"1": [Add(1)]}
    with pytest.raises(IllegalOrder, match="seat 1: ADD 1: the total may not pass 10"):
        game.owed_orders(TinyState(("1", "2"), total=10, target=10, to_move=0), {"1": []})
