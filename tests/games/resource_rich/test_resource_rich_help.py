"""Every order HELP.txt and the hosting plan (section 4.9) write parses and does what they say."""

from __future__ import annotations

import pytest
from order_text import orders_of
from rich_builders import GAME, rich, seed_rolling

from pbem.core import GameRng
from pbem.core.bag import Bag


@pytest.mark.parametrize(("roll", "text", "kept"), [
    (1, "KEEP blue", "blue"),
    (2, "KEEP blue", "blue"),
    (3, "KEEP green green", "green green"),
    (3, "KEEP gem gem", "green green"),
])
def test_the_help_keeps_on_1_2_and_3(roll: int, text: str, kept: str) -> None:
    """HELP: "KEEP blue on a 1 or 2", "KEEP green green on a 3", "KEEP gem gem"."""
    assert text in " ".join(GAME.help().split())
    state = rich({"1": "blue green green red", "2": "red red red red"}, roll=roll)
    assert GAME.validate(state, "1", orders_of(GAME, text)) == []
    after = GAME.resolve(state, {"1": orders_of(GAME, text), "2": GAME.default_orders(state, "2")},
                          GameRng(seed_rolling(1))).state
    assert after.pile("1") == Bag.of(kept.split())
    assert after.hand("2") == Bag.of("blue green green red".split()).remove(kept.split())  # passed on


def test_the_help_keep_blue_green_with_give_red_on_a_4_or_5() -> None:
    """HELP: "KEEP blue green on a 4 or 5, with GIVE red in the same mail": the red cube goes to the
    neighbour against the direction of play, who must keep it (plan: `KEEP blue green` and `GIVE red`)."""
    assert "    KEEP blue green       on a 4 or 5, with\n    GIVE red              in the same mail" in GAME.help()
    state = rich({"1": "blue green red yellow", "2": "red red red red", "3": "yellow yellow yellow yellow"}, roll=5)
    orders = {"1": orders_of(GAME, "KEEP blue green\nGIVE red"), "2": orders_of(GAME, "KEEP red red\nGIVE red"),
              "3": orders_of(GAME, "keep yellow shell\ngive shells")}
    after = GAME.resolve(state, orders, GameRng(seed_rolling(1))).state
    assert after.pile("1") == Bag.of(["blue", "green", "red"])  # seat 2 gives to seat 1 (clockwise play)
    assert after.pile("3") == Bag.of(["yellow", "yellow", "red"])  # seat 1 gives to seat 3
    assert after.hand("2") == Bag.of(["yellow"])  # seat 1's last cube passes clockwise to seat 2
