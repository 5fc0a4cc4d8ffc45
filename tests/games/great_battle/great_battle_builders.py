"""Building Great Battle positions for the tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pbem.core import GameRng, Resolution
from pbem.core.bag import Bag
from pbem.games.great_battle.board import CUBES, GRID, SIDE_COLOURS
from pbem.games.great_battle.rules import GreatBattle
from pbem.games.great_battle.state import ACTIONS, BattleState, Unit, in_reading_order
from pbem.orders import OrderParser

GAME = GreatBattle()
PARSER = OrderParser(GAME)


def battle(units: Mapping[str, str], *, to_play: int = 0, discs: tuple[str, str] = ("", ""), turns: int = 0,
           turn_limit: int = 60, supply: Mapping[str, int] | None = None) -> BattleState:
    """Return a battle in its action stage: ``units`` maps hexes to ``"red 2"`` (colour and
    level); the supplies hold the rest of each colour's 10 cubes unless ``supply`` says otherwise;
    ``to_play`` is the seat index whose action it is, after ``turns`` actions."""
    placed = in_reading_order(Unit(GRID.parse(cell), text.split()[0], int(text.split()[1]))
                              for cell, text in units.items())
    counts = {colour: CUBES - sum(u.level for u in placed if u.colour == colour)
              for colours in SIDE_COLOURS for colour in colours}
    counts.update(supply or {})
    bags = tuple(Bag.from_counts({c: counts[c] for c in colours}) for colours in SIDE_COLOURS)
    state = GAME.setup(("1", "2"), {"turn_limit": str(turn_limit)}, GameRng(1))
    return replace(state, stage=ACTIONS, first=(to_play - turns) % 2, turns=turns, units=placed, supply=bags,
                   discs=discs)


def turn(state: BattleState, text: str) -> Resolution[BattleState]:
    """Resolve the general to play's turn written as order text."""
    return GAME.resolve(state, {state.to_play: PARSER.parse(text).orders}, GameRng(1))


def problems(state: BattleState, text: str) -> list[str]:
    """Return the messages of the check of ``text`` for the general to play (general ones last)."""
    found = GAME.validate(state, state.to_play, PARSER.parse(text).orders)
    return [p.message for p in sorted(found, key=lambda p: (p.index is None, p.index or 0))]


def units(state: BattleState) -> dict[str, str]:
    """Return the units on the island as ``{hex: "colour level"}``."""
    return {GRID.name(u.cell): f"{u.colour} {u.level}" for u in state.units}
