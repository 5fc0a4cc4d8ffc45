"""Random Meanies in our Midst games at every player count: every one ends within five missions with a
faction on 3, the 40 mission cubes are all there at every step, the factions never change, and a replay from
the order text gives the same game."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from meanies_builders import GAME, PARSER
from random_play import play_randomly

from pbem.core import GameRng
from pbem.games.meanies.state import COLOURS, CUBES_PER_COLOUR, FACTIONS_BY_PLAYERS, GOAL, MEANIE, MINUTIAN, \
    STAGE_MISSION, MeaniesState


def _invariants(state: MeaniesState, before: MeaniesState | None) -> None:
    total = state.bag
    for hand in state.hands:
        total = total + hand
    assert all(total.count(c) == CUBES_PER_COLOUR for c in COLOURS) and total.size == 40
    holders = [i for i, hand in enumerate(state.hands) if hand.size]
    assert holders == (sorted(state.members) if state.stage == STAGE_MISSION else [])
    assert all(state.hands[i].size == 4 for i in holders)
    greens, reds = FACTIONS_BY_PLAYERS[len(state.seats)]
    assert Counter(state.factions) == {MINUTIAN: greens, MEANIE: reds}
    assert state.minutians + state.meanies == len(state.missions) and max(state.minutians, state.meanies) <= GOAL
    if before is not None:
        assert state.factions == before.factions


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), robot_seed=st.integers(0, 10**6), players=st.integers(4, 9),
       nmr=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_play_ends_within_five_missions_keeps_every_cube_and_replays(seed: int, robot_seed: int, players: int,
                                                                          nmr: float) -> None:
    played = play_randomly(GAME, players, seed, robot_seed, nmr=nmr, check=_invariants, max_steps=3 * 5)
    final = played.final
    outcome = GAME.outcome(final)
    assert outcome is not None and 3 <= len(final.missions) <= 5
    assert set(outcome.winners) == {s for s, f in zip(final.seats, final.factions, strict=True) if f == final.winner}
    rng = GameRng(seed)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    for texts in played.texts:
        state = GAME.resolve(state, {s: PARSER.parse("\n".join(t)).orders for s, t in texts.items()}, rng).state
    assert state == final
