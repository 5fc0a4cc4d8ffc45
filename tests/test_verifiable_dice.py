"""Commit-then-reveal seeds, salts, draw logs, verification and versioned rules and generators."""

from __future__ import annotations

import hashlib
import json

import pytest
from sqlalchemy import text
from sqlmodel import select

from pbem.core import GameError, InvalidInput
from pbem.core.rng import LEGACY_VERSION, commitment, derive_seed
from pbem.games import find_game
from pbem.store import Database, open_database
from pbem.store.tables import TurnRecordRow
from pbem.service.api import GameService

KIND = "farm-cheesi"  # rolls dice every turn


def seats() -> dict[str, str]:
    return {seat: f"{seat.lower()}@example.org" for seat in find_game(KIND).seat_names(2)}


def first_seat() -> str:
    return find_game(KIND).seat_names(2)[0]


def play(runner: GameService, name: str, turns: int) -> None:
    for _ in range(turns):
        if runner.info(name).outcome is not None:
            return
        runner.resolve(name, reason="gm")


def test_the_first_report_commits_to_the_secret_that_the_final_report_reveals(runner: GameService) -> None:
    runner.create_game(KIND, "fc", players=2)
    info = runner.info("fc")
    assert info.row.secret is not None and len(info.row.secret) == 64
    promised = hashlib.sha256(f"fc\n{info.row.secret}".encode()).hexdigest()
    assert runner.commitment("fc") == promised


def test_start_mixes_the_salts_in_and_the_reports_name_them(runner: GameService) -> None:
    runner.create_game(KIND, "fc", players=2, seed=17)
    salts = runner.add_salt("fc", "B", "  pick me  ")
    assert salts == ["B:pick me"]
    for seat in runner.info("fc").seats:
        runner.assign("fc", seat.name, f"{seat.name.lower()}@example.org")
    info = runner.start("fc")
    assert info.row.seed == derive_seed("17", ["B:pick me"]) != derive_seed("17")
    opening = runner.report_text("fc", None)
    assert f"Seed commitment for game fc (SHA-256): {commitment('fc', '17')}" in opening
    assert "Salt: B:pick me" in opening
    assert "Seed revealed" not in opening
    with pytest.raises(GameError, match="before the start"):
        runner.add_salt("fc", first_seat(), "too late")


def test_a_salt_must_be_one_short_line(runner: GameService) -> None:
    runner.create_game(KIND, "fc", players=2)
    for bad in ["", "x" * 201, "two\nlines"]:
        with pytest.raises(InvalidInput, match="SALT takes one line"):
            runner.add_salt("fc", first_seat(), bad)


def test_reveal_ends_the_game_and_the_revealed_secret_matches_the_commitment(runner: GameService) -> None:
    runner.create_game(KIND, "fc", seats=seats())
    promised = runner.commitment("fc")
    play(runner, "fc", 3)
    with pytest.raises(GameError, match="not revealed"):
        runner.verify("fc")
    row = runner.reveal("fc")
    assert row.status == "finished" and row.secret is not None
    assert hashlib.sha256(f"fc\n{row.secret}".encode()).hexdigest() == promised
    assert row.seed == derive_seed(row.secret, row.salts)
    assert f"Seed revealed: {row.secret}" in runner.report_text("fc", first_seat())
    result = runner.verify("fc")
    assert result.is_identical and result.draws_checked > 0


def test_reports_list_the_draws_of_their_turn_with_counters(runner: GameService) -> None:
    runner.create_game(KIND, "fc", seats=seats())
    play(runner, "fc", 2)
    last = runner.history("fc")[-1]
    assert last.draws and all(len(draw) == 3 for draw in last.draws)
    report = runner.report_text("fc", first_seat())
    words = " ".join(line.split(": ", 1)[1] for line in report.splitlines() if line.startswith("Draws "))
    assert words.split()[-len(last.draws):] == [f"{c}:{n}={r}" for c, n, r in last.draws]


def test_a_tampered_draw_is_detected_by_verify(runner: GameService, db: Database) -> None:
    runner.create_game(KIND, "fc", seats=seats())
    play(runner, "fc", 3)
    runner.reveal("fc")
    with db.session() as session:
        record = session.exec(select(TurnRecordRow).where(TurnRecordRow.turn == 2)).one()
        counter, n, result = record.draws[0]
        record.draws = [[counter, n, (result + 1) % n], *record.draws[1:]]
        session.add(record)
        session.commit()
    result = runner.verify("fc")
    assert not result.is_identical
    assert any(m.startswith("turn 2: draw 1 (counter") for m in result.mismatches), result.mismatches


def test_a_game_of_the_legacy_generator_replays_identically_after_the_migration(db_url: str) -> None:
    path = db_url
    database = open_database(path)
    runner = GameService(database)
    runner.create_game(KIND, "old", seats=seats(), seed=42, rng_version=LEGACY_VERSION)
    play(runner, "old", 4)
    history = [(r.turn, r.rng_state, r.state) for r in runner.history("old")]
    assert history and history[0][1][0] == 3  # a Mersenne Twister state, as stored before
    database.close()
    # Take the schema back to before versions existed, as a database of the previous release looks.
    _alembic(path, "downgrade", "0005")
    database = open_database(path)  # migrates to the newest schema again
    runner = GameService(database)
    row = runner.info("old").row
    assert (row.rng_version, row.rules_version, row.secret) == (LEGACY_VERSION, 1, None)
    replay = runner.replay("old")
    assert replay.is_identical and replay.turns == len(history), replay.mismatches
    play(runner, "old", 2)  # it goes on with its own generator
    assert [(r.turn, r.rng_state, r.state) for r in runner.history("old")][:len(history)] == history
    assert runner.history("old")[-1].rng_state[0] == 3
    assert runner.replay("old").is_identical
    database.close()


def _alembic(path: str, command_name: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from pbem.store import database as store

    engine = create_engine(store.database_url(path))
    config = Config()
    config.set_main_option("script_location", str(store._MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        getattr(command, command_name)(config, revision)
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == revision
    engine.dispose()


def test_replay_names_the_rules_versions_instead_of_reporting_a_mismatch(
        runner: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    runner.create_game(KIND, "fc", seats=seats())
    play(runner, "fc", 2)
    before = len(runner.history("fc"))
    game_class = type(find_game(KIND))
    original = game_class.resolve

    def changed_rules(self, state, orders, rng):  # type: ignore[no-untyped-def]
        rng.roll(6)  # the new rules roll one more die
        return original(self, state, orders, rng)

    monkeypatch.setattr(game_class, "resolve", changed_rules)
    different = runner.upgrade_check()
    assert [r.game for r in different] == ["fc"]  # changed outcomes without a version bump are flagged
    old, new = game_class.rules_version, game_class.rules_version + 1
    monkeypatch.setattr(game_class, "rules_version", new)
    assert runner.upgrade_check() == []
    play(runner, "fc", 2)
    assert runner.info("fc").row.rules_version == new
    replay = runner.replay("fc")
    assert replay.is_identical, replay.mismatches
    after = len(runner.history("fc"))
    assert replay.versions == [f"turns 1-{before}: rules version {old}, generator version 2",
                               f"turns {before + 1}-{after}: rules version {new}, generator version 2"]


def test_the_first_report_lists_the_setup_draws_and_verify_checks_them(runner: GameService, db: Database) -> None:
    runner.create_game(KIND, "fc", seats=seats(), options={"start": "random"})  # the first player is drawn
    setup = runner.info("fc").row.setup_draws
    assert setup, "drawing the first player is a setup draw"
    first_report = runner.report_text("fc", None)
    assert " ".join(f"{c}:{n}={r}" for c, n, r in setup) in first_report
    play(runner, "fc", 2)
    runner.reveal("fc")
    assert runner.verify("fc").is_identical
    with db.session() as session:
        session.execute(text("UPDATE game SET setup_draws = :draws WHERE name = 'fc'"),
                        {"draws": json.dumps([[c, n, (r + 1) % n] for c, n, r in setup])})
    result = runner.verify("fc")
    assert any(m.startswith("setup: draw 1 (counter") for m in result.mismatches), result.mismatches
