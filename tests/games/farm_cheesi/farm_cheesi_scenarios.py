"""Scenario builders for the Farm-cheesi tests (not a test module).

Places are written as a player reads them: ``"22"`` (track square), ``"H3"``
(home path), ``"HOME"`` and ``"C"`` (the carcass).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pbem.core import GameRng, OrderProblem, Resolution
from pbem.games import find_game
from pbem.games.farm_cheesi.board import BOARD
from pbem.games.farm_cheesi.orders import FarmOrder
from pbem.games.farm_cheesi.rules import FarmCheesi
from pbem.games.farm_cheesi.state import CARCASS, FINISH, FarmState
from pbem.orders import OrderParser

GAME: FarmCheesi = find_game("farm-cheesi")  # type: ignore[assignment]
PARSER = OrderParser(GAME)
LAP = BOARD.lap("1")


class ScriptedRng(GameRng):
    """A GameRng whose die rolls are given in advance (fails the test when they run out)."""

    def __init__(self, rolls: Iterable[int] = (), seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def roll(self, sides: int = 6) -> int:
        """Return the next scripted roll."""
        assert self.rolls, "the test's scripted dice ran out of rolls"
        return self.rolls.pop(0)


def progress(seat: str, place: str) -> int:
    """Return the progress of a maggot of ``seat`` standing on ``place``."""
    place = place.upper()
    if place == "C":
        return CARCASS
    if place == "HOME":
        return FINISH
    if place.startswith("H"):
        return LAP + int(place[1:])
    value = BOARD.distance(BOARD.lane(seat).entry, int(place))
    assert value <= LAP, f"seat {seat}'s maggots never stand on {place}"
    return value


def place(seat: str, value: int) -> str:
    """Return the place name of a progress (the inverse of :func:`progress`)."""
    if value == CARCASS:
        return "C"
    return BOARD.spot(seat, value).name()


def farm(
    places: Mapping[str, Sequence[str]],
    *,
    roll: tuple[int, int] = (3, 5),
    current: str = "1",
    teams: bool = False,
    stage: str = "move",
    bonuses: Sequence[int] = (),
    doublets: int | None = None,
    players: int | None = None,
) -> FarmState:
    """Return a game with maggots on ``places`` (per seat, maggots 1..4; missing ones in the carcass).

    The seats are those of ``players`` players (default: 2 when only seats 1
    and 3 are named, else 4).
    """
    if players is None:
        players = 2 if set(places) <= {"1", "3"} else 4
    seats = GAME.seat_names(players)
    rows = []
    for seat in seats:
        named = list(places.get(seat, ()))
        named += ["C"] * (4 - len(named))
        rows.append(tuple(progress(seat, p) for p in named))
    if doublets is None:
        doublets = 1 if roll[0] == roll[1] else 0
    return FarmState(
        seats=seats,
        teams=teams,
        maggots=tuple(rows),
        current=current,
        stage=stage,
        roll=roll,
        doublets=doublets,
        bonuses=tuple(bonuses),
        turn=1,
    )


def places(state: FarmState, seat: str) -> tuple[str, ...]:
    """Return where ``seat``'s maggots 1..4 stand, as place names."""
    return tuple(place(seat, p) for p in state.of(seat))


def orders(text: str) -> list[FarmOrder]:
    """Parse order text (it must parse cleanly)."""
    parsed = PARSER.parse(text)
    assert not parsed.has_problems, [line.problem for line in parsed.lines]
    return parsed.orders


def problems(state: FarmState, text: str, seat: str | None = None) -> list[OrderProblem]:
    """Validate order text for ``seat`` (default: the seat to move)."""
    return GAME.validate(state, seat or state.current, orders(text))


def messages(state: FarmState, text: str, seat: str | None = None) -> list[str]:
    """Return just the problem messages of :func:`problems`."""
    return [p.message for p in problems(state, text, seat)]


def resolve(state: FarmState, text: str, rolls: Sequence[int] = (1, 2, 1, 2, 1, 2)) -> Resolution[FarmState]:
    """Check that the text is a legal play, then resolve it with the next dice scripted."""
    assert problems(state, text) == []
    return GAME.resolve(state, {state.current: orders(text)}, ScriptedRng(rolls))


def texts(text_orders: Sequence[FarmOrder] | None) -> list[str] | None:
    """Return orders as their canonical text (None stays None)."""
    return None if text_orders is None else [str(o) for o in text_orders]

