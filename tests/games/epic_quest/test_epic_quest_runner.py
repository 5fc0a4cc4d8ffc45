"""A one-player Epic Quest through the real runner and database, and through the pbem command line:
created with one seat, orders checked and stored, steps resolved, reports, the JSON state and a replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import GameError, GameRng
from pbem.games import find_game
from pbem.service.api import GameService

PBEM = Path(sys.executable).with_name("pbem")


def test_a_solo_quest_runs_through_the_runner_to_a_cooperative_defeat(runner: GameService) -> None:
    runner.create_game("epic-quest", "eq", seats={"1": "solo@example.org"}, seed=5,
                       options={"turn_hours": "0", "max_rounds": "2"})
    info = runner.info("eq")
    assert info.phase is not None and info.phase.seats == ("1",) and info.phase.shared_orders
    checked = runner.submit("eq", "1", "WARRIOR MOVE b1\nKNIGHT MOVE c2\nARCHER FLY\n")
    assert [line.problem is None for line in checked.lines] == [True, True, False]
    assert "This step: the Warrior uses 1 of 2 actions, the Knight uses 1 of 2 actions" in checked.render()
    runner.resolve("eq")
    state = runner.info("eq").state
    assert state.adventurer("W").card == "b1" and state.step == 2
    game, robots = find_game("epic-quest"), GameRng(7)
    for _ in range(100):
        info = runner.info("eq")
        if info.outcome is not None:
            break
        text = "\n".join(str(o) for o in game.sample_orders(info.state, "1", robots))
        assert runner.submit("eq", "1", text).is_clean
        runner.resolve("eq")
    data = runner.state_json("eq")
    assert data["status"] == "finished" and data["winners"] == [] and data["outcome"] == "loss"
    assert "The game is over. Nobody wins." in runner.report_text("eq", "1")
    assert runner.replay("eq").is_identical


def test_a_bad_map_is_refused_when_the_game_is_created(runner: GameService) -> None:
    with pytest.raises(GameError, match=r"option map=ffeff/f\.f\.f/gb\.\.y: the green portal a3 touches the blue"):
        runner.create_game("epic-quest", "eq", seats={"1": "solo@example.org"}, options={"map": "FFEFF/F.F.F/GB..Y"})
    assert runner.games() == []


def _pbem(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return subprocess.run([str(PBEM), *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_the_command_line_runs_a_one_seat_game(tmp_path: Path) -> None:
    """pbem new / orders / resolve / show / replay with a single seat."""
    made = _pbem(tmp_path, "new", "epic-quest", "solo", "--seat", "1=me@example.org", "--seed", "3",
                 "--option", "turn_hours=0", "--option", "map=FFEFFF/F.F..F/G.B..Y")
    assert made.returncode == 0, made.stderr
    assert "|ENTRANCE    |" in made.stdout and "|yellow 12/8 |" in made.stdout
    sent = _pbem(tmp_path, "orders", "solo", "1", "-", stdin="@1 CLERIC RITUAL\nWARRIOR MOVE b1\nKNIGHT MOVE e1\n")
    assert sent.returncode == 1 and "REFUSED (line 3): e1 is not next to the Knight's card c1" in sent.stdout
    assert _pbem(tmp_path, "resolve", "solo").returncode == 0
    shown = json.loads(_pbem(tmp_path, "show", "solo", "--json", "--as", "1").stdout)
    assert shown["kind"] == "epic-quest" and shown["status"] == "active"
    assert shown["state"]["you"] == ["Warrior", "Knight", "Archer", "Cleric"]
    assert [a["card"] for a in shown["state"]["adventurers"]] == ["b1", "c1", "c1", "c1"]
    replayed = _pbem(tmp_path, "replay", "solo")
    assert replayed.returncode == 0 and "every state matches" in replayed.stdout
