"""Compacting finished games: once a game has been finished for the operator's time, its turn records,
submissions and record chain go compressed into its archive (their rows deleted), and every reader still gets
them whole: the reports of every turn,
``pbem replay``, ``pbem verify``, the record file (``pbem record``) and the record the chain hashes stay
exactly as they were. A game still played, or finished too recently, is left as it is."""

from __future__ import annotations

import json
import zlib
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlmodel import select
from test_cli import ok, pbem
from test_game_record import play, start
from test_report_digests import downgrade
from web_site import TP_SEATS

from pbem.clock import utcnow
from pbem.mail.running.retention import reclaim_space
from pbem.service import compaction, players, privacy
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


def _finished_game_in_file(path: Path) -> tuple[Database, GameService]:
    """A SQLite database at ``path`` holding the finished game ``rr``, and a service on it."""
    database = open_database(str(path))
    runner = GameService(database)
    start(runner)
    play(runner, turns=60)
    return database, runner


def test_going_back_to_the_schema_before_compaction_puts_the_states_back(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    database, runner = _finished_game_in_file(path)
    history = [(r.turn, r.state, r.events) for r in runner.history("rr")]
    with database.session() as session:
        counts = {name: len(rows) for name, rows in game_rows(session, runner.info("rr").row.id).items()}
    assert compact_finished(database, _after_compaction_time()) == 1
    database.close()
    downgrade(path, "0025")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT turn, state, events FROM turn_record ORDER BY turn")).all()
        assert [(turn, json.loads(state), json.loads(events)) for turn, state, events in rows] == history
        assert {name: connection.execute(text(f"SELECT count(*) FROM {name}")).scalar() for name in counts} == counts
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


def test_forgetting_an_address_rewrites_the_archived_submissions_that_quote_it(runner: GameService,
                                                                                db: Database) -> None:
    start(runner)
    quoting = "BID 2\n; as rosa@example.org wrote to me"
    assert runner.submit("rr", "1", quoting).version is not None
    play(runner, turns=60)
    with runner.unit(lock=False) as unit:
        mydata = privacy.data_of(unit, "rosa@example.org")
        record = players.record_of_address(unit.session, "rosa@example.org")
    assert record.met > 0 and record.finished == 1
    assert compact_finished(db, _after_compaction_time()) == 1
    with runner.unit(lock=False) as unit:
        assert ("turn_archive", (runner.info("rr").row.id,)) in privacy.traces_of(unit, "ROSA@example.org")
        stored = unit.session.get(TurnArchiveRow, runner.info("rr").row.id)
        assert stored is not None and stored.addresses == " rosa@example.org "  # what FORGET looks through
        assert list(compaction.archives_holding(unit.session, "osa@example.org")) == []  # a whole address only
        assert privacy.data_of(unit, "rosa@example.org") == mydata  # compaction hides nothing kept about it
        assert players.record_of_address(unit.session, "rosa@example.org") == record  # the players' record as it was
    verified = runner.verify("rr")

    with runner.unit() as unit:
        pseudonym = privacy.forget(unit, "rosa@example.org").pseudonym
    with runner.unit(lock=False) as unit:
        assert privacy.traces_of(unit, "rosa@example.org") == []
        archive = compaction.archive_of(unit.session, unit.game("rr"))
        assert unit.session.get(TurnArchiveRow, runner.info("rr").row.id).addresses == ""  # type: ignore[union-attr]
    assert archive is not None and _rows_in_tables(db, runner.info("rr").row.id)["submission"] == 0
    assert quoting.replace("rosa@example.org", pseudonym) in [sent.text for sent in archive.submissions]
    assert runner.verify("rr") == verified and verified.is_identical


def test_the_addresses_an_archive_quotes_are_found_in_every_text_of_any_script_each_once() -> None:
    rows = {"submission": [{"text": "BID 2 ; Jörg@Exämple.org and ann@example.org", "orders": ["x"]},
                           {"text": "again ANN@example.org, not an address: a@b or @example.org"}],
            "record_entry": [{"line": '{"note": "bo.b+pbem@mail.example.net"}'}]}
    assert compaction.quoted_addresses(rows) == " ann@example.org bo.b+pbem@mail.example.net jörg@exämple.org "
    assert compaction.quoted_addresses({"submission": [{"text": "BID 2"}]}) == ""


def test_an_archive_of_the_first_layout_is_rewritten_whole_by_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    database, runner = _finished_game_in_file(path)
    history, record, verified = runner.history("rr"), runner.game_record("rr"), runner.verify("rr")
    game_id = runner.info("rr").row.id
    database.close()
    downgrade(path, "0028")
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:  # compacted as the first layout did: states and events only
        turns = {str(turn): {"state": json.loads(state), "events": json.loads(events)} for turn, state, events
                 in connection.execute(text("SELECT turn, state, events FROM turn_record WHERE game_id = :game"),
                                       {"game": game_id})}
        connection.execute(text("INSERT INTO turn_archive (game_id, data, compacted_at) VALUES (:game, :data, :at)"),
                           {"game": game_id, "data": zlib.compress(json.dumps({"v": 1, "turns": turns}).encode()),
                            "at": utcnow().isoformat()})
        connection.execute(text("UPDATE turn_record SET state = '{}', events = '[]'"))
    engine.dispose()

    database = open_database(str(path))  # migrated to the newest layout
    try:
        runner = GameService(database)
        assert _rows_in_tables(database, game_id) == dict.fromkeys(_rows_in_tables(database, game_id), 0)
        assert [(r.turn, r.state, r.events, r.orders, r.nonces, r.resolved_at) for r in runner.history("rr")] == \
            [(r.turn, r.state, r.events, r.orders, r.nonces, r.resolved_at) for r in history]
        assert runner.game_record("rr") == record and runner.verify("rr") == verified and verified.is_identical
    finally:
        database.close()
