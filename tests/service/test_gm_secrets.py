"""The GM's SECRETS through the service layer: every seat's view of the turn, each as the seat reads
it, recorded as a GM action (a log line with the game, the GM's address and the time); refused for a
game whose secrets nobody is shown (Meanies in our Midst), and before the start."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from pbem.core import GameError
from pbem.reports import render_report
from pbem.service import gm_secrets
from pbem.service.api import GameService
from pbem.service.gm_secrets import SecretsWithheld
from pbem.store import Database

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def test_secrets_gives_every_seats_own_view_and_is_recorded(db: Database, caplog: pytest.LogCaptureFixture) -> None:
    runner = GameService(db, clock=lambda: NOW)
    runner.create_game("three-pyramids", "p", seats={"1": "a@example.org", "2": "b@example.org"}, seed=4,
                       gm_address="gm@example.org")
    caplog.set_level(logging.INFO, logger="pbem.audit")
    with runner.unit() as unit:
        views = gm_secrets.seat_views(unit, "p", gm_address="gm@example.org")
    assert (views.game, views.turn, [seat for seat, _ in views.reports]) == ("p", 1, ["1", "2"])
    state = runner.info("p").state
    rules = runner.info("p").rules
    for seat, report in views.reports:
        text = render_report(report, seat)
        assert text == runner.report_text("p", seat) and f"report for seat {seat}" in text
        assert rules.view(report.state, seat) == rules.view(state, seat)
    assert runner.report_text("p", "1") != runner.report_text("p", "2")  # each its own hand
    [record] = [r for r in caplog.records if r.name == "pbem.audit"]
    assert record.levelno == logging.INFO
    assert record.getMessage() == "game p: GM gm@example.org: SECRETS: every seat's view of turn 1 at 2026-11-01 12:00 UTC"


def test_secrets_is_refused_where_nobody_may_see_them_and_before_the_start(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    runner = GameService(db, clock=lambda: NOW)
    runner.create_game("meanies-in-our-midst", "m", seats={s: f"p{s}@example.org" for s in "1234"}, seed=4)
    runner.create_game("three-pyramids", "f", players=2)
    caplog.set_level(logging.INFO, logger="pbem.audit")
    with runner.unit() as unit:
        with pytest.raises(SecretsWithheld, match="refused for Meanies in our Midst: who gave which cubes is never "
                                                  "shown, not to the GM either"):
            gm_secrets.seat_views(unit, "m", gm_address="gm@example.org")
        with pytest.raises(GameError, match="has not started"):
            gm_secrets.seat_views(unit, "f", gm_address="gm@example.org")
    assert not [r for r in caplog.records if r.name == "pbem.audit"]
