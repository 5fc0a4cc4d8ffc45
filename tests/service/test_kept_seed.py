"""A game whose kind declares ``reveals_seed = False`` (Meanies in our Midst, Shelloker, Resource Rich,
The Three Pyramids: see docs/secrets.md) never shows its secret:
not in the reports or STATUS once it is over, not by VERIFY or ``pbem verify`` (refused, saying why),
not by the GM's REVEAL or ``pbem reveal`` (which end the game and say the seed stays secret). Every
other game still reveals its seed at the end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from databases import database_url

from pbem.core import GameError
from pbem.games import GAMES, find_game
from pbem.mail.answering.answers import commitment_line, status_text
from pbem.service import creation
from pbem.service.api import GameService
from pbem.store import open_database

PBEM = Path(sys.executable).with_name("pbem")
SECRET = "the committed secret of this game, 9f3a"


def _pbem(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return subprocess.run([str(PBEM), *args, "--db", db], capture_output=True, text=True, env=env, timeout=120,
                          check=False)


def _create(runner: GameService, kind: str, name: str, players: int) -> None:
    """A started game whose secret is :data:`SECRET` (a text no report could hold by chance)."""
    with runner.unit() as unit:
        creation.create_game(unit, kind, name, seats={str(n): f"p{n}@example.org" for n in range(1, players + 1)},
                             options={"turn_hours": "0"})
        unit.game(name).secret = SECRET


KEEPERS = sorted(kind for kind in GAMES if not find_game(kind).reveals_seed)
ROOT = Path(__file__).resolve().parents[2]


def test_the_games_that_keep_their_seed_are_those_whose_rule_books_keep_a_secret_for_ever() -> None:
    """docs/secrets.md lists every game, and says "kept secret" for exactly the games that keep it."""
    rows = [line.split("|") for line in (ROOT / "docs" / "secrets.md").read_text().splitlines()
            if line.startswith("| ") and not line.startswith("| Game") and not line.startswith("| ---")]
    listed = {cells[1].strip(): "kept secret" in cells[4] for cells in rows}
    assert listed == {find_game(kind).title: not find_game(kind).reveals_seed for kind in GAMES}
    assert KEEPERS == ["meanies-in-our-midst", "resource-rich", "shelloker", "three-pyramids"]
    for kind in KEEPERS:
        assert "seed stays secret after the end" in find_game(kind).help().replace("\n  ", " "), kind


@pytest.mark.parametrize("kind", KEEPERS)
def test_the_seed_of_a_game_that_keeps_it_is_never_shown(kind: str, tmp_path: Path) -> None:
    title = find_game(kind).title
    db_path = database_url(tmp_path)
    db = open_database(db_path)
    try:
        runner = GameService(db)
        _create(runner, kind, "m", find_game(kind).min_players)
        _create(runner, "race-on-the-river", "r", 2)
        assert f"The secret is never revealed: {title} keeps its seed secret" in \
            commitment_line(runner.info("m").row)
        row = runner.reveal("m")  # the GM's REVEAL: the game ends
        assert row.status == "finished"
        for reader in (None, *runner.info("m").seat_names):
            assert SECRET not in runner.report_text("m", reader) and "Seed revealed" not in runner.report_text("m", reader)
        assert runner.status("m").revealed_secret is None and SECRET not in status_text(runner.status("m"))
        assert SECRET not in str(runner.state_json("m"))
        with pytest.raises(GameError, match=f"cannot be verified: {title} keeps its seed secret"):
            runner.verify("m")
        runner.reveal("r")  # any other game reveals its seed at the end
        assert f"Seed revealed: {SECRET}" in runner.report_text("r", None)
    finally:
        db.close()
    revealed = _pbem(db_path, "reveal", "m")
    assert revealed.returncode == 0 and SECRET not in revealed.stdout, revealed
    assert f"Game m is over; its seed is not revealed: {title} keeps its seed secret" in revealed.stdout
    verified = _pbem(db_path, "verify", "m")
    assert verified.returncode == 1 and SECRET not in verified.stdout + verified.stderr
    assert f"cannot be verified: {title} keeps its seed secret" in verified.stderr
    shown = _pbem(db_path, "show", "m")
    assert shown.returncode == 0 and SECRET not in shown.stdout
    other = _pbem(db_path, "reveal", "r")
    assert other.returncode == 0 and f"secret {SECRET}" in other.stdout
