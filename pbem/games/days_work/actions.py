"""The action spaces of All in a Day's Work: what a placement costs, whether it is legal,
what it does, and the night's hut scoring. Pure functions of a :class:`DayState`."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from pbem.core.bag import Bag
from pbem.games.days_work.card import (
    BUILD_FEE,
    BUILD_SPACES,
    CELL_BY_NAME,
    CELLS,
    RESOURCE_SPACES,
    RESOURCES,
    SHOP_BY_NAME,
    SHOPS,
    SPACES,
    TAKE,
    TEMPLE_COSTS,
    TEMPLE_POINTS,
    TOP_STEP,
)
from pbem.games.days_work.orders import Place
from pbem.games.days_work.state import DayState

T = TypeVar("T")

RESOURCE_OF_SPACE = {space: space.lower() for space in RESOURCE_SPACES}


def describe_resources(bag: Bag, *, empty: str = "nothing") -> str:
    """Return resources as text in card order, e.g. ``"2 red, 1 yellow"``; ``empty`` for none."""
    parts = [f"{bag.count(colour)} {colour}" for colour in RESOURCES if bag.count(colour)]
    return ", ".join(parts) if parts else empty


def who(state: DayState, seat: str) -> str:
    """Return a seat as the reports name it: ``white (seat 1)``."""
    return f"{state.colour(seat)} (seat {seat})"


def points(number: int) -> str:
    """Return ``"1 point"`` or ``"n points"``."""
    return f"{number} point{'' if number == 1 else 's'}"


def building_cost(order: Place) -> Bag:
    """Return what the building of a build order costs (its hut cell or shop space), fee excluded."""
    if order.hut is not None:
        return CELL_BY_NAME[order.hut].cost
    if order.shop is not None:
        return SHOP_BY_NAME[order.shop].cost
    return Bag()


def placement_cost(state: DayState, seat: str, order: Place) -> Bag:
    """Return everything a placement costs as a whole: a build space's yellow fee plus its
    building, a temple step's cost, nothing for the other spaces."""
    if order.space in BUILD_SPACES:
        return Bag.of(("yellow",) * BUILD_FEE[order.space]) + building_cost(order)
    if order.space == "TEMPLE" and state.temple[state.index(seat)] < TOP_STEP:
        return Bag.of(TEMPLE_COSTS[state.temple[state.index(seat)]])
    return Bag()


def place_problem(state: DayState, seat: str, order: Place) -> str | None:
    """Return why ``seat`` may not make ``order`` now, or None when it may."""
    if order.space not in SPACES:
        return f"{order}: there is no action space {order.space}; the spaces are {', '.join(SPACES)}"
    holder = state.disc_on(order.space)
    if holder is not None:
        return f"{order}: the {order.space} space is taken this round ({state.colour(holder)}'s disc)"
    if order.space in BUILD_SPACES:
        problem = _building_problem(state, seat, order)
        if problem is not None:
            return problem
    elif order.building is not None:
        return f"{order}: only {', '.join(BUILD_SPACES)} build; send PLACE {order.space} alone"
    elif order.space == "TEMPLE" and state.temple[state.index(seat)] == TOP_STEP:
        return f"{order}: your cube stands on the top step of the temple"
    cost = placement_cost(state, seat, order)
    hand = state.hand(seat)
    if not hand.contains(cost):
        return f"{order}: {_cost_text(state, seat, order)}; you have {describe_resources(hand)}"
    return None


def _building_problem(state: DayState, seat: str, order: Place) -> str | None:
    if order.building is None:
        return f"{order}: say what you build, e.g. PLACE {order.space} HUT a2 or PLACE {order.space} SHOP FISH"
    if state.buildings_left(seat) == 0:
        return f"{order}: you have built all 8 of your buildings"
    if order.hut is not None:
        owner = state.huts[CELLS.index(CELL_BY_NAME[order.hut])]
        if owner:
            return f"{order}: a hut stands on {order.hut} ({state.colour(owner)}'s)"
    elif order.shop is not None:
        shop = SHOP_BY_NAME[order.shop]
        if len(state.shops[SHOPS.index(shop)]) >= shop.spaces:
            return f"{order}: both {shop.name} spaces are built"
    return None


def _cost_text(state: DayState, seat: str, order: Place) -> str:
    if order.space == "TEMPLE":
        step = state.temple[state.index(seat)] + 1
        return f"temple step {step} costs {describe_resources(placement_cost(state, seat, order))}"
    parts = []
    if BUILD_FEE.get(order.space):
        parts.append(f"{BUILD_FEE[order.space]} yellow for {order.space}")
    what = f"the hut on {order.hut}" if order.hut is not None else f"a {order.shop} space"
    parts.append(f"{describe_resources(building_cost(order))} for {what}")
    return "it costs " + " and ".join(parts)


def legal_placements(state: DayState, seat: str) -> list[Place]:
    """Return every legal placement of ``seat``, in the NMR's order of preference: the
    resource spaces RED, YELLOW, GREEN, BLUE; FEAST; TEMPLE; then each build space
    BUILD1, BUILD2, BUILD3 with its huts (cells in card order a1, b1, ... d3) and shops
    (FISH, MARKET, JEWELS)."""
    candidates = [Place(space) for space in (*RESOURCE_OF_SPACE, "FEAST", "TEMPLE")]
    for space in BUILD_SPACES:
        candidates += [Place(space, hut=c.name) for c in CELLS]
        candidates += [Place(space, shop=s.name) for s in SHOPS]
    return [order for order in candidates if place_problem(state, seat, order) is None]


def hut_points(state: DayState, seat: str) -> int:
    """Return what ``seat``'s huts score at a night or a FEAST: the sum of their cells' values."""
    return sum(c.value for c, owner in zip(CELLS, state.huts, strict=True) if owner == seat)


def apply_placement(state: DayState, seat: str, order: Place) -> tuple[DayState, str]:
    """Return the state after ``seat``'s legal placement ``order`` and the sentence for the report."""
    i = state.index(seat)
    state = replace(state, discs=(*state.discs, (order.space, seat)), placed=state.placed + 1)
    name = who(state, seat).capitalize()
    if order.space in RESOURCE_OF_SPACE:
        colour = RESOURCE_OF_SPACE[order.space]
        got = min(TAKE, state.supply.count(colour))
        taken = Bag.of((colour,) * got)
        state = _with_hand(state, i, state.hands[i] + taken, state.supply - taken)
        short = "" if got == TAKE else f" (the supply held only {got})" if got else " (the supply had none left)"
        return state, f"{name} places on {order.space} and takes {describe_resources(taken)}{short}."
    if order.space == "FEAST":
        scored = hut_points(state, seat)
        return _scored(state, i, scored), f"{name} places on FEAST: the huts score {points(scored)}."
    cost = placement_cost(state, seat, order)
    state = _with_hand(state, i, state.hands[i] - cost, state.supply + cost)
    paid = f"pays {describe_resources(cost)} and " if cost.size else ""
    if order.space == "TEMPLE":
        step = state.temple[i] + 1
        state = _scored(replace(state, temple=_set(state.temple, i, step)), i, TEMPLE_POINTS[step - 1])
        return state, f"{name} places on TEMPLE, {paid}climbs to step {step}: {points(TEMPLE_POINTS[step - 1])}."
    if order.hut is not None:
        hut = CELL_BY_NAME[order.hut]
        state = replace(state, huts=_set(state.huts, CELLS.index(hut), seat))
        bonus = ""
        if hut.bonus is not None:
            if state.supply.count(hut.bonus):
                given = Bag.of((hut.bonus,))
                state = _with_hand(state, i, state.hands[i] + given, state.supply - given)
                bonus = f" and takes the bonus 1 {hut.bonus}"
            else:
                bonus = f" (no {hut.bonus} is left in the supply for the bonus)"
        return state, (f"{name} places on {order.space}, {paid}builds a hut on {hut.name} "
                       f"(worth {hut.value} a night){bonus}.")
    shop = SHOP_BY_NAME[order.shop or ""]
    k = SHOPS.index(shop)
    state = replace(state, shops=_set(state.shops, k, (*state.shops[k], seat)))
    state = _scored(state, i, shop.points)
    return state, (f"{name} places on {order.space}, {paid}builds {shop.name} space "
                   f"{len(state.shops[k])}: {points(shop.points)}.")


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1:])


def _with_hand(state: DayState, index: int, hand: Bag, supply: Bag) -> DayState:
    return replace(state, hands=_set(state.hands, index, hand), supply=supply)


def _scored(state: DayState, index: int, points: int) -> DayState:
    return replace(state, scores=_set(state.scores, index, state.scores[index] + points))
