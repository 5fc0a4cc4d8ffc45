"""Random Great Regattas from sample_orders and NMR defaults, at every player count."""

from __future__ import annotations

import pytest
from game_replay import replay_dumps
from great_regatta_builders import GAME
from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import play_randomly

from pbem.games.great_regatta.state import COURSE, STAGE_OVER, STAGE_PUSH, SUPPLY, RegattaState
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)


def _check_invariants(state: RegattaState, before: RegattaState | None) -> None:
    at_rest = [space for spaces in state.boats for space in spaces]
    assert len(at_rest) == len(set(at_rest)), "at rest every boat is alone on its space"
    assert all(COURSE.contains(space) for space in at_rest)
    for i, spaces in enumerate(state.boats):
        sailing = 1 if state.stage == STAGE_PUSH and i == state.current else 0
        assert len(spaces) + sailing + state.supply[i] <= SUPPLY, "boats are never made, only spent or lost"
    if state.stage == STAGE_PUSH:
        assert state.moving is not None and state.moving not in at_rest and state.covered
        assert len(state.covered) == len(state.rolls) <= 6
    else:
        assert state.moving is None and state.covered == () and state.rolls == ()
    if state.stage == STAGE_OVER:
        assert not any(state.supply)
    if before is not None and before.stage != STAGE_OVER:
        assert sum(state.supply) >= sum(before.supply) - 1


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), robot_seed=st.integers(0, 2**32), nmr=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_regattas_keep_the_invariants_end_after_five_turns_each_and_replay(
    seed: int, robot_seed: int, nmr: float, players: int
) -> None:
    played = play_randomly(GAME, players, seed, robot_seed, nmr=nmr, check=_check_invariants, max_steps=400)
    final = played.final
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.winners and set(outcome.winners) <= set(final.seats)
    starts = [step for step in played.texts if next(iter(step.values()))[0].split()[0] in ("NEW", "ADVANCE")]
    assert len(starts) == SUPPLY * players, "each player has exactly five turns"
    dumps = [GAME.dump(state) for state in played.states]
    assert replay_dumps(GAME, PARSER, seed, players, played.texts) == dumps
