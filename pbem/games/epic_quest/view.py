"""The Epic Quest's view: the whole position as JSON-compatible data, for reports and pictures.

Nothing in the game is secret, so every seat and the public see the same
position; a seat's view only marks its own adventurers (``you``).
"""

from __future__ import annotations

from typing import Any

from pbem.core.cardmap import CardMap

from . import questmap
from .checks import goals_text
from .state import (
    ADVENTURERS,
    INVADERS,
    ITEMS,
    LIFE_COLOURS,
    MEANIE_LIFE,
    MEANIE_SPACES,
    PORTAL_COLOURS,
    PORTAL_TRACK,
    PORTALS,
    SEALED,
    TOKEN_COLOURS,
    Adventurer,
    QuestState,
    starting_life,
)

CARD_WIDTH = 12
"""The inner width of a card in the text map."""


def quest_view(state: QuestState, card_map: CardMap, seat: str | None) -> dict[str, Any]:
    """Return what every reader sees; ``seat``'s adventurers carry ``you``."""
    portals = [_portal(state, card_map, p) for p in PORTALS]
    cards = [_card(state, card_map, cell, portals) for cell in card_map.cards]
    by_name = {card["name"]: card for card in cards}
    grid = [[by_name.get(card_map.name((col, row))) for col in range(card_map.width)]
            for row in range(card_map.height)]
    mine = state.controlled_by(seat) if seat in state.seats else ()
    return {
        "round": state.round,
        "max_rounds": state.max_rounds,
        "step": state.step,
        "map": {"text": state.map_text, "width": card_map.width, "height": card_map.height,
                "columns": list(card_map.grid.column_letters()), "entrance": questmap.entrance(card_map),
                "cards": cards, "grid": grid},
        "adventurers": [_adventurer(state, a, a.key in mine) for a in state.adventurers],
        "meanie": {"life": state.meanie.life, "max_life": MEANIE_LIFE, "card": state.meanie.card,
                   "space": state.meanie.space_name or None, "spaces": list(MEANIE_SPACES),
                   "defeats": state.meanie.defeats},
        "portals": portals,
        "sealed": state.sealed_count,
        "invaders": {"on_map": state.invaders_on_map, "supply": state.supply, "total": INVADERS},
        "bag": {item: state.bag.count(item) for item in ITEMS},
        "bag_size": state.bag.size,
        "guard": [state.adventurer(k).name for k in state.guard],
        "controllers": [{"seat": s, "adventurers": [state.adventurer(k).name for k in state.controlled_by(s)],
                         "you": s == seat} for s in state.seats],
        "you": [state.adventurer(k).name for k in mine],
        "over": state.is_over,
        "result": state.result,
        "reason": state.end_reason,
    }


def _portal(state: QuestState, card_map: CardMap, portal: str) -> dict[str, Any]:
    position = state.portals[PORTALS.index(portal)]
    sealed = position >= SEALED
    main, secondary = PORTAL_TRACK[min(position, SEALED - 1)]
    return {
        "letter": portal,
        "colour": PORTAL_COLOURS[portal],
        "card": questmap.portal_card(card_map, portal),
        "sealed": sealed,
        "space": position,
        "main": None if sealed else main,
        "secondary": None if sealed else secondary,
        "goals": "sealed" if sealed else goals_text(position),
        "short": "SEALED" if sealed else f"{main}/{secondary if secondary is not None else '-'}",
        "track": [[m, s] for m, s in PORTAL_TRACK],
    }


def _card(state: QuestState, card_map: CardMap, cell: tuple[int, int], portals: list[dict[str, Any]]) -> dict[str, Any]:
    name = card_map.name(cell)
    letter = card_map.kind(cell)
    portal = next((p for p in portals if p["letter"] == letter), None)
    if portal is not None:
        title = f"{portal['colour']} {portal['short']}"
        kind = "portal"
    else:
        kind = "entrance" if letter == questmap.ENTRANCE else "forest"
        title = "ENTRANCE" if kind == "entrance" else "forest"
    here = [a.key for a in state.adventurers_on(name)]
    invaders = state.invaders_on(name)
    meanie = state.meanie.card == name
    enemies = " ".join(part for part in (f"inv {invaders}" if invaders else "",
                                         f"MM {state.meanie.life}" if meanie else "") if part)
    return {
        "name": name, "col": cell[0], "row": cell[1], "kind": kind, "letter": letter,
        "portal": portal["letter"] if portal else None, "colour": portal["colour"] if portal else None,
        "sealed": bool(portal and portal["sealed"]),
        "adventurers": here, "invaders": invaders, "meanie": meanie,
        "lines": [title.ljust(CARD_WIDTH)[:CARD_WIDTH], " ".join(here).ljust(CARD_WIDTH)[:CARD_WIDTH],
                  enemies.ljust(CARD_WIDTH)[:CARD_WIDTH]],
    }


def _adventurer(state: QuestState, adventurer: Adventurer, mine: bool) -> dict[str, Any]:
    start = starting_life(adventurer.key)
    life = [[colour, adventurer.life.count(colour), start.count(colour)] for colour in LIFE_COLOURS[adventurer.key]]
    backpack = [item for item in ITEMS for _ in range(adventurer.backpack.count(item))]
    return {
        "key": adventurer.key,
        "name": adventurer.name,
        "colour": TOKEN_COLOURS[adventurer.key],
        "order": ADVENTURERS.index(adventurer.key),
        "seat": state.controller(adventurer.key),
        "card": adventurer.card,
        "escaped": adventurer.escaped,
        "life": life,
        "life_total": adventurer.life.size,
        "life_text": ", ".join(f"{colour} {have}" for colour, have, _ in life),
        "backpack": backpack,
        "backpack_text": ", ".join(backpack) if backpack else "empty",
        "actions": adventurer.actions,
        "lose": list(adventurer.lose),
        "checks": {colour: adventurer.cubes(colour) for colour in ("red", "green", "yellow", "blue")},
        "you": mine,
    }
