"""Random Harvest Day games: workers are conserved, every game ends, the reveal stays out of
every view until both are in, and a replay from the order text gives the same game."""

from __future__ import annotations

from harvest_builders import GAME
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng
from pbem.games.harvest_day.state import WORKERS
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
MAX_STEPS = 3 * WORKERS  # a round places at least one worker each and has at most three phases


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), side=st.sampled_from(["a", "b"]))
def test_random_play_conserves_workers_ends_and_replays(seed: int, side: str) -> None:
    robots = GameRng(seed)
    state = GAME.setup(("1", "2"), {"side": side}, GameRng(0))
    history = []
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        phase = GAME.phase(state)
        orders = {}
        for seat in phase.seats:
            forced = GAME.forced_orders(state, seat)
            orders[seat] = forced if forced is not None else (
                GAME.sample_orders(state, seat, robots) if robots.random() < 0.9 else GAME.default_orders(state, seat))
            assert GAME.validate(state, seat, orders[seat]) == []
        history.append({s: [str(o) for o in os] for s, os in orders.items()})
        state = GAME.resolve(state, orders, GameRng(0)).state
        for i in range(2):
            assert sum(state.workers[i]) + state.unplaced[i] == WORKERS
            assert min(state.workers[i]) >= 0
        assert state.unplaced[0] == state.unplaced[1]  # [plan] both always hold the same number
    outcome = GAME.outcome(state)
    assert outcome is not None and state.unplaced[0] <= 1
    assert set(outcome.winners) <= {"1", "2"} and outcome.winners
    replayed = GAME.setup(("1", "2"), {"side": side}, GameRng(0))
    for step in history:
        replayed = GAME.resolve(replayed, {s: PARSER.parse("\n".join(t)).orders for s, t in step.items()},
                                GameRng(0)).state
    assert replayed == state
