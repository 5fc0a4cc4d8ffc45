"""Random Feaster Island games from sample_orders and NMR defaults, at every player count."""

from __future__ import annotations

import pytest
from feaster_island_builders import GAME, cube_total
from game_replay import replay_dumps
from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import play_randomly

from pbem.games.feaster_island.state import STAGE_LAST, STAGE_OVER, STAGE_TURN, FeasterState
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)


def _check_invariants(state: FeasterState, before: FeasterState | None) -> None:
    assert cube_total(state) == 54, "every dish cube is somewhere"
    assert all(count >= 0 for count in state.bag)
    if state.stage == STAGE_TURN:
        assert 1 <= state.rolled <= 6 and len(state.drawn) == state.rolled
    else:
        assert state.drawn == ()
    if state.stage == STAGE_LAST:
        assert sum(state.bag) == 0 and 1 <= state.last_left <= len(state.seats)
    if state.stage == STAGE_OVER:
        assert not any(state.columns) and sum(state.bag) == 0
    if before is not None:
        assert all(sum(a) >= sum(b) for a, b in zip(state.plates, before.plates, strict=True)), "dishes are kept"


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), robot_seed=st.integers(0, 2**32), nmr=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_games_conserve_the_cubes_end_validly_and_replay(seed: int, robot_seed: int, nmr: float,
                                                               players: int) -> None:
    played = play_randomly(GAME, players, seed, robot_seed, nmr=nmr, check=_check_invariants, max_steps=200)
    outcome = GAME.outcome(played.final)
    assert outcome is not None and outcome.winners and set(outcome.winners) <= set(played.final.seats)
    last_round = [orders for step in played.texts[-players:] for orders in step.values()]
    assert all(len(orders) == 1 and orders[0].split()[0] in ("TAKE", "PASS") for orders in last_round)
    dumps = [GAME.dump(state) for state in played.states]
    assert replay_dumps(GAME, PARSER, seed, players, played.texts) == dumps
