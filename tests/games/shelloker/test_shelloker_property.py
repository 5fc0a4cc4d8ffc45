"""Random Shelloker games: cubes are conserved, shells never go below 0, every round ends, every
game ends within 11 rounds, and a replay from the order text gives the same game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from shelloker_builders import GAME

from pbem.core import GameRng
from pbem.games.shelloker.state import TOP_BET, full_bag
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
MAX_STEPS = 11 * 6 * (TOP_BET + 1)  # 11 rounds; in a round every action but a call raises the top or ends a seat


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_random_play_conserves_cubes_ends_and_replays(seed: int, players: int) -> None:
    seats = GAME.seat_names(players)
    rng, robots = GameRng(seed), GameRng(seed + 7)
    state = GAME.setup(seats, {}, rng)
    history = []
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.phase(state).seats[0]
        orders = GAME.sample_orders(state, seat, robots) if robots.random() < 0.9 else GAME.default_orders(state, seat)
        assert GAME.validate(state, seat, orders) == []
        history.append(str(orders[0]))
        before = state.round
        state = GAME.resolve(state, {seat: orders}, rng).state
        total = state.bag.add(state.cliffs)
        for hand in state.hands:
            total = total + hand
        assert total == full_bag()
        assert min(state.shells) >= 0 and 1 <= state.round <= 11 and state.round - before in (0, 1)
        assert len(state.cliffs) == state.round + 1
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners and set(outcome.winners) <= set(seats)
    assert all(h.size == 0 for h in state.hands)
    replay_rng = GameRng(seed)
    replayed = GAME.setup(seats, {}, replay_rng)
    for text in history:
        seat = GAME.phase(replayed).seats[0]
        replayed = GAME.resolve(replayed, {seat: PARSER.parse(text).orders}, replay_rng).state
    assert replayed == state
