"""Compacting finished games: once a game has been finished for the operator's time, its turn records,
submissions and record chain go compressed into its archive (their rows deleted), and every reader still gets
them whole: the reports of every turn,
``pbem replay``, ``pbem verify``, the record file (``pbem record``) and the record the chain hashes stay
exactly as they were. A game still played, or finished too recently, is left as it is."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlmodel import select
from test_cli import ok, pbem
from test_game_record import play, start
from web_site import TP_SEATS

from pbem.clock import utcnow
from pbem.mail.running.retention import reclaim_space
from pbem.service.api import GameService
from pbem.service.compaction import ARCHIVED, DEFAULT_COMPACT_AFTER, compact_finished, game_rows
from pbem.service.record_file import replay_file
from pbem.store import Database, open_database
from pbem.store.tables import TurnArchiveRow, TurnRecordRow


def _stored_turns(db: Database) -> list[tuple[int, dict[str, object], list[object]]]:
    with db.session() as session:
        return [(record.game_id, record.state, record.events)
                for record in session.exec(select(TurnRecordRow).order_by(TurnRecordRow.id))]  # type: ignore[arg-type]


def _rows_in_tables(db: Database, game_id: int) -> dict[str, int]:
    """How many rows of each archived table the game has in the table itself."""
    with db.session() as session:
        return {model.__tablename__: len(session.exec(select(model).where(model.game_id == game_id)).all())
                for model in ARCHIVED}


def _after_compaction_time() -> object:
    return utcnow() + DEFAULT_COMPACT_AFTER + timedelta(hours=1)


def test_a_compacted_game_keeps_every_report_replay_verification_and_record(runner: GameService, db: Database) -> None:
    start(runner)
    play(runner, turns=60)
    assert runner.info("rr").outcome is not None
    turns = len(runner.history("rr"))
    reports = [runner.report_text("rr", seat, turn) for turn in range(turns + 1) for seat in ("1", "2", None)]
    history, record = runner.history("rr"), runner.game_record("rr")
    replayed, verified = runner.replay("rr"), runner.verify("rr")
    game_id = runner.info("rr").row.id
    with db.session() as session:
        size = len(json.dumps(game_rows(session, game_id), default=str))
    assert all(_rows_in_tables(db, game_id).values())

    assert compact_finished(db, _after_compaction_time()) == 1
    assert _rows_in_tables(db, game_id) == dict.fromkeys(_rows_in_tables(db, game_id), 0)
    with db.session() as session:
        archive = session.exec(select(TurnArchiveRow)).one()
    assert len(archive.data) < size / 4, (len(archive.data), size)

    assert [(r.turn, r.state, r.events, r.orders, r.draws) for r in runner.history("rr")] == \
        [(r.turn, r.state, r.events, r.orders, r.draws) for r in history]
    assert [runner.report_text("rr", seat, turn) for turn in range(turns + 1) for seat in ("1", "2", None)] == reports
    assert runner.replay("rr") == replayed and replayed.is_identical
    assert runner.verify("rr") == verified and verified.is_identical and verified.draws_checked > 0
    assert runner.game_record("rr") == record and replay_file(record).is_identical
    assert _stored_turns(db) == []  # reading it left it compacted


def test_only_games_finished_for_the_operators_time_are_compacted_and_each_once(runner: GameService,
                                                                                 db: Database) -> None:
    start(runner, "done")
    play(runner, "done", turns=60)
    start(runner, "running")
    play(runner, "running", turns=1)
    assert runner.info("running").outcome is None
    assert compact_finished(db, utcnow()) == 0  # finished just now: within the time
    assert compact_finished(db, utcnow(), after=timedelta(0)) == 1
    assert compact_finished(db, _after_compaction_time()) == 0  # compacted already; the other one still runs
    running = runner.info("running").row.id
    assert [state != {} for game, state, _ in _stored_turns(db) if game == running] == [True]
    assert runner.replay("running").is_identical and runner.replay("done").is_identical


def test_pbem_record_verify_and_replay_of_a_compacted_game_through_the_command_line(tmp_path: Path, db_url: str,
                                                                                     db: Database) -> None:
    runner = GameService(db)
    start(runner)
    play(runner, turns=60)
    before = [ok(pbem(tmp_path, *command, "--db", db_url))
              for command in (("record", "rr", "--json"), ("verify", "rr"), ("replay", "rr"))]
    assert compact_finished(db, _after_compaction_time()) == 1
    assert [ok(pbem(tmp_path, *command, "--db", db_url))
            for command in (("record", "rr", "--json"), ("verify", "rr"), ("replay", "rr"))] == before
    record = tmp_path / "rr.json"
    record.write_text(before[0])
    assert "every state, draw and record entry matches" in ok(pbem(tmp_path, "replay", "--record", str(record)))


def test_going_back_to_the_schema_before_compaction_puts_the_states_back(tmp_path: Path) -> None:
    from test_report_digests import downgrade

    path = tmp_path / "old.db"
    database = open_database(str(path))
    runner = GameService(database)
    start(runner)
    play(runner, turns=60)
    history = [(r.turn, r.state, r.events) for r in runner.history("rr")]
    assert compact_finished(database, _after_compaction_time()) == 1
    database.close()
    downgrade(path, "0025")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT turn, state, events FROM turn_record ORDER BY turn")).all()
        assert [(turn, json.loads(state), json.loads(events)) for turn, state, events in rows] == history
        assert connection.execute(text("SELECT name FROM sqlite_master WHERE name = 'turn_archive'")).all() == []
    engine.dispose()


def test_compacted_games_give_their_room_back_to_the_file_system_on_sqlite(runner: GameService, db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's file (PostgreSQL's VACUUM: test_mailstore)")
    names = [f"tp-{number}" for number in range(4)]
    for number, name in enumerate(names):
        runner.create_game("three-pyramids", name, seed=number,
                           seats={seat: address.replace("@", f"{number}@") for seat, address in TP_SEATS.items()})
    for _ in range(200):  # played at once, so that their rows share pages
        for name in names:
            if runner.info(name).outcome is None:
                runner.resolve(name)
    assert all(runner.info(name).outcome is not None for name in names)

    def pages() -> dict[str, int]:
        with db.engine.connect() as connection:
            found = connection.exec_driver_sql("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").all()
        return {name: int(size) for name, size in found}

    def file_bytes() -> int:
        db.checkpoint()
        return Path(str(db.engine.url.database)).stat().st_size

    before, size = pages(), file_bytes()
    archived = sum(before.get(model.__tablename__, 0) for model in ARCHIVED)
    assert compact_finished(db, utcnow(), after=timedelta(0)) == 4
    reclaim_space(db)
    after = pages()
    assert after["turn_archive"] < archived / 4, (before, after)
    assert size - file_bytes() > archived / 2, (size, file_bytes(), archived)  # the file itself shrank
