"""The Epic Quest's map: the creator's ``map=`` option checked against the rule book, and the
questions the rules ask of it (where the portals are, which cards are forest, distances).

A map is written as rows from top to bottom separated by ``/``: ``E`` the
entrance, ``F`` a forest card, ``G``, ``B``, ``Y`` the green, blue and yellow
portals, ``.`` no card. Cards are named by column letter and row number from
the top: in the default map ``FFEFF/F.F.F/G.B.Y`` the entrance is ``c1``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pbem.core.cardmap import CardMap, MapTextError
from pbem.core.errors import GameError
from pbem.core.grid import BadCellName, Cell

from .state import PORTAL_COLOURS, PORTALS

DEFAULT_MAP = "FFEFF/F.F.F/G.B.Y"
"""The hosting plan's checked default: a trident of 7 forest cards, 11 cards besides the entrance."""

ENTRANCE = "E"
FOREST = "F"
KINDS = ENTRANCE + FOREST + "".join(PORTALS)
MIN_FOREST = 7
MAX_FOREST = 9
"""The box holds 9 forest cards; with the 3 portals at least 7 make the book's 10 cards besides the entrance."""

KIND_NAMES = {ENTRANCE: "entrance", FOREST: "forest", **{p: f"{PORTAL_COLOURS[p]} portal" for p in PORTALS}}


class BadQuestMap(GameError):
    """A ``map=`` option that the rule book does not allow; the message says what is wrong."""


def map_problems(card_map: CardMap) -> list[str]:
    """Return everything that breaks the rule book's map rules (empty for a good map).

    The rules: exactly one entrance and one portal of each colour; 7 to 9
    forest cards (so at least 10 cards besides the entrance); every card
    connected to the others; no portal touching the entrance or another
    portal; every forest card essential: without it the entrance no longer
    reaches some portal (no dead ends, no spare branches).
    """
    problems: list[str] = []
    for kind in (ENTRANCE, *PORTALS):
        found = card_map.cards_of(kind)
        if len(found) != 1:
            where = f" ({_names(card_map, found)})" if found else ""
            problems.append(f"the map needs exactly one {KIND_NAMES[kind]} {kind}, it has {len(found)}{where}")
    forests = len(card_map.cards_of(FOREST))
    if forests < MIN_FOREST:
        others = len(card_map.cards) - len(card_map.cards_of(ENTRANCE))
        problems.append(f"the map has {others} cards besides the entrance, with {forests} forest cards; it needs "
                        f"at least 10: the 3 portals and {MIN_FOREST} to {MAX_FOREST} forest cards")
    elif forests > MAX_FOREST:
        problems.append(f"the map has {forests} forest cards; the game has only {MAX_FOREST}")
    if problems:
        return problems
    entrance = card_map.cards_of(ENTRANCE)[0]
    reached = card_map.distances(entrance)
    cut_off = [cell for cell in card_map.cards if cell not in reached]
    if cut_off:
        return [(f"the cards are not all connected: {_names(card_map, cut_off)} cannot be reached from the "
                 f"entrance {card_map.name(entrance)} (every card must share a side with another)")]
    portals = [card_map.cards_of(p)[0] for p in PORTALS]
    for portal in portals:
        if card_map.are_adjacent(portal, entrance):
            problems.append(f"the {_card(card_map, portal)} touches the entrance {card_map.name(entrance)}: "
                            "put at least one forest card between them")
    for i, first in enumerate(portals):
        for second in portals[i + 1:]:
            if card_map.are_adjacent(first, second):
                problems.append(f"the {_card(card_map, first)} touches the {_card(card_map, second)}: "
                                "put at least one forest card between them")
    spare = [forest for forest in card_map.cards_of(FOREST)
             if set(portals) <= card_map.distances(entrance, without=[forest]).keys()]
    if len(spare) == 1:
        problems.append(f"the forest card {card_map.name(spare[0])} is not essential: without it the entrance "
                        "still reaches every portal (the map may have no dead ends or spare branches)")
    elif spare:
        problems.append(f"the forest cards {_names(card_map, spare)} are not essential: without any one of them "
                        "the entrance still reaches every portal (the map may have no dead ends or spare branches)")
    return problems


@lru_cache(maxsize=256)
def quest_map(text: str) -> CardMap:
    """Return the checked map written in ``text`` (any letter case).

    Raises :class:`BadQuestMap` naming the option, the text and every problem found.
    """
    try:
        card_map = CardMap.parse(text, kinds=KINDS)
    except MapTextError as error:
        raise BadQuestMap(f"option map={text}: {error}") from None
    problems = map_problems(card_map)
    if problems:
        raise BadQuestMap(f"option map={text}: " + "; ".join(problems))
    return card_map


def entrance(card_map: CardMap) -> str:
    """Return the name of the entrance card."""
    return card_map.name(card_map.cards_of(ENTRANCE)[0])


def portal_card(card_map: CardMap, portal: str) -> str:
    """Return the name of the card of portal ``G``, ``B`` or ``Y``."""
    return card_map.name(card_map.cards_of(portal)[0])


def portal_on(card_map: CardMap, card: str) -> str | None:
    """Return the portal letter of ``card``, or None when it is no portal."""
    kind = card_map.kind(card_map.card_at(card))
    return kind if kind in PORTALS else None


def is_forest(card_map: CardMap, card: str) -> bool:
    """True when ``card`` is a forest card."""
    return card_map.kind(card_map.card_at(card)) == FOREST


def card_names(card_map: CardMap) -> tuple[str, ...]:
    """Return every card's name in map order."""
    return tuple(card_map.name(cell) for cell in card_map.cards)


def find_card(card_map: CardMap, text: str) -> str | None:
    """Return the canonical name of the card ``text`` names, or None when there is no such card."""
    try:
        return card_map.name(card_map.card_at(text))
    except BadCellName:
        return None


def adjacent(card_map: CardMap, a: str, b: str) -> bool:
    """True when cards ``a`` and ``b`` share a side."""
    return card_map.are_adjacent(card_map.card_at(a), card_map.card_at(b))


def neighbours(card_map: CardMap, card: str) -> tuple[str, ...]:
    """Return the names of the cards next to ``card``, in map order."""
    return tuple(card_map.name(cell) for cell in card_map.neighbours(card_map.card_at(card)))


def distance(card_map: CardMap, a: str, b: str) -> int:
    """Return the steps between two cards of a checked (connected) map."""
    steps = card_map.distance(card_map.card_at(a), card_map.card_at(b))
    assert steps is not None, f"{a} and {b} are not connected"
    return steps


def nearest(card_map: CardMap, card: str, targets: Iterable[str]) -> int | None:
    """Return the steps from ``card`` to the nearest of ``targets``, or None when there is none."""
    steps = [distance(card_map, card, target) for target in targets]
    return min(steps) if steps else None


def first_steps(card_map: CardMap, start: str, goal: str) -> tuple[str, ...]:
    """Return the cards next to ``start`` that begin a shortest path to ``goal``, in map order."""
    return tuple(card_map.name(cell) for cell in card_map.first_steps(card_map.card_at(start), card_map.card_at(goal)))


def map_index(card_map: CardMap, card: str) -> int:
    """Return the place of ``card`` in map order (row by row from the top), for sorting."""
    return card_map.grid.index(card_map.card_at(card))


def _card(card_map: CardMap, cell: Cell) -> str:
    return f"{KIND_NAMES[card_map.kind(cell)]} {card_map.name(cell)}"


def _names(card_map: CardMap, cells: Iterable[Cell]) -> str:
    return ", ".join(card_map.name(cell) for cell in cells)
