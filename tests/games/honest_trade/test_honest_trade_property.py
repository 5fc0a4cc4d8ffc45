"""Random games of An Honest Trade: every one ends with the last trader left (or the last ones
sharing), the goods are conserved, no secret colour is ever discarded, and the game replays from
its seed and the order texts."""

from __future__ import annotations

from game_replay import replay_dumps
from hypothesis import given, settings
from hypothesis import strategies as st
from trade_builders import GAME, PARSER

from pbem.core import GameRng
from pbem.games.honest_trade.state import TradeState

MAX_STEPS = 2_000


def _check_invariants(state: TradeState, blacks: int, discs: int, secrets: tuple[str, ...]) -> None:
    assert state.secrets == secrets
    assert state.supply_blacks + sum(t.blacks for t in state.traders) == blacks
    assert state.supply_discs + sum(t.discs for t in state.traders) == discs
    assert state.supply_blacks >= 0 and state.supply_discs >= 0
    for seat, trader in zip(state.seats, state.traders, strict=True):
        assert state.secret_of(seat) not in trader.discarded and state.secret_of(seat) not in trader.cleared
        if trader.out:
            assert trader.blacks == trader.discs == 0 and state.owes(seat) == 0
        else:
            assert len(trader.cubes) >= 2 and trader.blacks < 3 and trader.discs < 3
            assert set(trader.row).isdisjoint(trader.pushed)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5), robot_seed=st.integers(0, 10**6),
       nmr=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_play_ends_validly_conserves_the_goods_and_replays(seed: int, players: int, robot_seed: int,
                                                                   nmr: float) -> None:
    rng, robots = GameRng(seed), GameRng(robot_seed)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    secrets = state.secrets
    turns: list[dict[str, list[str]]] = []
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        orders = {}
        for seat in GAME.phase(state).seats:
            forced = GAME.forced_orders(state, seat)
            if forced is not None:
                orders[seat] = forced
            elif robots.random() < nmr:
                orders[seat] = GAME.default_orders(state, seat)
            else:
                orders[seat] = GAME.sample_orders(state, seat, robots)
            assert GAME.validate(state, seat, orders[seat]) == []
        turns.append({seat: [str(o) for o in given] for seat, given in orders.items()})
        state = GAME.resolve(state, orders, rng).state
        _check_invariants(state, 10, 10, secrets)
    outcome = GAME.outcome(state)
    assert outcome is not None, f"no end in {MAX_STEPS} steps"
    assert set(outcome.winners) == set(state.living) or (not state.living and outcome.winners == state.last_out)
    assert replay_dumps(GAME, PARSER, seed, players, turns)[-1] == GAME.dump(state)
