"""Random legal Turkey Chase games played to the end: invariants every turn,
dump/load round trips, and exact replay from the seed and the order texts."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from turkey_chase_scenarios import GAME, PARSER

from pbem.core import GameRng
from pbem.games.turkey_chase.board import BUDGET, PHASE_LABELS, SEATS
from pbem.games.turkey_chase.orders import Build, Move
from pbem.games.turkey_chase.planning import (
    BIRD_MOVE,
    FIRST_MOVE,
    SECOND_MOVE,
    check_orders,
    move_phases,
    orders_cost,
)
from pbem.games.turkey_chase.state import TurkeyState

MAX_TURNS = 300


def play(seed: int, nmr: str, nmr_rate: float) -> tuple[list[TurkeyState], list[dict[str, str]]]:
    """Play one random game; check every turn; return the states and the order texts."""
    rng = GameRng(seed)
    state = GAME.setup(SEATS, {"nmr": nmr}, rng)
    states, submissions = [state], []
    while GAME.outcome(state) is None:
        assert len(submissions) < MAX_TURNS, "a random game must end"
        orders = {}
        for seat in SEATS:
            if rng.random() < nmr_rate:
                orders[seat] = GAME.default_orders(state, seat)
            else:
                orders[seat] = GAME.sample_orders(state, seat, rng)
            check_submission(state, seat, orders[seat])
        texts = {seat: "\n".join(str(o) for o in seat_orders) for seat, seat_orders in orders.items()}
        resolution = GAME.resolve(state, orders, rng)
        check_turn(state, orders, resolution.state, resolution.events)
        state = resolution.state
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
        assert json.loads(json.dumps(GAME.view(state, "A"))) == GAME.view(state, None)
        states.append(state)
        submissions.append(texts)
    return states, submissions


def check_submission(state: TurkeyState, seat: str, orders: list) -> None:
    assert GAME.validate(state, seat, orders) == []
    si = SEATS.index(seat)
    assert orders_cost(state, si, orders) <= BUDGET
    assert GAME.submission_summary(state, seat, orders).endswith(f"of your {BUDGET} points.")
    parsed = PARSER.parse("\n".join(str(o) for o in orders))
    assert parsed.orders == orders


def check_turn(before: TurkeyState, orders: dict, after: TurkeyState, events: list) -> None:
    assert after.turn == before.turn + 1
    assert all(value >= 0 for value in after.corn)
    assert all(a <= b for a, b in zip(after.corn, before.corn, strict=True))
    gained = sum(after.scores) - sum(before.scores)
    assert gained == sum(before.corn) - sum(after.corn)  # every eaten grain is scored, shares are exact
    for si in range(len(SEATS)):
        assert after.scores[si] >= before.scores[si]
        assert len(after.birds[si]) <= len(before.birds[si])
        # captured birds never come back and birds move at most one square
        for cell in set(after.birds[si]):
            assert any(abs(cell[0] - b[0]) + abs(cell[1] - b[1]) <= 1 for b in before.birds[si])
        assert len(after.farmers[si]) >= len(before.farmers[si])
    farmer_squares = {cell for cells in after.farmers for cell in cells}
    assert not farmer_squares & {cell for cells in after.birds for cell in cells}
    labels = list(PHASE_LABELS.values())
    assert [labels.index(e.phase) for e in events] == sorted(labels.index(e.phase) for e in events)
    for event in events:
        seat = event.seat
        assert event.seats is None
        # a player without birds at the start of the turn never feeds or moves a bird
        if event.kind == "feed" or (event.kind == "move" and event.data["piece"] == "bird"):
            assert before.birds[SEATS.index(seat)], event.text
        # validated orders fail only when a bird was captured earlier in the turn
        if event.kind == "failed":
            assert event.data["reason"].endswith("any more"), event.text
    # captured birds never act: no bird moves in phase 4 from a square where its
    # owner's birds were captured in phase 3
    caught = {(e.data["owner"], e.data["square"]) for e in events if e.kind == "capture" and e.phase == labels[2]}
    for event in events:
        if event.kind == "move" and event.data["piece"] == "bird":
            assert (event.seat, event.data["order"][5:].split("-")[0]) not in caught, event.text
    moved_birds = [e for e in events if e.kind == "move" and e.data["piece"] == "bird"]
    failed_birds = [e for e in events if e.kind == "failed"]
    assert len(moved_birds) + len(failed_birds) == sum(
        phase == BIRD_MOVE for si, seat in enumerate(SEATS) for phase in move_phases(before.farmers[si], orders[seat])
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    nmr=st.sampled_from(["nothing", "feed"]),
    nmr_rate=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_random_games_end_and_replay_exactly(seed: int, nmr: str, nmr_rate: float) -> None:
    states, submissions = play(seed, nmr, nmr_rate)
    assert GAME.outcome(states[-1]) is not None
    # replay: same seed, same order texts, every state again
    rng = GameRng(seed)
    state = GAME.setup(SEATS, {"nmr": nmr}, rng)
    assert state == states[0]
    for number, texts in enumerate(submissions, start=1):
        orders = {seat: PARSER.parse(text).orders for seat, text in texts.items()}
        state = GAME.resolve(state, orders, rng).state
        assert state == states[number]


def test_sampled_orders_use_every_kind_of_order() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(40):
        rng = GameRng(seed)
        state = GAME.setup(SEATS, {}, rng)
        while GAME.outcome(state) is None:
            orders = {seat: GAME.sample_orders(state, seat, rng) for seat in SEATS}
            for si, seat in enumerate(SEATS):
                check = check_orders(state, si, orders[seat])
                for index, order in enumerate(orders[seat]):
                    phase = check.phases[index]
                    name = type(order).__name__
                    if isinstance(order, Move):
                        name = {FIRST_MOVE: "first", BIRD_MOVE: "bird", SECOND_MOVE: "second"}[phase]
                    elif isinstance(order, Build):
                        name = f"build{check.costs[index]}"
                    kinds[name] += 1
            state = GAME.resolve(state, orders, rng).state
    for kind in ("Feed", "Destroy", "first", "bird", "second", "build1", "build2", "New"):
        assert kinds[kind] > 0, kinds
