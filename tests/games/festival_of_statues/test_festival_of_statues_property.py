"""Random Festival of Statues games from sample_orders and NMR defaults: every game ends within
its round cap, in a win or a draw, with statues conserved and the replay exact."""

from __future__ import annotations

from festival_builders import GAME
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng, OutcomeKind
from pbem.games.festival_of_statues.board import winning_pattern
from pbem.games.festival_of_statues.state import STATUES
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), max_rounds=st.integers(1, 40), move_any=st.booleans(),
       lazy=st.floats(0, 0.5))
def test_random_play_ends_in_a_win_or_a_draw_within_the_cap(seed: int, max_rounds: int, move_any: bool,
                                                            lazy: float) -> None:
    options = {"max_rounds": str(max_rounds), "move_any": "yes" if move_any else "no", "start": "random"}
    rng, robot = GameRng(seed), GameRng(seed + 1)
    state = GAME.setup(("1", "2"), options, rng)
    texts = []
    states = [state]
    for _ in range(2 * max_rounds):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.phase(state).seats[0]
        forced = GAME.forced_orders(state, seat)
        if forced is not None:
            orders = forced
        elif robot.random() < lazy:
            orders = GAME.default_orders(state, seat)
        else:
            orders = GAME.sample_orders(state, seat, robot)
        assert GAME.validate(state, seat, orders) == []
        texts.append((seat, [str(o) for o in orders]))
        before = state
        state = GAME.resolve(state, {seat: orders}, rng).state
        for s in state.seats:
            assert 0 <= state.supply(s) <= STATUES
            assert state.board.count(s) + state.supply(s) == STATUES
        assert state.round >= before.round and state.round <= max_rounds
        states.append(state)
    outcome = GAME.outcome(state)
    assert outcome is not None, "the round cap must end every game"
    patterns = [s for s in state.seats if winning_pattern(state.board, s) is not None]
    if outcome.kind is OutcomeKind.WIN:
        assert list(outcome.winners) == patterns
    else:
        assert outcome.kind is OutcomeKind.DRAW and patterns == [] and state.round == max_rounds
    # the game replays from the seed and the order text alone
    rng = GameRng(seed)
    replayed = GAME.setup(("1", "2"), options, rng)
    for step, (seat, lines) in enumerate(texts, start=1):
        replayed = GAME.resolve(replayed, {seat: PARSER.parse("\n".join(lines)).orders}, rng).state
        assert replayed == states[step]


def test_random_games_reach_both_endings() -> None:
    """Over a few seeds with the default cap some games are won and a short cap gives draws."""
    kinds = set()
    for seed in range(12):
        for max_rounds in ("40", "2"):
            rng, robot = GameRng(seed), GameRng(seed + 50)
            state = GAME.setup(("1", "2"), {"max_rounds": max_rounds}, rng)
            while GAME.outcome(state) is None:
                seat = state.to_play
                state = GAME.resolve(state, {seat: GAME.sample_orders(state, seat, robot)}, rng).state
            kinds.add(GAME.outcome(state).kind)
    assert kinds == {OutcomeKind.WIN, OutcomeKind.DRAW}
