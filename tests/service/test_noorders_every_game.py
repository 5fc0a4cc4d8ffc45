"""NOORDERS (or READY with nothing stored) in every game: a seat that holds gets the game's NMR default,
and the step resolves. Each kind is played through the service at its fewest and most players, with
every owing seat holding at many steps (and some seats holding at others), to the end or a step bound."""

from __future__ import annotations

import pytest

from pbem.core import GameRng
from pbem.games import GAMES, find_game
from pbem.service.api import GameService

MAX_STEPS = 150
CASES = sorted({(kind, players) for kind in GAMES
                for players in (find_game(kind).min_players, find_game(kind).max_players)})


@pytest.mark.parametrize(("kind", "players"), CASES)
def test_every_game_resolves_when_the_owing_seats_hold(runner: GameService, kind: str, players: int) -> None:
    game = find_game(kind)
    seats = game.seat_names(players)
    runner.create_game(kind, "g", seats={s: f"p{s.lower()}@example.org" for s in seats}, seed=9,
                       options={"turn_hours": "0", "resolve": "deadline"})
    robots = GameRng(23)
    everyone_held = 0
    for step in range(MAX_STEPS):
        info = runner.info("g")
        if info.outcome is not None:
            break
        assert info.phase is not None
        choosing = [s for s in info.phase.seats if runner.current_orders("g", s) is None]
        assert choosing, "the service waits although every play was made for the seats"
        all_hold = step % 2 == 0
        held = []
        for seat in choosing:
            if all_hold or robots.random() < 0.3:
                if robots.random() < 0.5:
                    runner.withdraw("g", seat)  # NOORDERS
                else:
                    runner.withdraw("g", seat, ready=True)  # READY with nothing stored
                held.append(seat)
            else:
                result = runner.submit("g", seat, "\n".join(str(o) for o in game.sample_orders(info.state, seat,
                                                                                              robots)))
                assert result.is_clean, result.render()
        everyone_held += all_hold
        resolved = runner.resolve("g")  # must not raise
        record = resolved.turns[0].record
        assert record.turn == info.row.turn
        for seat in held:
            assert record.orders[seat] == [], (seat, record.orders[seat])
            assert seat not in record.nmr  # a seat that held sent its orders: none
    assert everyone_held > 0
    assert runner.replay("g").is_identical
