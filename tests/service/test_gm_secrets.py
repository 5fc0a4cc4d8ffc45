"""The GM's SECRETS through the service layer: every seat's view of the turn, each as the seat reads
it, recorded in the game's audit log (action SECRETS, the actor and the time); refused, and not
recorded, for a game whose secrets nobody is shown (Meanies in our Midst), and before the start."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pbem.core import GameError
from pbem.reports import render_report
from pbem.service import audit, gm_secrets
from pbem.service.api import GameService
from pbem.service.gm_secrets import SecretsWithheld
from pbem.store import Database

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def secrets_entries(runner: GameService, name: str) -> list[audit.AuditEntry]:
    with runner.unit() as unit:
        return [entry for entry in audit.entries(unit, name) if entry.action == "SECRETS"]


def test_secrets_gives_every_seats_own_view_and_is_recorded(db: Database) -> None:
    runner = GameService(db, clock=lambda: NOW)
    runner.create_game("three-pyramids", "p", seats={"1": "a@example.org", "2": "b@example.org"}, seed=4,
                       gm_address="gm@example.org")
    assert secrets_entries(runner, "p") == []
    with runner.unit() as unit:
        unit.actor = "gm gm@example.org"
        views = gm_secrets.seat_views(unit, "p")
    assert (views.game, views.turn, [seat for seat, _ in views.reports]) == ("p", 1, ["1", "2"])
    state = runner.info("p").state
    rules = runner.info("p").rules
    for seat, report in views.reports:
        text = render_report(report, seat)
        assert text == runner.report_text("p", seat) and f"report for seat {seat}" in text
        assert rules.view(report.state, seat) == rules.view(state, seat)
    assert runner.report_text("p", "1") != runner.report_text("p", "2")  # each its own hand
    [entry] = secrets_entries(runner, "p")
    assert (entry.at, entry.actor) == (NOW, "gm gm@example.org")
    assert entry.text == "every seat's view of turn 1, secrets included, mailed to the GM's address"
    assert entry.line() == ("2026-11-01 12:00 UTC  gm gm@example.org  SECRETS  every seat's view of turn 1, secrets "
                            "included, mailed to the GM's address")


def test_secrets_is_refused_where_nobody_may_see_them_and_before_the_start(db: Database) -> None:
    runner = GameService(db, clock=lambda: NOW)
    runner.create_game("meanies-in-our-midst", "m", seats={s: f"p{s}@example.org" for s in "1234"}, seed=4)
    runner.create_game("three-pyramids", "f", players=2)
    with runner.unit() as unit:
        with pytest.raises(SecretsWithheld, match="refused for Meanies in our Midst: who gave which cubes is never "
                                                  "shown, not to the GM either"):
            gm_secrets.seat_views(unit, "m")
        with pytest.raises(GameError, match="has not started"):
            gm_secrets.seat_views(unit, "f")
    assert secrets_entries(runner, "m") == secrets_entries(runner, "f") == []
