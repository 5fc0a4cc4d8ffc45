"""Random Kentucksea Derbies from sample_orders and NMR defaults, at every player count, with and without bets."""

from __future__ import annotations

import pytest
from game_replay import replay_dumps
from hypothesis import given, settings
from hypothesis import strategies as st
from kentucksea_derby_builders import GAME
from random_play import play_randomly

from pbem.games.kentucksea_derby.bidding import TIES_BEFORE_SPEED_ORDER
from pbem.games.kentucksea_derby.racing import COLOURS
from pbem.games.kentucksea_derby.state import STAGE_BET, STAGE_OVER, STAGE_REBID, STAGE_SPEED, DerbyState
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)


def _check_invariants(state: DerbyState, before: DerbyState | None) -> None:
    finish = state.laps * 24
    assert sorted(state.column) == sorted(COLOURS)
    assert all(shells >= 0 for shells in state.shells)
    assert all(progress >= finish for progress, c in zip(state.progress, COLOURS, strict=True) if c in state.finished)
    assert sorted(state.order) == sorted(state.seats)
    if state.stage == STAGE_REBID:
        for group, ties in zip(state.groups, state.ties, strict=True):
            if len(group) > 1:
                assert 1 <= ties < TIES_BEFORE_SPEED_ORDER
                assert all(state.shells_of(seat) > 0 for seat in group), "only seats with shells re-bid"
        assert sorted(seat for group in state.groups for seat in group) == sorted(state.seats)
    if state.stage == STAGE_SPEED:
        assert state.speakers and all(state.shells_of(seat) > 0 for seat in state.speakers)
    if state.stage == STAGE_OVER:
        assert state.finished
    if before is not None:
        assert all(a >= b for a, b in zip(state.progress, before.progress, strict=True)), "racers never go back"
        assert set(before.finished) <= set(state.finished)
        if before.stage != STAGE_BET:
            assert all(a <= b for a, b in zip(state.shells, before.shells, strict=True)), "shells are only spent"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), robot_seed=st.integers(0, 2**32), nmr=st.sampled_from([0.0, 0.3, 1.0]),
       betting=st.sampled_from(["yes", "no"]))
def test_random_derbies_keep_the_invariants_end_and_replay(seed: int, robot_seed: int, nmr: float, betting: str,
                                                           players: int) -> None:
    options = {"betting": betting}
    played = play_randomly(GAME, players, seed, robot_seed, nmr=nmr, options=options, check=_check_invariants,
                           max_steps=600)
    outcome = GAME.outcome(played.final)
    assert outcome is not None and len(outcome.winners) == 1
    dumps = [GAME.dump(state) for state in played.states]
    assert replay_dumps(GAME, PARSER, seed, players, played.texts, options) == dumps


def test_everybody_silent_still_ends_the_race() -> None:
    """The safety rule: with nobody ever answering, ties are ordered by the speed column and the race ends."""
    for players in (3, 6):
        played = play_randomly(GAME, players, 5, 6, nmr=1.0, check=_check_invariants, max_steps=600)
        assert GAME.outcome(played.final) is not None
        assert not any(played.final.shells[i] < 0 for i in range(players))
