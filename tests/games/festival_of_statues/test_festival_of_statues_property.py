"""Random Festival of Statues games from sample_orders and NMR defaults: every game ends within
its round cap, in a win or a draw, with statues conserved and the replay exact."""

from __future__ import annotations

from festival_builders import GAME
from game_replay import random_game, replay_states
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import OutcomeKind
from pbem.games.festival_of_statues.board import winning_pattern
from pbem.games.festival_of_statues.state import STATUES, FestivalState
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
SEATS = ("1", "2")


def _check(state: FestivalState, before: FestivalState) -> None:
    for seat in state.seats:
        assert 0 <= state.supply(seat) <= STATUES
        assert state.board.count(seat) + state.supply(seat) == STATUES
    assert before.round <= state.round <= state.max_rounds


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), max_rounds=st.integers(1, 40), move_any=st.booleans(),
       lazy=st.floats(0, 0.5))
def test_random_play_ends_in_a_win_or_a_draw_within_the_cap(seed: int, max_rounds: int, move_any: bool,
                                                            lazy: float) -> None:
    options = {"max_rounds": str(max_rounds), "move_any": "yes" if move_any else "no", "start": "random"}
    states, turns = random_game(GAME, SEATS, options, seed, lazy=lazy, max_steps=2 * max_rounds, check=_check)
    state = states[-1]
    outcome = GAME.outcome(state)
    assert outcome is not None, "the round cap must end every game"
    patterns = [s for s in state.seats if winning_pattern(state.board, s) is not None]
    if outcome.kind is OutcomeKind.WIN:
        assert list(outcome.winners) == patterns
    else:
        assert outcome.kind is OutcomeKind.DRAW and patterns == [] and state.round == max_rounds
    assert replay_states(GAME, PARSER, seed, SEATS, options, turns) == states


def test_random_games_reach_both_endings() -> None:
    """Over a few seeds with the default cap some games are won and a short cap gives draws."""
    kinds = set()
    for seed in range(12):
        for max_rounds in ("40", "2"):
            states, _ = random_game(GAME, SEATS, {"max_rounds": max_rounds}, seed)
            kinds.add(GAME.outcome(states[-1]).kind)
    assert kinds == {OutcomeKind.WIN, OutcomeKind.DRAW}
