"""Random Farm-cheesi games to the end: invariants, legality of sampled plays, dump/load, replay."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from farm_cheesi_scenarios import GAME, PARSER
from pbem.core import GameRng
from pbem.games.farm_cheesi.board import occupancy
from pbem.games.farm_cheesi.state import CARCASS, FINISH, FarmState

MAX_STEPS = 3000  # a 4-player game takes a few hundred resolves; random legal play of a race ends


def check_invariants(state: FarmState) -> None:
    """Assert what must hold in every reachable state."""
    assert len(state.maggots) == len(state.seats)
    for row in state.maggots:
        assert len(row) == 4 and all(CARCASS <= p <= FINISH for p in row)
    for here in occupancy(state.seats, state.maggots).values():
        assert len(here) <= 2
        owners = {state.seats[i] for i, _ in here}
        if len(owners) == 2:
            first, second = sorted(owners)
            assert state.teams and state.partner(first) == second
    if state.stage == "over":
        assert state.winners and all(state.is_done(s) for s in state.winners)
        assert GAME.outcome(state) is not None
        return
    assert not state.winners and GAME.outcome(state) is None
    assert len(state.roll) == 2 and all(1 <= v <= 6 for v in state.roll)
    # A third doublet ends the turn at once, but a HOME bonus held until the end of the turn is still
    # offered then: only in that bonus step may the state show three doublets.
    assert 0 <= state.doublets <= (3 if state.stage == "bonus" else 2)
    if state.roll[0] == state.roll[1]:
        assert state.doublets >= 1
    assert not state.is_done(state.current)
    if state.stage == "bonus":
        assert state.bonuses and all(b in (10, 20) for b in state.bonuses)
    else:
        assert state.stage == "move" and state.bonuses == ()
    assert GAME.phase(state).seats == (state.current,)


def play_game(players: int, options: dict[str, str], seed: int, nmr_every: int) -> tuple[list[Any], list[list[str]]]:
    """Play a random game (a robot samples from its own rng; the game rng only rolls);
    return the dumped states and the order texts sent at each step."""
    rng, robot = GameRng(seed), GameRng(seed + 1)
    state = GAME.setup(GAME.seat_names(players), options, rng)
    dumps: list[Any] = [GAME.dump(state)]
    sent: list[list[str]] = []
    for step in range(MAX_STEPS):
        check_invariants(state)
        if GAME.outcome(state) is not None:
            return dumps, sent
        seat = GAME.phase(state).seats[0]
        forced = GAME.forced_orders(state, seat)
        if forced is not None:
            orders = forced
        elif nmr_every and step % nmr_every == 0:
            orders = GAME.default_orders(state, seat)
        else:
            orders = GAME.sample_orders(state, seat, robot)
        assert GAME.validate(state, seat, orders) == [], (orders, state)
        json.dumps(GAME.view(state, seat))
        state = GAME.resolve(state, {seat: orders}, rng).state
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
        dumps.append(data)
        sent.append([str(o) for o in orders])
    raise AssertionError(f"no winner after {MAX_STEPS} resolves")


def replay(players: int, options: dict[str, str], seed: int, sent: list[list[str]]) -> list[Any]:
    """Replay a game from its seed and the stored order texts (parsed again)."""
    rng = GameRng(seed)
    state = GAME.setup(GAME.seat_names(players), options, rng)
    dumps = [GAME.dump(state)]
    for texts in sent:
        seat = GAME.phase(state).seats[0]
        parsed = PARSER.parse("\n".join(texts))
        assert not parsed.has_problems
        state = GAME.resolve(state, {seat: parsed.orders}, rng).state
        dumps.append(GAME.dump(state))
    return dumps


@settings(max_examples=6, deadline=None)
@given(
    setup=st.sampled_from([(2, {}), (3, {}), (4, {}), (4, {"teams": "yes"}), (3, {"start": "random"})]),
    seed=st.integers(min_value=0, max_value=2**32),
    nmr_every=st.sampled_from([0, 3]),
)
def test_random_games_end_keep_every_invariant_and_replay(
    setup: tuple[int, dict[str, str]], seed: int, nmr_every: int
) -> None:
    players, options = setup
    dumps, sent = play_game(players, options, seed, nmr_every)
    final = GAME.load(dumps[-1])
    assert GAME.outcome(final) is not None
    if not final.teams:
        assert len(final.winners) == 1
    assert replay(players, options, seed, sent) == dumps


def test_two_three_and_four_players_and_teams_all_play_to_the_end() -> None:
    for players, options in [(2, {}), (3, {}), (4, {}), (4, {"teams": "yes"})]:
        dumps, sent = play_game(players, options, seed=1000 + players, nmr_every=0)
        final = GAME.load(dumps[-1])
        assert GAME.outcome(final) is not None
        assert len(final.winners) == (2 if options else 1)
        assert replay(players, options, 1000 + players, sent) == dumps
