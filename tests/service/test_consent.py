"""Whom pbem may write to (pbem.service.consent) as the service keeps it: the migration that counts every
address known before as asked, the operator's word, START waiting for acceptance, and STOP."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_report_digests import downgrade

from pbem.core import GameError
from pbem.service import consent
from pbem.service.api import GameService
from pbem.store import Database, open_database


def test_every_address_known_before_the_migration_counts_as_asked(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    database = open_database(str(path))
    runner = GameService(database)
    runner.create_game("race-on-the-river", "old", seats={"1": "a@example.org", "2": "b@example.org"}, seed=4,
                       gm_address="gm@example.org")
    database.close()
    downgrade(path, "0012")
    database = open_database(str(path))  # migrates to the newest schema again
    try:
        with GameService(database).unit() as unit:
            for address in ("a@example.org", "b@example.org", "gm@example.org"):
                assert consent.may_mail(unit.session, address), address
            assert not consent.may_mail(unit.session, "stranger@example.org")
    finally:
        database.close()


def test_start_waits_for_a_seat_whose_holder_has_not_asked(db: Database) -> None:
    runner = GameService(db)
    runner.create_game("race-on-the-river", "r", players=2, gm_address="gm@example.org")
    runner.assign("r", "1", "ann@example.org")  # the operator's word: asked
    with runner.unit() as unit:  # as SEAT by mail stores it, without asking
        seat = unit.seat(unit.game("r"), "2")
        seat.address = "ben@example.org"
        unit.add(seat)
    with pytest.raises(GameError, match=r"seat 2 \(ben@example.org\) did not accept the invitation"):
        runner.start("r")
    with runner.unit() as unit:
        assert consent.record_asked(unit, "ben@example.org")
        assert not consent.record_asked(unit, "ben@example.org")
    assert runner.start("r").row.turn == 1


def test_stop_ends_the_consent_until_the_address_asks_again(db: Database) -> None:
    runner = GameService(db)
    runner.create_game("race-on-the-river", "r", seats={"1": "ann@example.org", "2": "ben@example.org"}, seed=1)
    with runner.unit() as unit:
        held = consent.stop(unit, "Ann@Example.org")
        assert [(row.name, seat.name) for row, seat in held] == [("r", "1")]
        assert not consent.may_mail(unit.session, "ann@example.org") and consent.is_stopped(unit.session, "ann@example.org")
        with pytest.raises(consent.StoppedAddress):
            consent.invite(unit, unit.game("r"), "1", "ann@example.org", by="gm@example.org")
        assert consent.record_asked(unit, "ann@example.org")
        assert consent.may_mail(unit.session, "ann@example.org")
