"""Random Great Battles: every battle ends within the turn limit, cubes only ever leave the
supplies, no two units share a hex, and the battle replays from its seed and order text."""

from __future__ import annotations

from game_replay import random_game, replay_states
from great_battle_builders import GAME, PARSER
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng, OutcomeKind
from pbem.games.great_battle.board import BASE_CELLS, CUBES
from pbem.games.great_battle.state import BattleState

SEATS = ("1", "2")


def _check(state: BattleState, before: BattleState) -> None:
    cells = [unit.cell for unit in state.units]
    assert len(cells) == len(set(cells)), "two units on one hex"
    if not state.winners:
        assert not set(cells) & BASE_CELLS, "a unit stands on a base without a win"
    for i in (0, 1):
        for colour in state.colours(i):
            on_island = sum(u.level for u in state.units if u.colour == colour)
            supply = state.supply[i].count(colour)
            assert on_island + supply <= CUBES
            assert supply <= before.supply[i].count(colour)  # cubes only ever leave the supply


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), turn_limit=st.integers(2, 60), lazy=st.floats(0, 1))
def test_random_battles_end_within_the_turn_limit_and_replay(seed: int, turn_limit: int, lazy: float) -> None:
    options = {"turn_limit": str(turn_limit), "start": "random"}
    states, turns = random_game(GAME, SEATS, options, seed, lazy=lazy, max_steps=turn_limit + 2, check=_check)
    state = states[-1]
    outcome = GAME.outcome(state)
    assert outcome is not None, "the turn limit must end every battle"
    assert state.turns <= turn_limit
    if outcome.kind is OutcomeKind.DRAW:
        assert state.strength(0) == state.strength(1)
    assert replay_states(GAME, PARSER, seed, SEATS, options, turns) == states


def test_nmr_alone_plays_a_battle_to_its_turn_limit() -> None:
    """Two absent generals spawn until their supplies or the hexes next to their bases run out,
    then pass: the turn limit ends the battle on the total unit level."""
    rng = GameRng(4)
    state = GAME.setup(SEATS, {}, rng)
    while GAME.outcome(state) is None:
        state = GAME.resolve(state, {state.to_play: GAME.default_orders(state, state.to_play)}, rng).state
    assert state.turns == 60 and GAME.outcome(state).kind is OutcomeKind.DRAW
