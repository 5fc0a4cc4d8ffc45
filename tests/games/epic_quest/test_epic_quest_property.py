"""Random Epic Quests from sample_orders at every player count: they end (victory, defeat or the cap),
keep the game's invariants and replay exactly from the seed and the order text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from epic_quest_builders import GAME
from game_replay import replay_dumps
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng, OutcomeKind
from pbem.games.epic_quest.orders import Action
from pbem.games.epic_quest.state import (
    BAG_POTIONS,
    BAG_UPGRADES_PER_COLOUR,
    COLOURS,
    INVADERS,
    MEANIE_LIFE,
    QuestState,
    starting_life,
)
from pbem.orders import OrderParser

PARSER = OrderParser(GAME)
MAX_STEPS = 8 * 30 + 30
"""At most 8 actions a round each make progress, or the round ends: 30 rounds by default."""


def _check_invariants(state: QuestState, before: QuestState | None) -> None:
    for colour in COLOURS:  # upgrades never leave the game
        held = sum(a.backpack.count(colour) for a in state.adventurers)
        assert held + state.bag.count(colour) == BAG_UPGRADES_PER_COLOUR
    potions = state.bag.count("potion") + sum(a.backpack.count("potion") for a in state.adventurers)
    assert potions <= BAG_POTIONS
    for adventurer in state.adventurers:
        assert adventurer.backpack.size <= 4 and 0 <= adventurer.actions <= 2
        start = starting_life(adventurer.key)
        assert all(adventurer.life.count(c) <= start.count(c) for c in COLOURS)
        assert adventurer.escaped == (adventurer.card is None)
    assert all(count > 0 for _, count in state.invaders) and state.invaders_on_map <= INVADERS
    assert 1 <= state.meanie.life <= MEANIE_LIFE and 0 <= state.meanie.space <= 2
    if before is not None:
        assert (state.round, state.step) > (before.round, before.step) or state.is_over
        assert {a.key for a in before.adventurers if a.escaped} <= {a.key for a in state.adventurers if a.escaped}
        assert state.sealed_count >= before.sealed_count
    if state.is_over:
        assert state.result in ("victory", "defeat") and state.end_reason
        if state.result == "victory":
            assert state.all_sealed and all(a.escaped for a in state.adventurers)
    else:
        assert GAME.phase(state).seats and state.round <= state.max_rounds


def _play(seed: int, players: int, robot_seed: int) -> tuple[list[dict[str, Any]], list[dict[str, list[str]]]]:
    rng, robot = GameRng(seed), GameRng(robot_seed)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    dumps, texts = [GAME.dump(state)], []
    for _ in range(MAX_STEPS):
        if GAME.outcome(state) is not None:
            break
        orders = {}
        for seat in GAME.phase(state).seats:
            chosen = GAME.sample_orders(state, seat, robot)
            assert chosen and GAME.validate(state, seat, chosen) == [], [str(o) for o in chosen]
            orders[seat] = chosen
        texts.append({seat: [str(o) for o in chosen] for seat, chosen in orders.items()})
        before, state = state, GAME.resolve(state, orders, rng).state
        _check_invariants(state, before)
        assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
        dumps.append(GAME.dump(state))
    assert GAME.outcome(state) is not None, f"no end after {MAX_STEPS} steps"
    return dumps, texts


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), robot_seed=st.integers(0, 2**32))
def test_random_quests_end_keep_the_invariants_and_replay_exactly(seed: int, robot_seed: int, players: int) -> None:
    dumps, texts = _play(seed, players, robot_seed)
    assert replay_dumps(GAME, PARSER, seed, players, texts) == dumps


def test_robots_play_every_kind_of_order_and_reach_both_ends() -> None:
    """sample_orders produce every kind of legal play (the conformance test and the robots use it)."""
    verbs: set[str] = set()
    results: set[str] = set()
    for seed in range(40):
        rng, robot = GameRng(seed), GameRng(seed + 500)
        state = GAME.setup(GAME.seat_names(1 + seed % 4), {}, rng)
        while GAME.outcome(state) is None:
            orders = {seat: GAME.sample_orders(state, seat, robot) for seat in GAME.phase(state).seats}
            for chosen in orders.values():
                for order in chosen:
                    verbs.add(order.verb if isinstance(order, Action) else str(order).split()[0] +
                              (" " + str(order).split()[1] if str(order).startswith("POLICY") else ""))
                    if isinstance(order, Action) and order.slot is not None:
                        verbs.add("@n")
                    if "SWAP" in str(order):
                        verbs.add("SWAP")
            state = GAME.resolve(state, orders, rng).state
        results.add(GAME.outcome(state).kind.value)  # type: ignore[union-attr]
    assert verbs >= {"MOVE", "HEAL", "GIVE", "TAKE", "SUPPORT", "MELEE", "RANGED", "RITUAL", "SEAL", "REST", "DONE",
                     "POLICY LOSE", "POLICY GUARD", "@n"}
    assert OutcomeKind.LOSS.value in results
