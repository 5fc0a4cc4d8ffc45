"""A round of the quest: the adventurers' action steps, then the enemies' phase.

Phase 1 is a continuation. In each step every player whose adventurers have
actions left sends orders at once; the step runs every action in slot order
(``@n``; without one, an adventurer's first listed action is slot 1, its
second slot 2), then W, K, A, C, then line order. An action that has become
impossible is skipped and not spent. ``DONE`` forfeits the sender's remaining
actions; a step in which nobody spends or forfeits an action ends phase 1 (the
team has stopped). When no action is left, adventurers on the entrance escape
(once every portal is sealed), and the service plays the enemies' phase.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pbem.core import Event
from pbem.core.cardmap import CardMap
from pbem.core.rng import GameRng

from . import questmap
from .actions import Supports, action_problem, escaped, perform
from .enemies import enemy_phase
from .orders import Action, Done, PolicyGuard, PolicyLose, QuestOrder
from .policies import apply_policy, policy_problem
from .state import ACTIONS_PER_ROUND, ADVENTURERS, NAMES, QuestState

VICTORY = ("All three portals are sealed and every adventurer has escaped through the entrance: "
           "Gateway Island is saved!")


@dataclass(frozen=True)
class Scheduled:
    """An action of the step with its seat and its place in that seat's orders."""

    seat: str
    line: int
    order: Action


def running_order(orders: Mapping[str, Sequence[QuestOrder]], seats: Sequence[str]) -> list[Scheduled]:
    """Return the step's actions in the order they run.

    Sorted by slot (an unslotted action takes its place among its adventurer's
    listed actions: first 1, second 2), then adventurer W, K, A, C, then the
    seat's line order.
    """
    entries: list[tuple[tuple[int, int, int, int], Scheduled]] = []
    for seat_index, seat in enumerate(seats):
        listed: Counter[str] = Counter()
        for line, order in enumerate(orders.get(seat, ())):
            if isinstance(order, Action):
                listed[order.adventurer] += 1
                slot = order.slot if order.slot is not None else listed[order.adventurer]
                key = (slot, ADVENTURERS.index(order.adventurer), seat_index, line)
                entries.append((key, Scheduled(seat, line, order)))
    entries.sort(key=lambda entry: entry[0])
    return [scheduled for _, scheduled in entries]


def owing_seats(state: QuestState) -> tuple[str, ...]:
    """Return the seats whose adventurers still have actions this round, in seat order."""
    return tuple(seat for seat in state.seats
                 if any(state.adventurer(k).actions > 0 and not state.adventurer(k).escaped
                        for k in state.controlled_by(seat)))


def step_label(state: QuestState) -> str:
    """The report heading of the step being resolved: ``Round 2, step 1``."""
    return f"Round {state.round}, step {state.step}"


def resolve_step(state: QuestState, card_map: CardMap, orders: Mapping[str, Sequence[QuestOrder]],
                 rng: GameRng) -> tuple[QuestState, list[Event]]:
    """Run one action step with every owing seat's orders; when no action is left, finish the
    round (escapes, the enemies' phase, the next round). Returns the new state and the events."""
    label = step_label(state)
    seats = owing_seats(state)
    state, events = _policies(state, orders, seats, label)
    supports = Supports()
    progress = False
    for scheduled in running_order(orders, seats):
        seat, order = scheduled.seat, scheduled.order
        problem = action_problem(state, card_map, seat, order, ADVENTURERS)
        if problem is not None:
            events.append(Event("skipped", f"{order}: skipped, not spent: {problem}.", label, seat=seat,
                                data={"order": str(order)}))
            continue
        state, more = perform(state, card_map, order, rng, supports, label)
        events += more
        progress = True
        if all(a.escaped for a in state.adventurers):
            return _won(state, label, events)
    events += _wasted(supports, label)
    for seat in seats:
        if any(isinstance(order, Done) for order in orders.get(seat, ())):
            state, forfeited = _forfeit(state, state.controlled_by(seat), f"Seat {seat} is done for this round", label)
            events += forfeited
            progress = progress or bool(forfeited)
    if not progress:
        state, stopped = _forfeit(state, ADVENTURERS, "Nobody acted in this step: the adventurers' phase ends", label)
        events += stopped
    if owing_seats(state):
        return replace(state, step=state.step + 1), events
    state, more = finish_round(state, card_map, rng)
    return state, events + more


def finish_round(state: QuestState, card_map: CardMap, rng: GameRng) -> tuple[QuestState, list[Event]]:
    """End phase 1 (escapes at the entrance once every portal is sealed), play the enemies'
    phase, and open the next round, or end the quest (victory, defeat, or the round cap)."""
    label = f"Round {state.round}, end of the adventurers' phase"
    events: list[Event] = []
    if state.all_sealed:
        gate = questmap.entrance(card_map)
        for adventurer in state.adventurers_on(gate):
            state = escaped(state, adventurer.key)
            events.append(Event("escape", f"The {adventurer.name} escapes through the entrance.", label,
                                seat=state.controller(adventurer.key), data={"adventurer": adventurer.key}))
        if all(a.escaped for a in state.adventurers):
            return _won(state, label, events)
    state, more = enemy_phase(state, card_map, rng, f"Round {state.round}, the enemies")
    events += more
    if state.is_over:
        return state, events
    if state.round >= state.max_rounds:
        reason = (f"Round {state.round} of {state.max_rounds} is over and the quest is not done "
                  f"({state.sealed_count} of 3 portals sealed): the quest has failed.")
        events.append(Event("defeat", reason, f"Round {state.round}, the enemies"))
        return replace(state, result="defeat", end_reason=reason), events
    adventurers = tuple(replace(a, actions=0 if a.escaped else ACTIONS_PER_ROUND) for a in state.adventurers)
    return replace(state, round=state.round + 1, step=1, adventurers=adventurers), events


def _policies(state: QuestState, orders: Mapping[str, Sequence[QuestOrder]], seats: Sequence[str],
              label: str) -> tuple[QuestState, list[Event]]:
    events: list[Event] = []
    for seat in seats:
        for order in orders.get(seat, ()):
            if isinstance(order, (PolicyLose, PolicyGuard)):
                problem = policy_problem(state, seat, order)
                if problem is not None:
                    events.append(Event("skipped", f"Not done: {problem}.", label, seat=seat))
                    continue
                state, event = apply_policy(state, seat, order, label)
                events.append(event)
    return state, events


def _wasted(supports: Supports, label: str) -> list[Event]:
    return [Event("support-wasted", f"The {NAMES[helper]}'s support is wasted: the {NAMES[supported]} made no "
                  "check after it in this step.", label, data={"adventurer": helper})
            for supported, helpers in supports.given.items() for helper in helpers]


def _forfeit(state: QuestState, keys: Sequence[str], why: str, label: str) -> tuple[QuestState, list[Event]]:
    """Take every remaining action of the adventurers ``keys``; an event when any was left."""
    lost = [(k, state.adventurer(k).actions) for k in keys
            if state.adventurer(k).actions > 0 and not state.adventurer(k).escaped]
    if not lost:
        return state, []
    for key, _ in lost:
        state = state.with_adventurer(replace(state.adventurer(key), actions=0))
    listed = ", ".join(f"the {NAMES[k]} {n} action{'s' if n > 1 else ''}" for k, n in lost)
    return state, [Event("forfeit", f"{why}: forfeited {listed}.", label)]


def _won(state: QuestState, label: str, events: list[Event]) -> tuple[QuestState, list[Event]]:
    return replace(state, result="victory", end_reason=VICTORY), events + [Event("victory", VICTORY, label)]
