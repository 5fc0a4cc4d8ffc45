"""Random Resource Rich games: cubes are conserved, hands stay equal, every game ends, and a replay
from the order text gives the same game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich_builders import GAME

from pbem.core import GameRng
from pbem.core.bag import Bag
from pbem.games.resource_rich.state import full_bag
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
MAX_ROUNDS = 40  # every drafting round keeps at least one cube of each hand


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), side=st.sampled_from(["a", "b"]),
       directions=st.sampled_from(["cw,ccw,cw", "ccw,ccw,ccw", "cw,cw,ccw"]))
def test_random_play_conserves_cubes_ends_and_replays(seed: int, players: int, side: str, directions: str) -> None:
    options = {"side": side, "directions": directions}
    seats = GAME.seat_names(players)
    rng, robots = GameRng(seed), GameRng(seed + 1)
    state = GAME.setup(seats, options, rng)
    history = []
    for _ in range(MAX_ROUNDS):
        if GAME.outcome(state) is not None:
            break
        orders = {}
        for seat in seats:
            forced = GAME.forced_orders(state, seat)
            orders[seat] = forced if forced is not None else (
                GAME.sample_orders(state, seat, robots) if robots.random() < 0.8 else GAME.default_orders(state, seat))
            assert GAME.validate(state, seat, orders[seat]) == []
        history.append({s: [str(o) for o in os] for s, os in orders.items()})
        state = GAME.resolve(state, orders, rng).state
        total = Bag.of(state.unused)
        for bag in (*state.hands, *state.kept):
            total = total + bag
        if not state.finished:
            assert total == full_bag() and len({h.size for h in state.hands}) == 1
            assert 1 <= state.roll <= 5 and state.discs < 3 and state.sixes <= 2
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners and set(outcome.winners) <= set(seats)
    assert all(h.size == 0 for h in state.hands)
    replay_rng = GameRng(seed)
    replayed = GAME.setup(seats, options, replay_rng)
    for step in history:
        replayed = GAME.resolve(replayed, {s: PARSER.parse("\n".join(t)).orders for s, t in step.items()},
                                replay_rng).state
    assert replayed == state
