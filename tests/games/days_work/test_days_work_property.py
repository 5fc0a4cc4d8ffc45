"""Random All in a Day's Work games: every game ends within its round cap, resources and building
cubes are conserved, scores never fall, and the game replays from its seed and order text."""

from __future__ import annotations

from days_work_builders import GAME
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng, OutcomeKind
from pbem.core.bag import Bag
from pbem.games.days_work.card import BUILDINGS, DISCS, RESOURCES, SUPPLY_EACH, TOP_STEP
from pbem.games.days_work.state import DayState
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
BOX = Bag.filled(RESOURCES, SUPPLY_EACH)


def _check(state: DayState, before: DayState | None) -> None:
    assert state.supply + state.hands[0] + state.hands[1] == BOX  # no resource made or lost
    for seat in state.seats:
        assert 0 <= state.buildings_left(seat) <= BUILDINGS
        assert 0 <= state.temple[state.index(seat)] <= TOP_STEP
    assert len({space for space, _ in state.discs}) == len(state.discs) <= 2 * DISCS
    if before is not None:
        assert all(a >= b for a, b in zip(state.scores, before.scores, strict=True))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), max_rounds=st.integers(1, 20), lazy=st.floats(0, 1))
def test_random_play_ends_within_the_cap_with_everything_conserved(seed: int, max_rounds: int, lazy: float) -> None:
    options = {"max_rounds": str(max_rounds), "start": "random"}
    rng, robot = GameRng(seed), GameRng(seed + 1)
    state = GAME.setup(("1", "2"), options, rng)
    _check(state, None)
    states, texts = [state], []
    for _ in range(2 * DISCS * max_rounds):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.phase(state).seats[0]
        forced = GAME.forced_orders(state, seat)
        orders = forced if forced is not None else (
            GAME.default_orders(state, seat) if robot.random() < lazy else GAME.sample_orders(state, seat, robot))
        assert GAME.validate(state, seat, orders) == []
        texts.append((seat, [str(o) for o in orders]))
        before, state = state, GAME.resolve(state, {seat: orders}, rng).state
        _check(state, before)
        states.append(state)
    outcome = GAME.outcome(state)
    assert outcome is not None, "the round cap must end every game"
    assert state.round <= max_rounds
    if outcome.kind is OutcomeKind.DRAW:
        assert state.scores[0] == state.scores[1]
    else:
        assert outcome.kind is OutcomeKind.WIN and GAME.scores(state)[outcome.winners[0]] == max(state.scores)
    rng = GameRng(seed)
    replayed = GAME.setup(("1", "2"), options, rng)
    for step, (seat, lines) in enumerate(texts, start=1):
        replayed = GAME.resolve(replayed, {seat: PARSER.parse("\n".join(lines)).orders}, rng).state
        assert replayed == states[step]
