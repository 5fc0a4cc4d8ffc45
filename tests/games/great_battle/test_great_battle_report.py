"""The Great Battle reports and pictures: the island drawn as a player would, and a battle in
which both armies lose their last units at once reported as a draw through the runner."""

from __future__ import annotations

from game_views import report_input
from great_battle_builders import GAME, battle

from pbem.games.great_battle.drawing import draw
from pbem.reports import render_report
from pbem.service.api import GameService


def _position():  # type: ignore[no-untyped-def]
    return battle({"b8": "red 2", "e8": "blue 1", "h2": "green 1", "d5": "yellow 3"}, discs=("MOVE3", "SPAWN"),
                  turns=4, supply={"red": 5})


def test_the_island_is_drawn_as_a_hexagon_with_names_units_and_bases() -> None:
    text = render_report(report_input(GAME, _position()), "1")
    assert "Action 5 of at most 60: seat 1 to act." in text
    assert "\n             (Y)    f1    g1    h1   (G)\n" in text
    assert "\n           d2    e2    f2    g2   [G1]   i2\n" in text
    assert "\n  a5    b5    c5   [Y3]   e5    f5    g5    h5    i5\n" in text
    assert "\n           a8   [R2]   c8    d8   [B1]   f8\n" in text
    assert "\n             (R)    b9    c9    d9   (B)\n" in text
    assert "Minutians (seat 1, you): total level 3; disc on MOVE3; to act\n" in text
    assert "  units: red b8 (level 2), blue e8 (level 1)\n" in text
    assert "  supply: 5 red, 9 blue; lost for good: 3 red, 0 blue\n" in text
    assert "Meanies (seat 2): total level 4; disc on SPAWN\n" in text
    assert "Free action spaces: MOVE1X2, UPGRADE, SABOTAGE, ATTACK." in text


def test_the_html_report_holds_the_same_map() -> None:
    html = render_report(report_input(GAME, _position()), "1", html=True)
    assert "\n             (Y)    f1    g1    h1   (G)\n" in html
    assert "\n           a8   [R2]   c8    d8   [B1]   f8\n" in html


def test_the_picture_names_every_hex_and_draws_every_unit() -> None:
    position = _position()
    svg = draw(GAME.view(position, None))
    assert "<title>The Great Battle</title>" in svg
    assert svg.count("<polygon") == 61
    assert ">e5</text>" in svg and ">d5</text>" in svg
    view = GAME.view(position, None)
    units = sum(1 for row in view["map"] for hex_ in row if hex_["unit"])
    discs = sum(1 for space in view["spaces"] if space["disc"])
    assert units == 4 and svg.count("<circle") == units + discs  # a disc for each unit and general
    assert 'stroke-width="2"' not in svg  # nobody's units are ringed: every reader gets this picture
    assert f"of at most {view['turn_limit']}: seat" in svg  # as the text says it


def test_a_double_wipe_out_is_reported_as_a_draw_by_the_runner(runner: GameService) -> None:
    """[R] both generals lose their last units at once: a draw; reports say "Draw", the JSON of
    pbem show --json has no winners and the outcome "draw"."""
    runner.create_game("great-battle", "b1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3,
                       options={"turn_hours": "0"})
    plays = [
        "PLACE red a8\nPLACE blue d9",
        "PLACE green h1\nPLACE yellow d2\nPLACE green h2",
        "ACTION UPGRADE\nUPGRADE d9",                      # 1: the blue unit rises to level 2
        "ACTION MOVE1X2\nMOVE h2-f3\nMOVE f3-d4",          # 2: a green unit comes down
        "ACTION MOVE3\nMOVE a8-b6\nMOVE d9-d8",            # 1
        "ACTION ATTACK\nATTACK d4-b6",                     # 2: green and red, equal: both removed
        "ACTION MOVE1X2\nMOVE d8-d7\nMOVE d7-d6",          # 1
        "ACTION UPGRADE\nUPGRADE d2",                      # 2: the yellow unit rises to level 2
        "ACTION SABOTAGE\nSABOTAGE yellow",                # 1
        "ACTION MOVE1X2\nMOVE h1-f2\nMOVE f2-e4",          # 2
        "ACTION SPAWN",                                   # 1: spawns nothing
        "ACTION MOVE3\nMOVE d2-d3",                        # 2
        "ACTION UPGRADE",                                 # 1: upgrades nothing
        "ACTION MOVE1X2\nMOVE d3-d4",                      # 2
        "ACTION ATTACK\nATTACK d6-e4\nATTACK d6-d4",       # 1: the last blue takes the green, then
    ]                                                     #    trades with the last yellow
    for text in plays:
        phase = runner.info("b1").phase
        assert phase is not None
        seat = phase.seats[0]
        result = runner.submit("b1", seat, text)
        assert result.is_clean, result.render()
        runner.resolve("b1")
    info = runner.info("b1")
    assert info.row.status == "finished" and info.state.units == ()
    for seat in ("1", "2", None):
        assert ("The game is over. Draw.\nBoth armies lost their last units at once: the battle is a draw."
                in runner.report_text("b1", seat))
    data = runner.state_json("b1")
    assert data["winners"] == [] and data["outcome"] == "draw"
    assert runner.replay("b1").is_identical
