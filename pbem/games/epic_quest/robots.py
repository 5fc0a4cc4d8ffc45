"""Random legal steps for robot players and property tests.

A robot plays every kind of order now and then (moves, heals, trades,
support, the three attacks with SWAP, seals, escapes, rests, slots, DONE,
waiting, policies) but leans toward what a team would do: head together for
one unsealed portal (the one nearest the entrance; the entrance once all are
sealed), seal it with the best-suited adventurer while the others on the
card support him, fight what is in reach, drink a potion when hurt.
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
from .state import (
    ADVENTURERS,
    ITEMS,
    LIFE_COLOURS,
    PORTAL_COLOURS,
    PORTALS,
    Adventurer,
    QuestState,
)
from .validation import foresee, submission_problems


def sample_step(state: QuestState, card_map: CardMap, seat: str, rng: GameRng) -> list[QuestOrder]:
    """Return a random legal submission for ``seat``'s step (never empty)."""
    roll = rng.random()
    if roll < 0.03:
        return [Done()]
    if roll < 0.05:
        return [_policy(state, seat, rng)]  # a policy alone: the seat waits this step
    own = state.controlled_by(seat)
    orders: list[QuestOrder] = []
    foreseen = state
    for order in _team_seal(state, card_map, own, rng):
        orders.append(order)
        foreseen = foresee(foreseen, card_map, order, own)
    planned = {key: foreseen.adventurer(key).actions if rng.random() < 0.8 else
               rng.randint(0, foreseen.adventurer(key).actions) for key in own}
    shift = 2 if orders else rng.choice([0, 0, 0, 1, 4])
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
    if rng.random() < 0.06:
        orders.append(_policy(state, seat, rng))
    if rng.random() < 0.04:
        orders.append(Done())
    return orders


def _team_seal(state: QuestState, card_map: CardMap, own: tuple[str, ...], rng: GameRng) -> list[Action]:
    """On an unsealed portal where two or more of ``own`` stand with actions: the others support the
    one with the most cubes of its colour (@1), who then tries to seal it (@2)."""
    for portal in PORTALS:
        card = questmap.portal_card(card_map, portal)
        team = [a for a in state.adventurers_on(card) if a.key in own and a.actions > 0]
        if state.is_sealed(portal) or len(team) < 2 or rng.random() < 0.2:
            continue
        colour = PORTAL_COLOURS[portal]
        sealer = max(team, key=lambda a: (a.cubes(colour), -ADVENTURERS.index(a.key)))
        helpers = [a for a in team if a is not sealer]
        return [*(Support(a.key, sealer.key, slot=1) for a in helpers), Seal(sealer.key, slot=2)]
    return []


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
    """Every action worth a thought, with how much a robot likes it (illegal ones are filtered out later)."""
    assert me.card is not None
    key, card = me.key, me.card
    swap = next((item for item in ITEMS if me.backpack.count(item)), "") if me.room <= 0 else ""
    portal = questmap.portal_on(card_map, card)
    sealing = 40 + 30 * me.cubes(PORTAL_COLOURS[portal]) if portal else 0
    found: list[tuple[int, Action]] = [
        (500, Escape(key)), (sealing, Seal(key)), (300 if me.life.size <= 4 else 5, Heal(key)),
        (25 if state.meanie.card is not None else 4, Ritual(key)), (1, Rest(key)),
        (30 + 20 * me.cubes("red"), Melee(key, INVADER, swap)), (20 + 10 * me.cubes("red"), Melee(key, MEANIE)),
    ]
    goal = _goal(state, card_map)
    fighting = state.invaders_on(card) > 0  # stay and fight what would attack here
    for near in questmap.neighbours(card_map, card):
        toward = questmap.distance(card_map, near, goal) < questmap.distance(card_map, card, goal)
        found.append((90 if toward and not fighting else 3, Move(key, near)))
        found.append((15 + 15 * me.cubes("green"), Ranged(key, near, INVADER, swap)))
        found.append((10 + 5 * me.cubes("green"), Ranged(key, near, MEANIE)))
    for other in state.adventurers_on(card):
        if other.key == key:
            continue
        found.append((3, Support(key, other.key)))
        found += [(1, Give(key, item, other.key)) for item in ITEMS if me.backpack.count(item)]
        found += [(1, Take(key, item, other.key)) for item in ITEMS if other.backpack.count(item)]
    return found


def _goal(state: QuestState, card_map: CardMap) -> str:
    """The card the team heads for: the unsealed portal nearest the entrance (ties G, B, Y), or the
    entrance once all are sealed."""
    gate = questmap.entrance(card_map)
    unsealed = [questmap.portal_card(card_map, p) for p in PORTALS if not state.is_sealed(p)]
    if not unsealed:
        return gate
    return min(unsealed, key=lambda target: questmap.distance(card_map, gate, target))


def _policy(state: QuestState, seat: str, rng: GameRng) -> QuestOrder:
    if rng.random() < 0.5:
        key = rng.choice(state.controlled_by(seat))
        colours = list(LIFE_COLOURS[key])
        rng.shuffle(colours)
        return PolicyLose(key, tuple(colours))
    order = list(ADVENTURERS)
    rng.shuffle(order)
    return PolicyGuard(tuple(order[: rng.randint(0, len(order))]))
