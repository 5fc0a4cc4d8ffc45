"""Phase 2, the enemies' phase: played by the service alone, in the rule book's order.

1. Spawn 3 invaders on the unsealed portals.
2. The Magic Meanie activates (along his status track, then into the forest).
3. Every invader not on a card with an adventurer steps toward the nearest adventurer.
4. Every invader on a card with an adventurer attacks; each attack is a blue check.
5. The Magic Meanie attacks every adventurer on his card; each a blue check.

Where the book says "you choose", the plan's fixed rules and the players'
standing policies decide (see :mod:`.policies` and the HELP text). The phase
stops at once when an adventurer loses the last life cube.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pbem.core import Event
from pbem.core.cardmap import CardMap
from pbem.core.rng import GameRng

from . import questmap
from .checks import roll_check
from .policies import colour_to_lose, guard_order
from .state import MEANIE_SPACES, PORTAL_COLOURS, PORTALS, QuestState

SPAWNS = 3
DEFENCE_COLOUR = "blue"


def enemy_phase(state: QuestState, card_map: CardMap, rng: GameRng, label: str) -> tuple[QuestState, list[Event]]:
    """Play the whole enemies' phase; returns the new state (``result`` ``defeat`` when an
    adventurer died) and the events."""
    events: list[Event] = []
    for part in (spawn, activate_meanie, move_invaders):
        state, more = part(state, card_map, label)
        events += more
    for attacks in (invaders_attack, meanie_attacks):
        state, more = attacks(state, card_map, rng, label)
        events += more
        if state.is_over:
            break
    return state, events


# --- 1. spawn -----------------------------------------------------------------------------------------


def spawn_order(state: QuestState, card_map: CardMap) -> list[str]:
    """Return the portals that get the round's new invaders, one entry per invader, in placing order.

    Three unsealed portals: one each. Two: one each, then a second on the
    portal nearest any adventurer. One: all three there. Portals are taken
    nearest the adventurers first (ties: green, blue, yellow), so a short
    supply fills the nearest first.
    """
    unsealed = [p for p in PORTALS if not state.is_sealed(p)]
    if not unsealed:
        return []
    cards = [a.card for a in state.active() if a.card is not None]

    def nearness(portal: str) -> tuple[int, int]:
        steps = questmap.nearest(card_map, questmap.portal_card(card_map, portal), cards)
        return (steps if steps is not None else len(card_map.cards), PORTALS.index(portal))

    ordered = sorted(unsealed, key=nearness)
    placing = list(ordered)
    while len(placing) < SPAWNS:
        placing.append(ordered[0])
    return placing


def spawn(state: QuestState, card_map: CardMap, label: str) -> tuple[QuestState, list[Event]]:
    """Put the round's new invaders on the unsealed portals, as many as the supply holds."""
    placing = spawn_order(state, card_map)
    if not placing:
        return state, [Event("spawn", "Every portal is sealed: no invaders come.", label)]
    placed = placing[: state.supply]
    if not placed:
        return state, [Event("spawn", "The supply of invaders is empty: none come this round.", label)]
    counts = Counter(questmap.portal_card(card_map, p) for p in placed)
    state = _add_invaders(state, card_map, counts)
    where = ", ".join(f"{n} on the {PORTAL_COLOURS[p]} portal ({questmap.portal_card(card_map, p)})"
                      for p, n in Counter(placed).items())
    short = f" (the supply held only {len(placed)})" if len(placed) < len(placing) else ""
    return state, [Event("spawn", f"New invaders come through the portals: {where}{short}.", label,
                         data={"placed": dict(counts)})]


def _add_invaders(state: QuestState, card_map: CardMap, extra: Counter[str]) -> QuestState:
    counts = Counter(dict(state.invaders)) + extra
    return replace(state, invaders=_ordered(card_map, counts))


def _ordered(card_map: CardMap, counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple((card, counts[card]) for card in questmap.card_names(card_map) if counts[card] > 0)


# --- 2. the Magic Meanie activates -----------------------------------------------------------------


def meanie_entry(state: QuestState, card_map: CardMap) -> str | None:
    """Return the forest card the Magic Meanie enters, or None when no adventurer is on a forest card.

    Among the forest cards holding adventurers: the fewest adventurers, then the
    farthest from any unsealed portal, then the first in map order.
    """
    candidates = [card for card in questmap.card_names(card_map)
                  if questmap.is_forest(card_map, card) and state.adventurers_on(card)]
    if not candidates:
        return None
    portals = [questmap.portal_card(card_map, p) for p in PORTALS if not state.is_sealed(p)]

    def rank(card: str) -> tuple[int, int, int]:
        away = questmap.nearest(card_map, card, portals)
        return (len(state.adventurers_on(card)), -(away or 0), questmap.map_index(card_map, card))

    return min(candidates, key=rank)


def activate_meanie(state: QuestState, card_map: CardMap, label: str) -> tuple[QuestState, list[Event]]:
    """Move the Magic Meanie one space along his status track, or from its last space into the forest."""
    meanie = state.meanie
    if meanie.card is not None:
        return state, [Event("meanie", f"The Magic Meanie stays on {meanie.card}.", label)]
    if meanie.space < len(MEANIE_SPACES) - 1:
        meanie = replace(meanie, space=meanie.space + 1)
        return replace(state, meanie=meanie), [
            Event("meanie", f"The Magic Meanie moves to space {meanie.space_name} of the status card.", label)]
    card = meanie_entry(state, card_map)
    if card is None:
        return state, [Event("meanie", "The Magic Meanie waits on space 3+: no adventurer is on a forest card.",
                             label)]
    who = " and the ".join(a.name for a in state.adventurers_on(card))
    return replace(state, meanie=replace(meanie, card=card)), [
        Event("meanie", f"The Magic Meanie enters the forest on {card}, where the {who} stands.", label,
              data={"card": card})]


# --- 3. the invaders move ----------------------------------------------------------------------------


def invader_steps(state: QuestState, card_map: CardMap, card: str, count: int) -> list[str]:
    """Return where each of ``count`` invaders on ``card`` steps (one card each).

    They head for the nearest adventurers; equally near adventurers on
    different cards share them round-robin (adventurer order W, K, A, C), and
    each such card's equally short first steps share its invaders in turn (map
    order). Invaders on a card with an adventurer, or with nobody left on the
    map, stay (an empty list).
    """
    places = [a.card for a in state.active() if a.card is not None]
    if not places or card in places:
        return []
    near = min(questmap.distance(card_map, card, place) for place in places)
    goals: list[str] = []
    for adventurer in state.active():
        if adventurer.card is not None and adventurer.card not in goals \
                and questmap.distance(card_map, card, adventurer.card) == near:
            goals.append(adventurer.card)
    visits: Counter[str] = Counter()
    steps: list[str] = []
    for number in range(count):
        goal = goals[number % len(goals)]
        firsts = questmap.first_steps(card_map, card, goal)
        steps.append(firsts[visits[goal] % len(firsts)])
        visits[goal] += 1
    return steps


def move_invaders(state: QuestState, card_map: CardMap, label: str) -> tuple[QuestState, list[Event]]:
    """Move every invader that is not on a card with an adventurer one card toward the nearest."""
    after: Counter[str] = Counter()
    moves: list[str] = []
    for card, count in state.invaders:
        steps = invader_steps(state, card_map, card, count)
        if not steps:
            after[card] += count
            continue
        for target, n in Counter(steps).items():
            after[target] += n
            moves.append(f"{n} from {card} to {target}")
    if not moves:
        return state, []
    return replace(state, invaders=_ordered(card_map, after)), [
        Event("invaders-move", f"The invaders move: {'; '.join(moves)}.", label)]


# --- 4. and 5. attacks ---------------------------------------------------------------------------------


def invaders_attack(state: QuestState, card_map: CardMap, rng: GameRng, label: str) -> tuple[QuestState, list[Event]]:
    """Every invader on a card with an adventurer attacks; the GUARD policy picks the target."""
    events: list[Event] = []
    for card, count in state.invaders:
        for _ in range(count):
            present = state.adventurers_on(card)
            if not present:
                break
            target = guard_order(state, present)[0]
            state, more = _defend(state, target.key, f"an invader on {card}", rng, label)
            events += more
            if state.is_over:
                return state, events
    return state, events


def meanie_attacks(state: QuestState, card_map: CardMap, rng: GameRng, label: str) -> tuple[QuestState, list[Event]]:
    """The Magic Meanie, on a forest card, attacks every adventurer there."""
    card = state.meanie.card
    if card is None:
        return state, []
    events: list[Event] = []
    for adventurer in state.adventurers_on(card):
        state, more = _defend(state, adventurer.key, "the Magic Meanie", rng, label)
        events += more
        if state.is_over:
            break
    return state, events


def _defend(state: QuestState, key: str, attacker: str, rng: GameRng, label: str) -> tuple[QuestState, list[Event]]:
    """One attack on adventurer ``key``: a blue check, and a life cube lost (POLICY LOSE) on failure."""
    me = state.adventurer(key)
    check = roll_check(rng, me.cubes(DEFENCE_COLOUR))
    seat = state.controller(key)
    text = f"{attacker[0].upper()}{attacker[1:]} attacks the {me.name}; the {me.name} defends: " \
           f"{check.describe(DEFENCE_COLOUR)}"
    data = {"adventurer": key, "die": check.die, "total": check.total, "success": check.succeeds}
    if check.succeeds:
        return state, [Event("defence", text + ": defended.", label, seat=seat, data=data)]
    colour = colour_to_lose(me)
    me = replace(me, life=me.life.remove([colour]))
    state = state.with_adventurer(me)
    lost = f"{' a 1 always fails;' if check.natural_one else ''} the {me.name} loses a {colour} life cube " \
           f"({me.life.size} left)."
    events = [Event("defence", text + ":" + lost, label, seat=seat, data={**data, "lost": colour})]
    if me.is_dead:
        reason = f"The {me.name} lost the last life cube in round {state.round}: the quest has failed."
        state = replace(state, result="defeat", end_reason=reason)
        events.append(Event("defeat", reason, label))
    return state, events

