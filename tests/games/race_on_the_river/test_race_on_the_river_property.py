"""Random Race on the River games from sample_orders, at every player count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from game_replay import replay_dumps
from hypothesis import given, settings
from hypothesis import strategies as st
from race_on_the_river_builders import GAME

from pbem.core import GameRng
from pbem.games.race_on_the_river.state import RaceState
from pbem.orders import OrderParser

MAX_STEPS = 200
PARSER = OrderParser(GAME)


def _check_invariants(state: RaceState, before: RaceState | None) -> None:
    assert all(0 <= h <= state.stamina for h in state.hands)
    assert all(p >= 0 for p in state.positions)
    if before is not None:
        assert all(a >= b for a, b in zip(state.positions, before.positions, strict=True))
        assert state.round > before.round or state.is_over
    if state.is_over:
        assert set(state.winners) <= set(state.seats)
        assert any(p >= state.finish for p in state.positions) or not any(state.hands)
        crossed = [s for s in state.seats if state.position(s) >= state.finish]
        if crossed:
            assert set(state.winners) <= set(crossed)
    else:
        assert 2 <= state.roll <= 6
        assert all(p < state.finish for p in state.positions)
        assert any(state.hands)


def _play(seed: int, players: int, robot_seed: int) -> tuple[list[dict[str, Any]], list[dict[str, list[str]]]]:
    """Play a game like the runner does; return every dumped state and the orders as text."""
    rng = GameRng(seed)
    robot = GameRng(robot_seed)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    _check_invariants(state, None)
    dumps = [GAME.dump(state)]
    texts: list[dict[str, list[str]]] = []
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        phase = GAME.phase(state)
        assert phase.seats == state.seats
        orders = {}
        for seat in phase.seats:
            forced = GAME.forced_orders(state, seat)
            chosen = forced if forced is not None else GAME.sample_orders(state, seat, robot)
            assert GAME.validate(state, seat, chosen) == []
            assert GAME.validate(state, seat, GAME.default_orders(state, seat)) == []
            orders[seat] = chosen
        texts.append({seat: [str(o) for o in os] for seat, os in orders.items()})
        before = state
        state = GAME.resolve(state, orders, rng).state
        _check_invariants(state, before)
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
        for reader in (*state.seats, None):
            json.dumps(GAME.view(state, reader))
        dumps.append(data)
    return dumps, texts


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), robot_seed=st.integers(0, 2**32))
def test_random_races_keep_the_invariants_and_replay_exactly(seed: int, robot_seed: int, players: int) -> None:
    dumps, texts = _play(seed, players, robot_seed)
    assert replay_dumps(GAME, PARSER, seed, players, texts) == dumps


def test_random_races_end_at_every_player_count() -> None:
    for players in range(2, 7):
        for seed in range(5):
            dumps, _ = _play(seed, players, seed + 100)
            assert GAME.outcome(GAME.load(dumps[-1])) is not None, (players, seed)
