"""Random legal games of Johnny and the Toe-Sap Fungus, from set-up to the hero, at 2-4 players."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng
from pbem.games.toe_sap_fungus import board, scoring
from pbem.games.toe_sap_fungus.rules import ToeSapFungus
from pbem.games.toe_sap_fungus.state import COLOURS, FINAL, OVER, PLAY, START_COWS, STONES_PER_COLOUR, ToeSapState
from pbem.orders import OrderParser

GAME = ToeSapFungus()
PARSER = OrderParser(GAME)
MAX_STEPS = 500


def check_invariants(state: ToeSapState, before: ToeSapState | None) -> None:
    """What must hold in every position."""
    pieces = [p.square for p in state.players]
    sap_squares = [square for square, _ in state.sap]
    everything = pieces + list(state.shells) + list(state.cownivores) + sap_squares
    assert len(everything) == len(set(everything)), "two things on one square"
    assert all(board.GRID.contains(board.cell(s)) for s in everything)
    assert state.shells <= frozenset(board.SHELL_SQUARES)
    assert len(state.shells) + sum(p.shells for p in state.players) <= len(board.SHELL_SQUARES)
    for colour in COLOURS:
        owner = state.owner_of(colour)
        on_board = sum(1 for _, c in state.sap if c == colour)
        collected = sum(p.collected[COLOURS.index(colour)] for p in state.players)
        in_hand = state.player(owner).stones_of(colour) if owner else 0
        assert in_hand + on_board + collected == (STONES_PER_COLOUR if owner else 0), colour
    for player in state.players:
        assert 0 <= player.cows <= START_COWS and player.shells >= 0
        assert all(n >= 0 for n in player.hand)
        if before is not None:
            old = before.player(player.seat)
            assert player.cows <= old.cows
            assert all(a >= b for a, b in zip(player.collected, old.collected, strict=True))
    if state.stage == PLAY:
        assert all(p.stones_left > 0 for p in state.players)
    if state.stage != OVER:
        assert GAME.phase(state).seats == (state.to_move,)
        assert GAME.outcome(state) is None
    if state.stage == FINAL:
        assert state.final_queue[0] == state.to_move and state.final_queue[-1] == state.trigger_seat
    if scoring.final_values(state) is None:
        assert GAME.scores(state) == {p.seat: p.collected_total for p in state.players}
    data = GAME.dump(state)
    assert GAME.load(json.loads(json.dumps(data))) == state
    view = GAME.view(state, None)
    json.dumps(view)
    assert view == {**GAME.view(state, state.players[0].seat), "seats": view["seats"]}


def play_game(players: int, seed: int, options: dict[str, str]) -> tuple[list[ToeSapState], list[list[str]]]:
    """Play a whole game with random legal turns (some NMR); return every state and the orders sent."""
    rng = GameRng(seed)
    robot = GameRng(seed + 1)
    state = GAME.setup(GAME.seat_names(players), options, rng)
    states, sent = [state], []
    final_turns = 0
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        seat = state.to_move
        assert seat is not None
        forced = GAME.forced_orders(state, seat)
        if forced is not None:
            assert GAME.validate(state, seat, forced) == []
            if state.stage in (PLAY, FINAL):
                assert len(list(board.legal_turns(state, seat))) == len(forced)
            orders: list[Any] = forced
        elif robot.random() < 0.05:
            orders = GAME.default_orders(state, seat)
        else:
            orders = GAME.sample_orders(state, seat, robot)
            assert len(orders) == 1
            assert GAME.validate(state, seat, orders) == [], (orders, GAME.validate(state, seat, orders))
        for other in GAME.seat_names(players):
            if other != seat:
                assert GAME.validate(state, other, orders)[0].index is None
        was_final = state.stage == FINAL
        resolution = GAME.resolve(state, {seat: orders}, rng)
        json.dumps([e.to_json() for e in resolution.events])
        check_invariants(resolution.state, state)
        final_turns += was_final
        state = resolution.state
        states.append(state)
        sent.append([str(o) for o in orders])
    outcome = GAME.outcome(state)
    assert outcome is not None, "the game did not end"
    assert outcome.winners == (scoring.winner(state),)
    if state.trigger_seat is not None:
        assert final_turns == players
    return states, sent


def replay(players: int, seed: int, options: dict[str, str], sent: list[list[str]]) -> list[ToeSapState]:
    rng = GameRng(seed)
    state = GAME.setup(GAME.seat_names(players), options, rng)
    states = [state]
    for texts in sent:
        parsed = PARSER.parse("\n".join(texts))
        assert not parsed.has_problems
        assert state.to_move is not None
        state = GAME.resolve(state, {state.to_move: parsed.orders}, rng).state
        states.append(state)
    return states


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), random_start=st.booleans())
def test_random_games_keep_the_invariants_and_replay(players: int, seed: int, random_start: bool) -> None:
    options = {"start": "random"} if random_start else {}
    states, sent = play_game(players, seed, options)
    assert replay(players, seed, options, sent) == states
