"""Scenario builders for An Honest Trade tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core import GameRng, Resolution
from pbem.games import find_game
from pbem.games.honest_trade.rules import HonestTrade
from pbem.games.honest_trade.state import COLOURS, Trader, TradeState
from pbem.orders import OrderParser

GAME: HonestTrade = find_game("honest-trade")  # type: ignore[assignment]
PARSER = OrderParser(GAME)


def trader(row: str = " ".join(COLOURS), pushed: str = "", blacks: int = 0, discs: int = 0, *,
           out: bool = False, cleared: str = "") -> Trader:
    """Return a table: ``row`` and ``pushed`` are space-separated colours; a colour in neither was
    discarded."""
    return Trader(row=_colours(row), pushed=_colours(pushed), blacks=blacks, discs=discs, out=out,
                  cleared=_colours(cleared))


def _colours(text: str) -> tuple[str, ...]:
    return tuple(c for c in COLOURS if c in text.split())


def trade(secrets: str, *, traders: Mapping[str, Trader] | None = None, to_play: str = "1",
          supply: tuple[int, int] | None = None, window_hours: int = 12, turn: int = 1) -> TradeState:
    """Return a table at the start of ``to_play``'s turn: ``secrets`` the seats' colours in seat
    order ("red white blue"); ``traders`` seat -> table (default: five cubes in the row, nothing
    held); ``supply`` the black cubes and discs in the supply (default: 10 of each but what the
    traders hold)."""
    colours = tuple(secrets.split())
    seats = tuple(str(n) for n in range(1, len(colours) + 1))
    tables = traders or {}
    held = [tables.get(s, Trader()) for s in seats]
    if supply is None:
        supply = (10 - sum(t.blacks for t in held), 10 - sum(t.discs for t in held))
    return TradeState(seats=seats, secrets=colours, traders=tuple(held),
                      supply_blacks=supply[0], supply_discs=supply[1], to_play=seats.index(to_play),
                      window_hours=window_hours, owed=(0,) * len(seats), turn=turn)


def orders_of(text: str) -> list[object]:
    """Return the orders of ``text`` (lines), asserting it parses."""
    parsed = PARSER.parse(text)
    assert not parsed.has_problems, [line.problem for line in parsed.lines]
    return parsed.orders


def answer(state: TradeState, texts: Mapping[str, str] | None = None, rng: GameRng | None = None,
           ) -> Resolution[TradeState]:
    """Resolve the step under way: each owing seat sends its text from ``texts`` (checked by
    ``validate``), the others are silent (their NMR default: PASS in a window)."""
    texts = texts or {}
    phase = GAME.phase(state)
    assert set(texts) <= set(phase.seats), (texts, phase.seats)
    orders = {}
    for seat in phase.seats:
        orders[seat] = orders_of(texts[seat]) if seat in texts else GAME.default_orders(state, seat)
        assert GAME.validate(state, seat, orders[seat]) == [], (seat, GAME.validate(state, seat, orders[seat]))
    return GAME.resolve(state, orders, rng or GameRng(0))


def run(state: TradeState, *steps: Mapping[str, str], rng: GameRng | None = None) -> tuple[TradeState, list[str]]:
    """Resolve ``steps`` one after the other; return the last state and every event's text."""
    texts: list[str] = []
    for texts_of_step in steps:
        result = answer(state, texts_of_step, rng)
        state = result.state
        texts += [e.text for e in result.events]
    return state, texts


def problems(state: TradeState, seat: str, text: str) -> list[str]:
    """Return the messages of ``validate`` for ``seat`` sending ``text``."""
    return [p.message for p in GAME.validate(state, seat, orders_of(text))]


