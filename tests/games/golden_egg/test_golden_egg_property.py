"""Random Great Golden Egg games: every one ends by the round cap at the latest, adventurers are never lost
or made, scores are the cliff values, and a replay from the order text gives the same game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from golden_egg_builders import GAME, PARSER
from random_play import play_randomly

from pbem.core import GameRng
from pbem.games.golden_egg.state import ADVENTURERS, CLIFFS, VALUES, GoldenEggState


def _invariants(state: GoldenEggState, before: GoldenEggState | None) -> None:
    for i in range(3):
        assert all(n >= 0 for n in state.pieces[i]) and 0 <= state.supply(i) <= ADVENTURERS
        if before is not None:
            assert state.supply(i) <= before.supply(i), "an adventurer went back to the supply"
            assert state.supply(i) >= before.supply(i) - 1, "two adventurers added at once"
    assert state.round <= state.max_rounds
    assert GAME.scores(state) == {s: sum(VALUES[c] * state.count(i, c) for c in CLIFFS)
                                  for i, s in enumerate(state.seats)}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), robot_seed=st.integers(0, 10**6), max_rounds=st.integers(1, 40),
       nmr=st.sampled_from([0.0, 0.2, 1.0]))
def test_random_play_ends_by_the_cap_keeps_every_adventurer_and_replays(seed: int, robot_seed: int,
                                                                       max_rounds: int, nmr: float) -> None:
    options = {"max_rounds": str(max_rounds)}
    played = play_randomly(GAME, 3, seed, robot_seed, nmr=nmr, options=options, check=_invariants,
                           max_steps=5 * max_rounds + 5)
    final = played.final
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.winners
    best = max(GAME.scores(final).values())
    assert {s for s, v in GAME.scores(final).items() if v == best} == set(outcome.winners)
    ended_early = any(all(final.pieces[i]) or not final.supply(i) for i in range(3))
    assert ended_early or final.round == max_rounds
    rng = GameRng(seed)
    state = GAME.setup(GAME.seat_names(3), options, rng)
    for texts in played.texts:
        state = GAME.resolve(state, {s: PARSER.parse("\n".join(t)).orders for s, t in texts.items()}, rng).state
    assert state == final


def test_nobody_answering_ever_fills_cliff_a_until_a_group_has_placed_all_eight() -> None:
    """The NMR defaults alone (TARGET a, VOTE YES, ADD) end the game in 8 rounds, every adventurer on a."""
    played = play_randomly(GAME, 3, 5, 6, nmr=1.0)
    final = played.final
    assert final.round == 8 and all(final.count(i, "a") == ADVENTURERS for i in range(3))
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.winners == ("1", "2", "3")
