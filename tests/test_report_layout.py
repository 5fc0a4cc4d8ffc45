"""What a reader notices in every game's reports: no stray blank lines, the last board named for
the turn that ended the game, an HTML title that names the turns of the report."""

from __future__ import annotations

import io
import re

import pytest

from pbem.sandbox.demo import run_offline_demo
from pbem.games import GAMES
from pbem.store import Database
from pbem.service.api import GameService


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_finished_games_reports_have_no_stray_blank_lines(db: Database, kind: str) -> None:
    runner = GameService(db)
    out = io.StringIO()
    assert run_offline_demo(runner, kind=kind, seed=3, out=out) == 0
    report = out.getvalue().split("\n\n", 1)[1]
    assert "\n\n\n" not in report and not report.startswith("\n") and report.endswith("\n")
    name = runner.games()[0].name
    for seat in (None, runner.info(name).seat_names[0]):
        text = runner.report_text(name, seat)
        assert "\n\n\n" not in text and not text.startswith("\n")


def test_the_offline_demos_last_board_is_headed_with_the_turn_that_ended_the_game(db: Database) -> None:
    runner = GameService(db)
    out = io.StringIO()
    assert run_offline_demo(runner, kind="turkey-chase", seed=3, out=out) == 0
    last = int(re.findall(r"turn +(\d+) resolved", out.getvalue())[-1])
    assert f"The cornfield after turn {last}, the last of the game:" in out.getvalue()
    assert f"Turn {last} results" in out.getvalue()
