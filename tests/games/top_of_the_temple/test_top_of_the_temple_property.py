"""Random Top of the Temple games: every one ends within eleven turns, as the plan argues
(every turn but the last raises the sum of the steps by at least 6, and it stays below 60)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from temple_builders import GAME

from pbem.core import GameRng
from pbem.games.top_of_the_temple.state import COLOURS, TOP
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), robot_seed=st.integers(0, 10**6))
def test_random_play_ends_within_eleven_turns_and_replays_from_text(seed: int, players: int, robot_seed: int) -> None:
    rng, robots = GameRng(seed), GameRng(robot_seed)
    seats = GAME.seat_names(players)
    state = GAME.setup(seats, {}, rng)
    texts = []
    for _ in range(11):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.phase(state).seats[0]
        orders = GAME.sample_orders(state, seat, robots) if robots.random() < 0.9 else GAME.default_orders(state, seat)
        texts.append(str(orders[0]))
        before = sum(state.steps)
        state = GAME.resolve(state, {seat: orders}, rng).state
        assert all(0 <= step <= TOP for step in state.steps)
        assert state.finished or sum(state.steps) >= before + 6
        assert sorted(state.secrets) == sorted(set(state.secrets)) and set(state.secrets) <= set(COLOURS)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners and set(outcome.winners) <= set(seats)
    assert sum(1 for c in COLOURS if state.step_of(c) == TOP) == 1
    replay_rng = GameRng(seed)
    replayed = GAME.setup(seats, {}, replay_rng)
    for text in texts:
        seat = GAME.phase(replayed).seats[0]
        replayed = GAME.resolve(replayed, {seat: PARSER.parse(text).orders}, replay_rng).state
    assert replayed == state
