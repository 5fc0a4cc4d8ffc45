"""Every order HELP.txt and the hosting plan (section 4.3) write parses and does what they say."""

from __future__ import annotations

from order_text import orders_of
from temple_builders import GAME, temple

from pbem.core import GameRng


def test_the_help_example_moves_blue_5_green_3_red_1_black_down_1_yellow_down_2() -> None:
    """HELP: "OFFER blue green red black yellow moves blue up 5 steps, then green up 3, red up 1,
    black down 1 and yellow down 2, in that order" (plan 4.3's example order too)."""
    assert "    OFFER blue green red black yellow\n" in GAME.help()
    state = temple("blue red", {"black": 4, "yellow": 6})
    result = GAME.resolve(state, {"1": orders_of(GAME, "OFFER blue green red black yellow")}, GameRng(0))
    moved = [(e.data["colour"], e.data["to"] - e.data["from"]) for e in result.events if e.kind == "move"]
    assert moved == [("blue", 5), ("green", 3), ("red", 1), ("black", -1), ("yellow", -2)]


def test_the_nmr_order_named_in_help_is_the_default() -> None:
    """HELP and [C]: "No orders by the deadline (NMR): OFFER red blue green yellow black"."""
    assert "OFFER red blue green yellow black" in GAME.help()
    nmr = orders_of(GAME, "OFFER red blue green yellow black")
    assert GAME.default_orders(temple("black green"), "1") == nmr
