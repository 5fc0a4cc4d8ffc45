"""Random All in a Day's Work games: every game ends within its round cap, resources and building
cubes are conserved, scores never fall, and the game replays from its seed and order text."""

from __future__ import annotations

from days_work_builders import GAME
from game_replay import random_game, replay_states
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import OutcomeKind
from pbem.core.bag import Bag
from pbem.games.days_work.card import BUILDINGS, DISCS, RESOURCES, SUPPLY_EACH, TOP_STEP
from pbem.games.days_work.state import DayState
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
BOX = Bag.filled(RESOURCES, SUPPLY_EACH)
SEATS = ("1", "2")


def _check(state: DayState, before: DayState) -> None:
    assert state.supply + state.hands[0] + state.hands[1] == BOX  # no resource made or lost
    for seat in state.seats:
        assert 0 <= state.buildings_left(seat) <= BUILDINGS
        assert 0 <= state.temple[state.index(seat)] <= TOP_STEP
    assert len({space for space, _ in state.discs}) == len(state.discs) <= 2 * DISCS
    assert all(a >= b for a, b in zip(state.scores, before.scores, strict=True))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), max_rounds=st.integers(1, 20), lazy=st.floats(0, 1))
def test_random_play_ends_within_the_cap_with_everything_conserved(seed: int, max_rounds: int, lazy: float) -> None:
    options = {"max_rounds": str(max_rounds), "start": "random"}
    states, turns = random_game(GAME, SEATS, options, seed, lazy=lazy, max_steps=2 * DISCS * max_rounds,
                                check=_check)
    state = states[-1]
    outcome = GAME.outcome(state)
    assert outcome is not None, "the round cap must end every game"
    assert state.round <= max_rounds
    if outcome.kind is OutcomeKind.DRAW:
        assert state.scores[0] == state.scores[1]
    else:
        assert outcome.kind is OutcomeKind.WIN and GAME.scores(state)[outcome.winners[0]] == max(state.scores)
    assert replay_states(GAME, PARSER, seed, SEATS, options, turns) == states
