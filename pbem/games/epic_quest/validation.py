"""Checking a player's orders for a step before they are stored.

The actions of the submitting seat's own adventurers are checked in the order
they will run, on the position the submission itself foresees: its moves,
heals and trades are made, its checks are not (their dice are not rolled
yet). So ``MOVE b1`` then ``MELEE INVADER`` is checked on b1, but a potion
an attack might win cannot be drunk in the same step. What depends on
another player's adventurers (being on the same card, room in a backpack) is
checked when the step runs, since their own orders may change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.core import OrderProblem
from pbem.core.cardmap import CardMap

from .actions import action_problem, escaped, handed, healed, moved, spent
from .orders import (
    Action,
    Escape,
    Give,
    Heal,
    Melee,
    Move,
    PolicyGuard,
    PolicyLose,
    QuestOrder,
    Ranged,
    Ritual,
    Seal,
    Support,
    Take,
)
from .policies import policy_problem
from .questmap import find_card
from .state import NAMES, QuestState
from .steps import running_order

CHECKS = (Melee, Ranged, Ritual, Seal)
"""The actions that make a skill or portal check (the ones a support helps)."""

MAX_ORDERS = 40
"""The most order lines one step may hold (eight actions, four escapes, DONE and policies fit easily)."""


def submission_problems(state: QuestState, card_map: CardMap, seat: str,
                        orders: Sequence[QuestOrder]) -> list[OrderProblem]:
    """Return one problem per refused line of ``seat``'s step orders.

    The lines left without a problem form a valid submission on their own:
    the check is repeated without the refused lines (an unslotted line's slot
    depends on the lines before it) until it finds nothing new.
    """
    if len(orders) > MAX_ORDERS:
        return [OrderProblem(None, f"a step takes at most {MAX_ORDERS} order lines, not {len(orders)}")]
    refused: dict[int, str] = {}
    while True:
        found = _problems(state, card_map, seat, orders, refused)
        if not found:
            return [OrderProblem(index, refused[index]) for index in sorted(refused)]
        refused.update(found)


def _problems(state: QuestState, card_map: CardMap, seat: str, orders: Sequence[QuestOrder],
              refused: dict[int, str]) -> dict[int, str]:
    kept = [index for index in range(len(orders)) if index not in refused]
    found: dict[int, str] = {}
    for index in kept:
        order = orders[index]
        if isinstance(order, (PolicyLose, PolicyGuard)):
            problem = policy_problem(state, seat, order)
            if problem is not None:
                found[index] = problem
    own = state.controlled_by(seat)
    foreseen = state
    schedule = running_order({seat: [orders[index] for index in kept]}, [seat])
    for place, scheduled in enumerate(schedule):
        index = kept[scheduled.line]
        problem = action_problem(foreseen, card_map, seat, scheduled.order, own) \
            or _wasted_support(scheduled.order, [later.order for later in schedule[place + 1:]], own)
        if problem is not None:
            found[index] = problem
            continue
        foreseen = foresee(foreseen, card_map, scheduled.order, own)
    return found


def _wasted_support(order: Action, later: Sequence[Action], own: Sequence[str]) -> str | None:
    """Refuse a support of one's own adventurer that no later check of this submission uses."""
    if not isinstance(order, Support) or order.other not in own:
        return None
    if any(isinstance(o, CHECKS) and o.adventurer == order.other for o in later):
        return None
    return (f"the {NAMES[order.other]} makes no check after this support in this step (a step runs by slot @n, "
            "then Warrior, Knight, Archer, Cleric: give the support an earlier slot than the check)")


def foresee(state: QuestState, card_map: CardMap, order: Action, known: Sequence[str]) -> QuestState:
    """Return ``state`` after the sure effects of an allowed action: its cost, a move, a heal, a
    trade, an escape (checks change nothing here: their dice are not rolled yet). A trade
    with an adventurer not in ``known`` changes only the known side."""
    key = order.adventurer
    state = state.with_adventurer(spent(state.adventurer(key), order))
    match order:
        case Move(card=card):
            target = find_card(card_map, card)
            assert target is not None
            return moved(state, key, target)
        case Heal():
            return healed(state, key)
        case Give(item=item, other=other):
            return handed(state, key, other, item)
        case Take(item=item, other=other) if other in known:
            return handed(state, other, key, item)
        case Take(item=item):
            me = state.adventurer(key)
            return state.with_adventurer(replace(me, backpack=me.backpack.add([item])))
        case Escape():
            return escaped(state, key)
    return state
