"""Every order HELP.txt and the hosting plan (section 4.5) write parses and does what they say;
the end of the game reads right whatever the count."""

from __future__ import annotations

from dataclasses import replace

from harvest_builders import GAME, island
from order_text import orders_of

from pbem.core import GameRng


def test_the_help_examples_reveal_3_and_move_1_0_do_what_help_says() -> None:
    """HELP: "REVEAL 3 -- your worker goes on territory 3"; "MOVE 1-0 -- move a worker from
    territory 1 to territory 0" (plan 4.5's example orders)."""
    help_text = GAME.help()
    assert "REVEAL 3      your worker goes on territory 3" in help_text
    assert "MOVE 1-0      move a worker from territory 1 to territory 0" in help_text
    reveals = {"1": orders_of(GAME, "REVEAL 3"), "2": orders_of(GAME, "reveal 0")}
    state = GAME.resolve(island({1: 2}), reveals, GameRng(0)).state
    assert state.on("1", 3) == 1 and state.on("2", 0) == 1  # 3 + 0 is odd: one worker each
    assert GAME.phase(state).seats == ("2",)  # [R] the lower number moves first
    state = GAME.resolve(state, {"2": orders_of(GAME, "MOVE 0-1")}, GameRng(0)).state
    state = GAME.resolve(state, {"1": orders_of(GAME, "MOVE 1-0")}, GameRng(0)).state
    assert state.on("1", 1) == 1 and state.on("1", 0) == 1 and state.on("2", 1) == 1


def test_the_end_says_one_territory_not_one_territories() -> None:
    """[R] "Whichever Farmer has the most points ... wins"; the reason reads as English."""
    state = replace(island({0: 1}, {2: 1, 3: 1}), finished=True)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "Seat 2 controls 2 territories against 1."
    tied = replace(island({1: 1}, {2: 1}), finished=True)
    outcome = GAME.outcome(tied)
    assert outcome is not None and outcome.reason == (
        "Seat 2 ties on 1 territory and wins the tie-break with a sum of 2 against 1.")
