"""The adventurers' actions: whether one can be done now, and doing it.

:func:`action_problem` says why an action cannot be done in a state (the
checker uses it on the state a submission foresees, the step on the real
one); :func:`perform` does it, rolling checks and drawing rewards from the
game's RNG. The plain effects (:func:`moved`, :func:`healed`, :func:`handed`,
:func:`spent`) serve both.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace

from pbem.core import Event
from pbem.core.cardmap import CardMap
from pbem.core.rng import GameRng

from . import questmap
from .checks import Check, PortalResult, goals_text, portal_result, roll_check
from .orders import (
    INVADER,
    Action,
    Escape,
    Give,
    Heal,
    Melee,
    Move,
    Ranged,
    Rest,
    Ritual,
    Seal,
    Support,
    Take,
)
from .state import (
    MEANIE_LIFE,
    NAMES,
    PORTAL_COLOURS,
    PORTALS,
    SEALED,
    Adventurer,
    Meanie,
    QuestState,
    item_text,
    starting_life,
)

MELEE_COLOUR = "red"
RANGED_COLOUR = "green"
RITUAL_COLOUR = "yellow"


@dataclass(frozen=True)
class _EventMaker:
    """Makes the events of one action: its step label, seat, adventurer and order text."""

    label: str
    seat: str
    adventurer: str
    order: str

    def __call__(self, kind: str, text: str, **data: object) -> Event:
        return Event(kind, text, self.label, seat=self.seat,
                     data={"adventurer": self.adventurer, "order": self.order, **data})


@dataclass
class Supports:
    """The supports given in the step being resolved: supported adventurer -> supporters."""

    given: dict[str, list[str]] = field(default_factory=dict)

    def add(self, supporter: str, supported: str) -> None:
        """Record that ``supporter`` supports the next check of ``supported``."""
        self.given.setdefault(supported, []).append(supporter)

    def take(self, supported: str) -> list[str]:
        """Return (and forget) the supporters of ``supported``'s check."""
        return self.given.pop(supported, [])


# --- can it be done? ------------------------------------------------------------------------


def action_problem(state: QuestState, card_map: CardMap, seat: str, order: Action,
                   known: Collection[str]) -> str | None:
    """Return why ``seat`` cannot have ``order`` done in ``state``, or None when it can.

    ``known`` are the adventurers whose place and backpack are sure in
    ``state``: when checking a submission, those of the submitting seat (the
    others' orders in the same step may still move them or change their
    backpacks; those conditions are checked when the step is resolved).
    """
    key = order.adventurer
    me = state.adventurer(key)
    name = NAMES[key]
    if state.controller(key) != seat:
        return f"the {name} is played by seat {state.controller(key)}"
    if me.card is None:
        return f"the {name} has escaped"
    if order.costs_action and me.actions <= 0:
        return f"the {name} has no action left this round"
    match order:
        case Move(card=card):
            return _move_problem(state, card_map, me, card)
        case Heal():
            if not me.backpack.count("potion"):
                return f"the {name} carries no potion"
            if not me.is_hurt:
                return f"the {name} has all six life cubes"
        case Give(item=item, other=other):
            return (_partner_problem(state, me, other, known)
                    or _carries_problem(me, item)
                    or (_room_problem(state.adventurer(other)) if other in known else None))
        case Take(item=item, other=other):
            return (_partner_problem(state, me, other, known)
                    or _room_problem(me)
                    or (_carries_problem(state.adventurer(other), item) if other in known else None))
        case Support(other=other):
            return _partner_problem(state, me, other, known)
        case Melee(target=target, swap=swap):
            return _target_problem(state, me.card, target) or _swap_problem(me, target, swap)
        case Ranged(card=card, target=target, swap=swap):
            found = questmap.find_card(card_map, card)
            if found is None:
                return f"there is no card {card} on the map"
            if not questmap.adjacent(card_map, me.card, found):
                return f"{found} is not next to the {name}'s card {me.card}"
            return _target_problem(state, found, target) or _swap_problem(me, target, swap)
        case Seal():
            portal = questmap.portal_on(card_map, me.card)
            if portal is None:
                return f"the {name}'s card {me.card} is no portal"
            if state.is_sealed(portal):
                return f"the {PORTAL_COLOURS[portal]} portal is sealed already"
        case Escape():
            if me.card != questmap.entrance(card_map):
                return f"the {name} is not on the entrance {questmap.entrance(card_map)}"
            if not state.all_sealed:
                return f"only {state.sealed_count} of the 3 portals are sealed: escape once all are"
    return None


def _move_problem(state: QuestState, card_map: CardMap, me: Adventurer, card: str) -> str | None:
    found = questmap.find_card(card_map, card)
    if found is None:
        return f"there is no card {card} on the map"
    assert me.card is not None
    if not questmap.adjacent(card_map, me.card, found):
        return f"{found} is not next to the {me.name}'s card {me.card}"
    if state.meanie.card == me.card:
        return f"the Magic Meanie holds the {me.name} on {me.card}: nobody on his card can move"
    return None


def _partner_problem(state: QuestState, me: Adventurer, other: str, known: Collection[str]) -> str | None:
    partner = state.adventurer(other)
    if other == me.key:
        return "an adventurer cannot do that with itself"
    if partner.card is None:
        return f"the {partner.name} has escaped"
    if other in known and partner.card != me.card:
        return f"the {partner.name} is on {partner.card}, not on the {me.name}'s card {me.card}"
    return None


def _carries_problem(holder: Adventurer, item: str) -> str | None:
    return None if holder.backpack.count(item) else f"the {holder.name} carries no {item_text(item)[2:]}"


def _room_problem(holder: Adventurer) -> str | None:
    return None if holder.room > 0 else f"the {holder.name}'s backpack is full"


def _target_problem(state: QuestState, card: str, target: str) -> str | None:
    if target == INVADER:
        return None if state.invaders_on(card) else f"there is no invader on {card}"
    return None if state.meanie.card == card else f"the Magic Meanie is not on {card}"


def _swap_problem(me: Adventurer, target: str, swap: str) -> str | None:
    if not swap:
        return None
    if target != INVADER:
        return "defeating the Magic Meanie brings no reward: SWAP goes with an attack on an invader"
    return _carries_problem(me, swap)


# --- plain effects ------------------------------------------------------------------------------


def spent(adventurer: Adventurer, order: Action) -> Adventurer:
    """Return the adventurer with the action's cost paid (nothing for a free order)."""
    return replace(adventurer, actions=adventurer.actions - 1) if order.costs_action else adventurer


def moved(state: QuestState, key: str, card: str) -> QuestState:
    """Return the state with the adventurer on ``card``."""
    return state.with_adventurer(replace(state.adventurer(key), card=card))


def healed(state: QuestState, key: str) -> QuestState:
    """Return the state with the adventurer's potion drunk and its life cubes all back."""
    me = state.adventurer(key)
    return state.with_adventurer(replace(me, life=starting_life(key), backpack=me.backpack.remove(["potion"])))


def handed(state: QuestState, giver: str, taker: str, item: str) -> QuestState:
    """Return the state with ``item`` moved from the giver's backpack to the taker's."""
    state = state.with_adventurer(replace(state.adventurer(giver),
                                          backpack=state.adventurer(giver).backpack.remove([item])))
    return state.with_adventurer(replace(state.adventurer(taker),
                                         backpack=state.adventurer(taker).backpack.add([item])))


def escaped(state: QuestState, key: str) -> QuestState:
    """Return the state with the adventurer gone through the entrance (no actions left)."""
    return state.with_adventurer(replace(state.adventurer(key), card=None, actions=0))


# --- doing it -------------------------------------------------------------------------------------


def perform(state: QuestState, card_map: CardMap, order: Action, rng: GameRng, supports: Supports,
            label: str) -> tuple[QuestState, list[Event]]:
    """Do an action that :func:`action_problem` allows: pay its cost, roll its check, apply it.

    Returns the new state and the events (one per roll, reward and effect).
    """
    key = order.adventurer
    name = NAMES[key]
    state = state.with_adventurer(spent(state.adventurer(key), order))
    me = state.adventurer(key)
    assert me.card is not None or isinstance(order, Escape)
    event = _EventMaker(label, state.controller(key), key, str(order))
    match order:
        case Move(card=card):
            target = questmap.find_card(card_map, card)
            assert target is not None
            return moved(state, key, target), [event("move", f"The {name} moves from {me.card} to {target}.")]
        case Heal():
            return healed(state, key), [event("heal", f"The {name} drinks a potion and has all six life cubes again.")]
        case Give(item=item, other=other):
            text = f"The {name} gives {item_text(item)} to the {NAMES[other]}."
            return handed(state, key, other, item), [event("trade", text)]
        case Take(item=item, other=other):
            text = f"The {name} takes {item_text(item)} from the {NAMES[other]}."
            return handed(state, other, key, item), [event("trade", text)]
        case Support(other=other):
            supports.add(key, other)
            return state, [event("support", f"The {name} supports the {NAMES[other]}'s next check in this step.")]
        case Melee(target=target, swap=swap):
            assert me.card is not None
            return _attack(state, card_map, me, me.card, target, swap, MELEE_COLOUR, "melee", rng, supports, event)
        case Ranged(card=card, target=target, swap=swap):
            found = questmap.find_card(card_map, card)
            assert found is not None
            return _attack(state, card_map, me, found, target, swap, RANGED_COLOUR, "ranged", rng, supports, event)
        case Ritual():
            check = _roll(state, me, RITUAL_COLOUR, rng, supports)
            text = f"The {name} performs a ritual against the Magic Meanie: {check.describe(RITUAL_COLOUR)}"
            if not check.succeeds:
                return state, [event("check", text + _failed(check), die=check.die, total=check.total, success=False)]
            state, hurt = _hurt_meanie(state, label)
            return state, [event("check", text + ": success.", die=check.die, total=check.total, success=True), hurt]
        case Seal():
            assert me.card is not None
            return _seal(state, card_map, me, rng, supports, event)
        case Escape():
            return escaped(state, key), [event("escape", f"The {name} escapes through the entrance.")]
        case Rest():
            return state, [event("rest", f"The {name} rests.")]
    raise ValueError(f"not an action: {order}")


def _roll(state: QuestState, me: Adventurer, colour: str, rng: GameRng, supports: Supports) -> Check:
    """Roll a check of ``colour`` for ``me`` with the cubes of the supporters still on its card."""
    helpers = [state.adventurer(k) for k in supports.take(me.key)]
    support = sum(h.cubes(colour) for h in helpers if h.card is not None and h.card == me.card)
    return roll_check(rng, me.cubes(colour), support)


def _failed(check: Check) -> str:
    return ": a 1 always fails." if check.natural_one else ": failure."


def _attack(state: QuestState, card_map: CardMap, me: Adventurer, card: str, target: str, swap: str, colour: str,
            how: str, rng: GameRng, supports: Supports, make: _EventMaker) -> tuple[QuestState, list[Event]]:
    check = _roll(state, me, colour, rng, supports)
    foe = "an invader" if target == INVADER else "the Magic Meanie"
    text = f"The {me.name} attacks {foe} on {card} ({how}): {check.describe(colour)}"
    data = {"die": check.die, "total": check.total, "success": check.succeeds}
    if not check.succeeds:
        return state, [make("check", text + _failed(check), **data)]
    events = [make("check", text + ": success.", **data)]
    if target != INVADER:
        state, hurt = _hurt_meanie(state, make.label)
        return state, events + [hurt]
    left = state.invaders_on(card) - 1
    invaders = tuple((c, n if c != card else left) for c, n in state.invaders if c != card or left)
    state = replace(state, invaders=invaders)
    events.append(make("invader-defeated", f"The invader on {card} is defeated and goes back to the supply.",
                       card=card))
    state, reward = _reward(state, me.key, swap, make, rng)
    return state, events + [reward]


def _reward(state: QuestState, key: str, swap: str, make: _EventMaker, rng: GameRng) -> tuple[QuestState, Event]:
    """Draw a combat reward into the adventurer's backpack: with a full backpack it is forfeited,
    unless ``swap`` names an item to put back into the bag first; an empty bag gives none."""
    me = state.adventurer(key)
    bag = state.bag
    returned = ""
    if me.room <= 0:
        if not swap or not me.backpack.count(swap):
            return state, make("reward", f"The {me.name}'s backpack is full: the reward is forfeited.", item=None)
        me = replace(me, backpack=me.backpack.remove([swap]))
        bag = bag.add([swap])
        returned = swap
    if bag.is_empty:  # never after a swap: the swapped item is in the bag
        return state, make("reward", f"The equipment bag is empty: the {me.name} gets no reward.", item=None)
    put_back = f"The {me.name} puts {item_text(returned)} back into the bag" if returned else ""
    item, bag = bag.draw_one(rng)
    me = replace(me, backpack=me.backpack.add([item]))
    text = f"{put_back} and draws {item_text(item)}." if put_back else f"The {me.name} draws {item_text(item)} from the bag."
    return replace(state.with_adventurer(me), bag=bag), make("reward", text, item=item, returned=returned or None)


def _hurt_meanie(state: QuestState, label: str) -> tuple[QuestState, Event]:
    """Take one life disc from the Magic Meanie; at the last he is reset (space 2, later 3+)."""
    meanie = state.meanie
    if meanie.life > 1:
        state = replace(state, meanie=replace(meanie, life=meanie.life - 1))
        return state, Event("meanie-hurt", f"The Magic Meanie loses a life disc ({meanie.life - 1} left).", label)
    defeats = meanie.defeats + 1
    space = 1 if defeats == 1 else 2
    state = replace(state, meanie=Meanie(life=MEANIE_LIFE, space=space, card=None, defeats=defeats))
    where = "space 2" if space == 1 else "space 3+"
    text = (f"The Magic Meanie loses his last life disc and vanishes: he is back on the status card, on {where}, "
            f"with {MEANIE_LIFE} discs (defeated {defeats} time{'s' if defeats > 1 else ''}).")
    return state, Event("meanie-defeated", text, label, data={"defeats": defeats})


def _seal(state: QuestState, card_map: CardMap, me: Adventurer, rng: GameRng, supports: Supports,
          make: _EventMaker) -> tuple[QuestState, list[Event]]:
    assert me.card is not None
    portal = questmap.portal_on(card_map, me.card)
    assert portal is not None
    colour = PORTAL_COLOURS[portal]
    index = PORTALS.index(portal)
    position = state.portals[index]
    check = _roll(state, me, colour, rng, supports)
    result = portal_result(check, position)
    text = (f"The {me.name} tries to seal the {colour} portal ({goals_text(position)}): "
            f"{check.describe(colour)}")
    if result is PortalResult.SEALED:
        position, text = SEALED, text + ": the portal is sealed!"
    elif result is PortalResult.WEAKENED:
        position += 1
        text += f": not sealed, but the portal weakens ({goals_text(position)} from now on)."
    else:
        text += _failed(check)
    portals = state.portals[:index] + (position,) + state.portals[index + 1:]
    data = {"die": check.die, "total": check.total, "portal": portal, "result": result.value}
    return replace(state, portals=portals), [make("portal", text, **data)]
