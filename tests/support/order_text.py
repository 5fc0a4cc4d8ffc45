"""Orders from their text, as a player writes them, for tests that check a game's HELP examples."""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.core.protocol import Game
from pbem.orders import OrderParser, ParsedOrders


@cache
def _parser(game: Game[Any, Any]) -> OrderParser:
    return OrderParser(game)


def parsed_text(game: Game[Any, Any], text: str) -> ParsedOrders:
    """Return ``text`` parsed line by line with ``game``'s grammar."""
    return _parser(game).parse(text)


def orders_of(game: Game[Any, Any], text: str) -> list[Any]:
    """Return the orders ``text`` parses to with ``game``'s grammar; fail the test on any refused line."""
    parsed = parsed_text(game, text)
    assert not parsed.has_problems, f"{text!r}: {[line.problem for line in parsed.lines if line.problem]}"
    return parsed.orders
