"""Festival of Statues reports and pictures: the square drawn as a player would, a win marked,
and a draw reported as a draw through the runner and ``pbem show --json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from festival_builders import GAME, position
from game_views import report_input

from pbem.core import GameRng
from pbem.games.festival_of_statues.drawing import draw
from pbem.games.festival_of_statues.orders import Move
from pbem.reports import render_report
from pbem.service.api import GameService

PICTURE = """
. . . . . .
. . . 1 . .
. . . . . 2
. 1 . . . 2
2 . . . . .
2 . . . . .
"""


def test_the_square_is_drawn_with_the_die_line_and_the_spaces_to_add_on() -> None:
    text = render_report(report_input(GAME, position(PICTURE, die=4)), "1")
    assert "Round 1 of at most 40: the die shows 4, row 4 or column 4; seat 1 to play." in text
    assert "                   v\n       1   2   3   4   5   6\n" in text
    assert "    2  .   .   .   1   .   .\n" in text
    assert "  > 4  .   1   .   +   +   2\n" in text
    assert "    5  2   .   .   +   .   .\n" in text
    assert "+: where seat 1 may ADD" in text
    assert "seat 1 (you): 4 / 2; holds the die; to play" in text
    assert "seat 2: 2 / 4\n" in text


def test_a_won_game_marks_the_winning_four() -> None:
    state = position("""
        . . . . . .
        1 1 1 . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . 1 . .""", die=6)
    result = GAME.resolve(state, {"1": [Move(6, 4, 2, 4)]}, GameRng(1))
    text = render_report(report_input(GAME, result.state, result.events), None)
    assert "    2  1*  1*  1*  1*  .   .\n" in text
    assert "*: the winning four" in text
    assert "The game is over. Winner: 1.\nSeat 1 wins: four statues in a line in row 2 (2,1 2,2 2,3 2,4)." in text
    svg = draw(GAME.view(result.state, None))
    assert "Seat 1 wins" in svg and svg.count('stroke-width="3"') == 4
    assert "thick black frame: the winning four" in svg  # the picture's mark explained on it, as the text's "*"


def test_the_picture_shades_the_die_line_and_draws_every_statue() -> None:
    svg = draw(GAME.view(position(PICTURE, die=4), None))
    assert "<title>The Festival of Statues, round 1</title>" in svg
    assert svg.count('fill="#fff1c4"') == 11 + 1  # the 11 spaces of row and column 4, and the legend
    statues = PICTURE.split().count("1") + PICTURE.split().count("2")
    assert svg.count('r="16.6"') == statues  # a disc for each statue, nobody's ringed


def test_a_draw_is_reported_as_a_draw_by_the_runner(runner: GameService) -> None:
    """X1 and X7: the round cap ends the game with Outcome.draw; reports say "Draw", the JSON has
    no winners and the outcome "draw"."""
    runner.create_game("festival-of-statues", "f1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3,
                       options={"turn_hours": "0", "max_rounds": "1"})
    for seat in ("1", "2"):
        state = runner.info("f1").state
        assert runner.submit("f1", seat, str(GAME.default_orders(state, seat)[0])).is_clean
        runner.resolve("f1")
    assert runner.info("f1").row.status == "finished"
    for reader in ("1", "2", None):
        text = runner.report_text("f1", reader)
        assert "The game is over. Draw.\nRound 1, the last one allowed (max_rounds=1), is over" in text
    data = runner.state_json("f1")
    assert data["winners"] == [] and data["outcome"] == "draw"
    assert "nobody arranged four statues" in data["outcome_reason"]


def test_pbem_show_json_reports_the_draw(tmp_path: Path) -> None:
    """The command line end to end: new with max_rounds=1, two plays, show and show --json."""
    pbem = Path(sys.executable).with_name("pbem")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}

    def run(*args: str, stdin: str = "") -> str:
        done = subprocess.run([str(pbem), *args], cwd=tmp_path, input=stdin, capture_output=True, text=True,
                              env=env, timeout=120, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    run("new", "festival-of-statues", "f1", "--seat", "1=a@example.org", "--seat", "2=b@example.org",
        "--option", "max_rounds=1", "--option", "turn_hours=0", "--seed", "3")
    first = json.loads(run("show", "f1", "--json"))
    die = first["state"]["die"]
    run("orders", "f1", "1", "-", stdin=f"ADD {die},1\n")
    run("resolve", "f1")
    run("orders", "f1", "2", "-", stdin=f"ADD {die},6\n")
    run("resolve", "f1")
    assert "The game is over. Draw." in run("show", "f1")
    data = json.loads(run("show", "f1", "--json"))
    assert data["status"] == "finished" and data["winners"] == [] and data["outcome"] == "draw"
