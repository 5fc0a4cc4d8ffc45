"""Harvest Day's report and picture show the island as a player would draw it; the sealed
reveal reaches nobody before both are in (the service seals orders; the state holds none)."""

from __future__ import annotations

from game_views import report_input
from harvest_builders import GAME, island

from pbem.core import GameRng
from pbem.games.harvest_day.drawing import draw
from pbem.reports import render_report
from pbem.service.api import GameService


def test_the_board_is_a_table_of_territories_workers_and_control() -> None:
    state = island({0: 1, 1: 2}, {1: 1, 5: 2}, side="b", reveals=(1, 2), movers=("1", "2"))
    text = render_report(report_input(GAME, state), "1")
    assert "The island, round 1 (side B, a ring: 5 is next to 0):" in text
    assert "  territory     0 -   1 -   2 -   3 -   4 -   5 -(0)" in text
    assert "  seat 1*       1     2     .     .     .     ." in text
    assert "  seat 2        .     1     .     .     .     2" in text
    assert "  control       1     1     -     -     -     2" in text
    assert "Seat 1 (you): 3 workers on the island, 7 in hand; controls 0, 1." in text
    assert "This round's numbers: seat 1 1, seat 2 2." in text
    assert "Your possible moves: MOVE 0-1, MOVE 0-5, MOVE 1-0, MOVE 1-2." in text
    assert "Your possible moves" not in render_report(report_input(GAME, state), "2")


def test_the_picture_has_six_territories_and_the_ring_path_on_side_b() -> None:
    line = draw(GAME.view(island({0: 1}), None))
    ring = draw(GAME.view(island({0: 1}, side="b"), None))
    assert "<title>Harvest Day, round 1</title>" in line
    assert ring.count("<line") == line.count("<line") + 3


def test_a_stored_reveal_reaches_no_other_seat_before_the_phase_resolves(runner: GameService) -> None:
    """Plan 4.5: "The reveal is hidden until the phase resolves": the game keeps no secret in its
    state (hidden_variant is the identity), and the service holds the sealed order."""
    runner.create_game("harvest-day", "hd", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3,
                       options={"turn_hours": "0"})
    before = runner.state_json("hd", "2")
    assert runner.submit("hd", "1", "REVEAL 4").is_clean
    assert runner.state_json("hd", "2") == before and runner.state_json("hd") == runner.state_json("hd", None)
    assert runner.state_json("hd", "2")["state"]["reveals"] is None
    assert runner.submit("hd", "2", "REVEAL 1").is_clean
    runner.resolve("hd")
    assert runner.state_json("hd", "2")["state"]["reveals"] == {"1": 4, "2": 1}
    assert not GAME.has_hidden_information
    state = runner.info("hd").state
    assert GAME.hidden_variant(state, None, GameRng(1)) is state


def test_every_mark_of_the_text_board_is_explained_under_it() -> None:
    state = island({0: 1, 1: 2}, {1: 1, 5: 2})
    mine = render_report(report_input(GAME, state), "1")
    assert "  seat 1*" in mine and '"*" after a seat marks yours' in mine
    assert '"." none' in mine and '"-" nobody' in mine
    public = render_report(report_input(GAME, state), None)
    assert "*" not in public.split("Scores:")[0] and "marks yours" not in public


def test_the_picture_explains_the_border_of_a_controlled_territory() -> None:
    picture = draw(GAME.view(island({0: 1, 1: 2}, {1: 1, 5: 2}), None))
    assert "thick border in a seat's colour: that seat controls the territory" in picture
