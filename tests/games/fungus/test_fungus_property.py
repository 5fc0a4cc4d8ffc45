"""Random Fungus games from sample_orders to the end, checking the invariants each step."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import Event, GameRng
from pbem.games import find_game
from pbem.games.fungus import board
from pbem.games.fungus.state import DROP, FUNGUS, GEMS_PER_PLAYER, OVER, SETUP, STAGES, FungusState
from pbem.orders import OrderParser

GAME = find_game("fungus")
PARSER = OrderParser(GAME)


def removed_by(events: list[Event]) -> int:
    """Gems that left the game in these events (taken, replaced by a drop, forgone)."""
    count = 0
    for event in events:
        if event.kind == "place" and event.data.get("capture") == "take":
            count += 1
        elif event.kind == "drop":
            count += 1
        elif event.kind == "forgo":
            count += int(event.data["count"])
    return count


def check_state(state: FungusState, previous: FungusState | None, removed: int) -> None:
    players = len(state.seats)
    assert len(state.board) == state.size * state.size
    assert set(state.board) <= {"", *state.seats}
    total = GEMS_PER_PLAYER[players] * players
    assert sum(state.supply) + sum(1 for c in state.board if c) + sum(len(k) for k in state.kept) + removed == total
    assert all(0 <= n <= GEMS_PER_PLAYER[players] for n in state.supply)
    assert all(0 <= n <= 3 for n in state.setup_placed)
    assert state.stage in STAGES
    if not state.aggressive:
        assert all(not k for k in state.kept) and state.stage != DROP
    if previous is not None:
        assert STAGES.index(state.stage) >= STAGES.index(previous.stage)
        assert all(a <= b for a, b in zip(state.supply, previous.supply, strict=True))
    if state.stage == OVER:
        assert state.to_move is None and GAME.outcome(state) is not None
        assert board.is_full(state) or not any(state.supply)
        return
    seat = state.to_move
    assert seat is not None and GAME.outcome(state) is None
    i = state.index(seat)
    if state.stage == SETUP:
        assert state.setup_placed[i] < 3
    if state.stage in (SETUP, FUNGUS):
        assert state.supply[i] > 0 and board.legal_cells(state, seat)
        assert not board.is_full(state)
    if state.stage == FUNGUS:
        assert all(n == 3 for n in state.setup_placed)
    if state.stage == DROP:
        assert state.kept[i] and seat in state.board


def check_orders(state: FungusState, seat: str, orders: list[Any]) -> None:
    assert GAME.validate(state, seat, orders) == []
    assert GAME.validate(state, seat, GAME.default_orders(state, seat)) == []
    forced = GAME.forced_orders(state, seat)
    if forced is not None:
        assert GAME.validate(state, seat, forced) == []
        assert len(board.legal_cells(state, seat)) == 1
    for other in state.seats:
        if other != seat:
            assert GAME.validate(state, other, orders)[0].index is None
    texts = [str(o) for o in orders]
    assert PARSER.parse("\n".join(texts)).orders == orders


def play_game(players: int, options: dict[str, str], seed: int) -> tuple[list[FungusState], list[str]]:
    rng = GameRng(seed)
    robot = GameRng(seed + 1)
    state = GAME.setup(GAME.seat_names(players), options, rng)
    states = [state]
    submissions: list[str] = []
    removed = 0
    check_state(state, None, removed)
    for _ in range(state.size * state.size * 3 + 10):
        outcome = GAME.outcome(state)
        if outcome is not None:
            scores = GAME.scores(state)
            assert set(outcome.winners) == {s for s, v in scores.items() if v == max(scores.values())}
            break
        phase = GAME.phase(state)
        assert phase.seats == (state.to_move,)
        seat = phase.seats[0]
        orders = GAME.sample_orders(state, seat, robot)
        check_orders(state, seat, orders)
        result = GAME.resolve(state, {seat: orders}, rng)
        assert all(e.kind != "refused" for e in result.events)
        json.dumps([e.to_json() for e in result.events])
        removed += removed_by(result.events)
        previous, state = state, result.state
        check_state(state, previous, removed)
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
        view = GAME.view(state, None)
        json.dumps(view)
        assert all(GAME.view(state, s) == view for s in state.seats)
        states.append(state)
        submissions.append("\n".join(str(o) for o in orders))
    else:
        raise AssertionError("the game did not end")
    return states, submissions


def replay(players: int, options: dict[str, str], seed: int, submissions: list[str]) -> list[FungusState]:
    rng = GameRng(seed)
    state = GAME.setup(GAME.seat_names(players), options, rng)
    states = [state]
    for text in submissions:
        seat = GAME.phase(state).seats[0]
        state = GAME.resolve(state, {seat: PARSER.parse(text).orders}, rng).state
        states.append(state)
    return states


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    variant=st.sampled_from(["basic", "aggressive"]),
    size=st.sampled_from([5, 6]),
    start=st.sampled_from(["1", "2", "random"]),
    seed=st.integers(0, 2**31),
)
def test_random_games_keep_the_invariants(players: int, variant: str, size: int, start: str, seed: int) -> None:
    options = {"variant": variant, "size": str(size), "start": start}
    states, submissions = play_game(players, options, seed)
    assert states[-1].stage == OVER
    assert replay(players, options, seed, submissions) == states


def test_every_player_count_and_variant_reaches_the_end() -> None:
    seen_drop = False
    for players in (2, 3, 4):
        for variant in ("basic", "aggressive"):
            for seed in range(3):
                states, _ = play_game(players, {"variant": variant, "size": "6"}, seed)
                assert states[-1].stage == OVER
                seen_drop = seen_drop or any(s.stage == DROP for s in states)
    assert seen_drop, "no random aggressive game reached the drop phase"


def test_a_default_size_game_plays_to_the_end() -> None:
    states, _ = play_game(2, {"variant": "aggressive"}, 11)
    assert states[-1].stage == OVER and states[-1].size == 10


def test_a_large_board_ends_when_nobody_has_gems_left() -> None:
    states, _ = play_game(4, {"size": "19"}, 5)
    last = states[-1]
    assert last.stage == OVER and last.ended_because == "Nobody has gems left"
    assert sum(1 for c in last.board if c) == 100
