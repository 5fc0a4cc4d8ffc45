"""Scenario builders for the Epic Quest tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from scripted_rng import ScriptedRng

from pbem.core import Event, GameRng
from pbem.core.bag import Bag
from pbem.games import find_game
from pbem.games.epic_quest.orders import QuestOrder
from pbem.games.epic_quest.questmap import card_names, quest_map
from pbem.games.epic_quest.rules import EpicQuest
from pbem.games.epic_quest.state import PORTALS, Meanie, QuestState
from pbem.orders import parser_for

GAME: EpicQuest = find_game("epic-quest")  # type: ignore[assignment]

__all__ = ["GAME", "ScriptedRng", "orders", "quest", "resolve", "texts"]


def quest(players: int = 1, *, at: Mapping[str, str | None] | None = None,
          life: Mapping[str, Mapping[str, int]] | None = None,
          backpack: Mapping[str, Sequence[str]] | None = None,
          actions: Mapping[str, int] | None = None,
          invaders: Mapping[str, int] | None = None, meanie: Meanie | None = None,
          portals: Mapping[str, int] | None = None, bag: Bag | None = None, options: Mapping[str, str] | None = None,
          **fields: object) -> QuestState:
    """Return a game of ``players`` at the start of a step, changed as given.

    ``at`` puts adventurers (W, K, A, C) on cards (None: escaped), ``life`` and
    ``backpack`` set their cubes and items, ``actions`` the actions left,
    ``invaders`` card -> count, ``portals`` letter -> track position.
    """
    state = GAME.setup(GAME.seat_names(players), options or {}, GameRng(1))
    for key in "WKAC":
        adventurer = state.adventurer(key)
        if at and key in at:
            adventurer = replace(adventurer, card=at[key], actions=0 if at[key] is None else adventurer.actions)
        if life and key in life:
            adventurer = replace(adventurer, life=Bag.from_counts(life[key]))
        if backpack and key in backpack:
            adventurer = replace(adventurer, backpack=Bag.of(backpack[key]))
        if actions and key in actions:
            adventurer = replace(adventurer, actions=actions[key])
        state = state.with_adventurer(adventurer)
    if invaders is not None:
        order = card_names(quest_map(state.map_text))
        state = replace(state, invaders=tuple((c, invaders[c]) for c in order if invaders.get(c)))
    if meanie is not None:
        state = replace(state, meanie=meanie)
    if portals is not None:
        state = replace(state, portals=tuple(portals.get(p, 0) for p in PORTALS))
    if bag is not None:
        state = replace(state, bag=bag)
    return replace(state, **fields) if fields else state


def orders(text: str) -> list[QuestOrder]:
    """Parse order text (every line must parse)."""
    parsed = parser_for("epic-quest").parse(text)
    assert not parsed.has_problems, [(line.text, line.problem) for line in parsed.lines if line.problem]
    return parsed.orders


def resolve(state: QuestState, by_seat: Mapping[str, str], rolls: Sequence[int] = (),
            seed: int = 0) -> tuple[QuestState, list[Event]]:
    """Validate and resolve one step with each seat's order text and the scripted dice."""
    parsed = {seat: orders(text) for seat, text in by_seat.items()}
    for seat, given in parsed.items():
        assert GAME.validate(state, seat, given) == [], (seat, GAME.validate(state, seat, given))
    result = GAME.resolve(state, parsed, ScriptedRng(rolls, seed))
    return result.state, result.events


def texts(events: Sequence[Event]) -> str:
    """All event texts, one a line."""
    return "\n".join(event.text for event in events)

