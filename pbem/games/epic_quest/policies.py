"""Standing policies: the players' answers to the enemy phase's "you choose", kept in the state.

- ``POLICY LOSE <adventurer> <c1> <c2> <c3>``: the order in which an
  adventurer loses life cubes (default: third colour, second, main).
- ``POLICY GUARD <adventurer> ...``: who takes the invaders' attacks first on
  a shared card. Default (and for adventurers the policy does not list, after
  those it lists): most blue cubes, then most life cubes, then W, K, A, C,
  judged again before every attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.core import Event

from .orders import PolicyGuard, PolicyLose
from .state import ADVENTURERS, LIFE_COLOURS, NAMES, Adventurer, QuestState


def policy_problem(state: QuestState, seat: str, order: PolicyLose | PolicyGuard) -> str | None:
    """Return why ``seat`` may not set this policy, or None when it may.

    A LOSE policy is set by the adventurer's player and names its three life
    colours once each; a GUARD policy may be set by any player and names each
    adventurer at most once.
    """
    if isinstance(order, PolicyLose):
        key = order.adventurer
        owner = state.controller(key)
        if owner != seat:
            return f"{order}: the {NAMES[key]} is played by seat {owner}"
        if sorted(order.colours) != sorted(LIFE_COLOURS[key]):
            colours = ", ".join(c.upper() for c in LIFE_COLOURS[key])
            return f"{order}: name the {NAMES[key]}'s three life colours once each ({colours})"
        return None
    if len(set(order.order)) != len(order.order):
        return f"{order}: name each adventurer at most once"
    return None


def apply_policy(state: QuestState, seat: str, order: PolicyLose | PolicyGuard, label: str) -> tuple[QuestState, Event]:
    """Return the state with the policy set, and the event saying so (the policy must be allowed)."""
    if isinstance(order, PolicyLose):
        adventurer = state.adventurer(order.adventurer)
        state = state.with_adventurer(replace(adventurer, lose=tuple(order.colours)))
        colours = ", then ".join(order.colours)
        text = f"Policy: the {adventurer.name} loses life cubes {colours}."
    else:
        state = replace(state, guard=tuple(order.order))
        text = ("Policy: invaders attack the adventurers of a shared card in the default order (most blue "
                "cubes, then most life)." if not order.order else
                "Policy: on a shared card the invaders attack first the " + ", then the ".join(NAMES[k] for k in order.order) + ".")
    return state, Event("policy", text, label, seat=seat, data={"order": str(order)})


def colour_to_lose(adventurer: Adventurer) -> str:
    """Return the life colour the adventurer loses next: the first of its LOSE order it still has."""
    for colour in adventurer.lose:
        if adventurer.life.count(colour):
            return colour
    raise ValueError(f"the {adventurer.name} has no life cube left to lose")


def guard_order(state: QuestState, present: Sequence[Adventurer]) -> list[Adventurer]:
    """Return the adventurers ``present`` on one card in the order they take invader attacks:
    those the GUARD policy lists, in its order, then the others by the default rule."""
    listed = [a for key in state.guard for a in present if a.key == key]
    rest = sorted((a for a in present if a.key not in state.guard), key=_default_rank)
    return listed + rest


def _default_rank(adventurer: Adventurer) -> tuple[int, int, int]:
    return (-adventurer.cubes("blue"), -adventurer.life.size, ADVENTURERS.index(adventurer.key))
