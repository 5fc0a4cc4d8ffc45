"""Scenario builders for Meanies in our Midst tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core import Event, GameRng
from pbem.core.bag import Bag
from pbem.games import find_game
from pbem.games.meanies.rules import MeaniesInOurMidst
from pbem.games.meanies.state import MEANIE, MINUTIAN, STAGE_MISSION, MeaniesState, full_bag
from pbem.orders import OrderParser

GAME: MeaniesInOurMidst = find_game("meanies-in-our-midst")  # type: ignore[assignment]
PARSER = OrderParser(GAME)


def table(factions: str, *, guide: str = "1", dice: Sequence[int] = (3, 6)) -> MeaniesState:
    """Return round 1 with the guide to choose: ``factions`` one letter per seat in seat order, G for a
    Minutian (green), R for a Meanie (red), e.g. ``"G R G G G"``."""
    letters = factions.split()
    seats = GAME.seat_names(len(letters))
    start = GAME.setup(seats, {}, GameRng(0))
    return replace(start, factions=tuple(MINUTIAN if f == "G" else MEANIE for f in letters),
                   guide=seats.index(guide), dice=tuple(dice))


def on_mission(state: MeaniesState, hands: Mapping[str, str]) -> MeaniesState:
    """Return ``state`` on its mission: the guide and the explorers are the seats of ``hands`` (the guide's
    among them), each holding its four cubes (``{"1": "white white blue yellow", ...}``)."""
    guide = state.seats[state.guide]
    assert guide in hands
    held = {state.index(s): Bag.of(text.split()) for s, text in hands.items()}
    bag = full_bag()
    for hand in held.values():
        bag = bag.remove(hand)
    explorers = tuple(sorted(i for i in held if i != state.guide))
    return replace(state, stage=STAGE_MISSION, explorers=explorers, bag=bag,
                   hands=tuple(held.get(i, Bag()) for i in range(len(state.seats))))


def orders(text: str) -> list[object]:
    """Return the orders of ``text``, failing on a line that does not parse."""
    parsed = PARSER.parse(text)
    assert not parsed.has_problems, [line.problem for line in parsed.lines]
    return list(parsed.orders)


def step(state: MeaniesState, rng: GameRng | None = None, **texts: str) -> tuple[MeaniesState, list[Event]]:
    """Resolve the phase with each owing seat's order text (keyword ``s2="GIVE white blue"`` for seat 2)."""
    result = GAME.resolve(state, {seat[1:]: orders(text) for seat, text in texts.items()}, rng or GameRng(1))
    return result.state, result.events


def public_texts(events: list[Event]) -> list[str]:
    """The texts of the events everybody sees."""
    return [e.text for e in events if e.seats is None]
