"""Random Three Pyramids games from sample_orders, at every player count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from game_replay import replay_dumps
from hypothesis import given, settings
from hypothesis import strategies as st
from three_pyramids_builders import GAME

from pbem.core import GameRng
from pbem.games.three_pyramids.state import ROUNDS, PyramidsState, full_bag
from pbem.orders import OrderParser

MAX_STEPS = 3 * 40 + 10  # every turn plays at least one of the 40 or fewer cubes dealt a round
PARSER = OrderParser(GAME)


def _check_invariants(state: PyramidsState, before: PyramidsState | None) -> None:
    total = state.bag
    for hand in state.hands:
        assert hand.size <= 10
        total = total + hand
    for pyramid in state.pyramids:
        for side in pyramid:
            total = total.add(side)
    assert total == full_bag()  # no cube is lost or made
    assert 1 <= state.round <= ROUNDS
    if before is not None:
        assert all(a >= b for a, b in zip(state.scores, before.scores, strict=True))
        assert (state.round, state.finished) >= (before.round, before.finished)
    if not state.finished:
        assert not state.passed[state.to_play]
        assert GAME.forced_orders(state, state.seat_to_play) is None  # the seat to play can play, and is asked
    player_keys = {"seat", "side", "score", "hand_size", "passed", "you", "to_play"}
    for reader in (*state.seats, None):
        view = GAME.view(state, reader)
        # the only hand contents in a view are the reader's own; others show a size only
        assert view["hand"] == (None if reader is None else {
            "size": state.hand(reader).size,
            "cubes": state.hand(reader).as_dict(),
            "text": state.hand(reader).describe(),
        })
        assert all(set(p) == player_keys for p in view["players"])
        assert [p["hand_size"] for p in view["players"]] == [h.size for h in state.hands]
        assert "bag" not in view


def _play(seed: int, players: int, robot_seed: int) -> tuple[list[dict[str, Any]], list[dict[str, list[str]]]]:
    rng = GameRng(seed)
    robot = GameRng(robot_seed)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    _check_invariants(state, None)
    dumps = [GAME.dump(state)]
    texts: list[dict[str, list[str]]] = []
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.phase(state).seats
        forced = GAME.forced_orders(state, seat)
        orders = forced if forced is not None else GAME.sample_orders(state, seat, robot)
        assert GAME.validate(state, seat, orders) == []
        assert GAME.validate(state, seat, GAME.default_orders(state, seat)) == []
        for other in state.seats:
            if other != seat:
                assert GAME.validate(state, other, orders)[0].index is None
        texts.append({seat: [str(o) for o in orders]})
        before = state
        state = GAME.resolve(state, {seat: orders}, rng).state
        _check_invariants(state, before)
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
        dumps.append(data)
    assert GAME.outcome(state) is not None, "the game did not end within the bound"
    return dumps, texts


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), robot_seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants_end_and_replay_exactly(seed: int, robot_seed: int, players: int) -> None:
    dumps, texts = _play(seed, players, robot_seed)
    assert GAME.load(dumps[-1]).round == ROUNDS
    assert replay_dumps(GAME, PARSER, seed, players, texts) == dumps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nmr_only_games_end(players: int) -> None:
    rng = GameRng(players)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.phase(state).seats
        state = GAME.resolve(state, {seat: GAME.default_orders(state, seat)}, rng).state
    assert GAME.outcome(state) is not None
