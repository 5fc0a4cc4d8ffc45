"""Scenario builders for The Great Golden Egg tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pbem.core import Event, GameRng
from pbem.games import find_game
from pbem.games.golden_egg.rules import GreatGoldenEgg
from pbem.games.golden_egg.state import CLIFFS, GoldenEggState
from pbem.orders import OrderParser

GAME: GreatGoldenEgg = find_game("golden-egg")  # type: ignore[assignment]
PARSER = OrderParser(GAME)
SEATS = ("1", "2", "3")


def board(placed: Mapping[str, str] | None = None, *, guide: str = "1", max_rounds: int = 40,
          round: int = 1) -> GoldenEggState:
    """Return a round's start (the guide to target) with ``placed`` seat -> cliffs of its adventurers,
    one letter per adventurer (``{"1": "a b b"}``: one on a, two on b)."""
    placed = placed or {}
    pieces = tuple(tuple(placed.get(s, "").split().count(c) for c in CLIFFS) for s in SEATS)
    start = GAME.setup(SEATS, {"max_rounds": str(max_rounds)}, GameRng(0))
    return replace(start, pieces=pieces, guide=SEATS.index(guide), round=round)


def orders(text: str) -> list[object]:
    """Return the orders of ``text`` (lines of order text), failing on a line that does not parse."""
    parsed = PARSER.parse(text)
    assert not parsed.has_problems, [line.problem for line in parsed.lines]
    return list(parsed.orders)


def step(state: GoldenEggState, **texts: str) -> tuple[GoldenEggState, list[Event]]:
    """Resolve the phase with each owing seat's order text (keyword ``s2="VOTE YES"`` for seat 2)."""
    given = {seat[1:]: orders(text) for seat, text in texts.items()}
    result = GAME.resolve(state, given, GameRng(1))
    return result.state, result.events


def voted(state: GoldenEggState, target: str, vote_2: str, vote_3: str) -> tuple[GoldenEggState, list[Event]]:
    """From a round's start with seat 1 guiding: TARGET ``target``, then the followers' votes."""
    state, first = step(state, s1=f"TARGET {target}")
    state, second = step(state, s2=f"VOTE {vote_2}", s3=f"VOTE {vote_3}")
    return state, first + second


def public_texts(events: list[Event]) -> list[str]:
    """The texts of the events everybody sees."""
    return [e.text for e in events if e.seats is None]
