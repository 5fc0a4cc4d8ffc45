"""Random legal steps for robot players and property tests.

A robot plays every kind of order now and then (moves, heals, trades,
support, the three attacks with SWAP, seals, escapes, rests, slots, DONE,
waiting, policies) but leans toward what a team would do: go for the nearest
unsealed portal (the entrance once all are sealed), seal it, fight what is
in reach, drink a potion when hurt.
"""

from __future__ import annotations

from dataclasses import replace

from pbem.core.cardmap import CardMap
from pbem.core.rng import GameRng

from . import questmap
from .actions import action_problem
from .orders import (
    INVADER,
    MEANIE,
    Action,
    Done,
    Escape,
    Give,
    Heal,
    Melee,
    Move,
    PolicyGuard,
    PolicyLose,
    QuestOrder,
    Ranged,
    Rest,
    Ritual,
    Seal,
    Support,
    Take,
)
from .state import ADVENTURERS, ITEMS, LIFE_COLOURS, PORTALS, Adventurer, QuestState
from .validation import foresee, submission_problems


def sample_step(state: QuestState, card_map: CardMap, seat: str, rng: GameRng) -> list[QuestOrder]:
    """Return a random legal submission for ``seat``'s step (never empty)."""
    roll = rng.random()
    if roll < 0.03:
        return [Done()]
    if roll < 0.06:
        return [_policy(state, seat, rng)]  # a policy alone: the seat waits this step
    own = state.controlled_by(seat)
    planned = {key: rng.randint(0, state.adventurer(key).actions) for key in own}
    if not any(planned.values()):
        first = next(k for k in own if state.adventurer(k).actions > 0 and not state.adventurer(k).escaped)
        planned[first] = 1
    shift = rng.choice([0, 0, 0, 1, 4])
    orders: list[QuestOrder] = []
    foreseen = state
    listed = dict.fromkeys(own, 0)
    for slot in (1, 2):
        for key in own:
            if planned.get(key, 0) < slot:
                continue
            choice = _pick(foreseen, card_map, seat, key, rng)
            if choice is None:
                continue
            listed[key] += 1
            if shift or listed[key] != slot:  # an unslotted line would run at its place in the list
                choice = replace(choice, slot=slot + shift)
            orders.append(choice)
            foreseen = foresee(foreseen, card_map, choice, own)
    refused = {problem.index for problem in submission_problems(state, card_map, seat, orders)}
    orders = [order for index, order in enumerate(orders) if index not in refused]  # a support no check uses
    if not orders:
        orders.append(Done())
    if rng.random() < 0.08:
        orders.append(_policy(state, seat, rng))
    if rng.random() < 0.05:
        orders.append(Done())
    return orders


def _pick(state: QuestState, card_map: CardMap, seat: str, key: str, rng: GameRng) -> Action | None:
    """Return a weighted random action the adventurer may take in ``state``, or None."""
    me = state.adventurer(key)
    if me.card is None or me.actions <= 0:
        return None
    own = state.controlled_by(seat)
    weighted = [(weight, order) for weight, order in _candidates(state, card_map, me)
                if action_problem(state, card_map, seat, order, own) is None]
    if not weighted:
        return None
    total = sum(weight for weight, _ in weighted)
    mark = rng.randint(1, total)
    for weight, order in weighted:
        mark -= weight
        if mark <= 0:
            return order
    raise AssertionError("weighted choice out of range")


def _candidates(state: QuestState, card_map: CardMap, me: Adventurer) -> list[tuple[int, Action]]:
    assert me.card is not None
    key, card = me.key, me.card
    full = me.room <= 0
    swap = next((item for item in ITEMS if me.backpack.count(item)), "") if full else ""
    goal = _goal(state, card_map, card)
    found: list[tuple[int, Action]] = [(40, Escape(key)), (60, Seal(key)), (25, Heal(key)), (4, Ritual(key)),
                                       (1, Rest(key))]
    found += [(30, Melee(key, target, swap)) for target in (INVADER, MEANIE)]
    for near in questmap.neighbours(card_map, card):
        toward = goal is not None and questmap.distance(card_map, near, goal) < questmap.distance(card_map, card, goal)
        found.append((30 if toward else 2, Move(key, near)))
        found += [(20, Ranged(key, near, target, swap)) for target in (INVADER, MEANIE)]
    for other in state.adventurers_on(card):
        if other.key == key:
            continue
        found.append((3, Support(key, other.key)))
        found += [(1, Give(key, item, other.key)) for item in ITEMS if me.backpack.count(item)]
        found += [(1, Take(key, item, other.key)) for item in ITEMS if other.backpack.count(item)]
    return found


def _goal(state: QuestState, card_map: CardMap, card: str) -> str | None:
    """The card a robot heads for: the nearest unsealed portal, or the entrance once all are sealed."""
    if state.all_sealed:
        return questmap.entrance(card_map)
    portals = [questmap.portal_card(card_map, p) for p in PORTALS if not state.is_sealed(p)]
    return min(portals, key=lambda target: questmap.distance(card_map, card, target))


def _policy(state: QuestState, seat: str, rng: GameRng) -> QuestOrder:
    if rng.random() < 0.5:
        key = rng.choice(state.controlled_by(seat))
        colours = list(LIFE_COLOURS[key])
        rng.shuffle(colours)
        return PolicyLose(key, tuple(colours))
    order = list(ADVENTURERS)
    rng.shuffle(order)
    return PolicyGuard(tuple(order[: rng.randint(0, len(order))]))
