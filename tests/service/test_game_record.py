"""The game record: a hash chain whose entries link, receipts that match the stored orders, a rollback as
a branch naming its turn, an ending the last entry tells, verification that names the turn of any part
changed in the database, a record file that replays and moves a game to another server, and the
standalone tool on the reports' texts."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from pbem.core.chain import canonical, digest, receipt, without_record
from pbem.reports import render_report
from pbem.service import rewind
from pbem.service.api import GameService
from pbem.service.record_file import replay_file
from pbem.store import Database, open_database
from pbem.store.tables import AuditEntryRow, GameRow, RecordEntryRow, SubmissionRow, TurnRecordRow

KIND = "race-on-the-river"
TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_record.py"
BIDS = {"1": "BID 2", "2": "BID 1"}


def start(runner: GameService, name: str = "rr", seed: int = 11) -> None:
    runner.create_game(KIND, name, seats={"1": "rosa@example.org", "2": "otto@example.org"}, seed=seed)


def play(runner: GameService, name: str = "rr", turns: int = 1) -> list[str]:
    """Play ``turns`` turns (each seat its bid, or less when its hand is short); return each turn's receipts."""
    receipts = []
    for _ in range(turns):
        info = runner.info(name)
        if info.outcome is not None:
            break
        for seat in info.phase.seats if info.phase else ():
            for bid in (BIDS[seat], "BID 1", "BID 0"):
                result = runner.submit(name, seat, bid)
                if result.version is not None:
                    receipts.append(result.receipt or "")
                    break
        runner.resolve(name, reason="gm")
    return receipts


def chain(db: Database, name: str = "rr") -> list[RecordEntryRow]:
    with db.session() as session:
        game = session.exec(select(GameRow).where(GameRow.name == name)).one()
        return list(session.exec(select(RecordEntryRow).where(RecordEntryRow.game_id == game.id)
                                 .order_by(RecordEntryRow.seq)))


def fields(entry: RecordEntryRow) -> dict[str, Any]:
    return dict(json.loads(entry.line))


def test_each_entry_is_hashed_with_the_one_before_it_and_every_report_shows_the_head(runner: GameService,
                                                                                    db: Database) -> None:
    start(runner)
    play(runner, turns=2)
    entries = chain(db)
    assert [e.kind for e in entries] == ["start", "turn", "turn"]
    previous = ""
    for seq, entry in enumerate(entries):
        body = fields(entry)
        assert body["seq"] == seq and body["prev"] == previous and canonical(body) == entry.line
        assert entry.digest == digest(entry.line)
        previous = entry.digest
    start_entry = fields(entries[0])
    assert start_entry["commitment"] == runner.commitment("rr") and start_entry["seats"] == ["1", "2"]
    report = runner.report_text("rr", "1")
    assert f"Game record: turn 2, chain {entries[-1].digest}" in report
    assert entries[-1].line in report and entries[0].line not in report  # the entries since the last report
    opening = runner.report_text("rr", "1", 0)
    assert f"Game record: the start, chain {entries[0].digest}" in opening and entries[0].line in opening
    html = render_report(runner.last_report("rr"), "1", html=True, text=report)
    assert f"Game record: turn 2, chain <code>{entries[-1].digest[:8]}\u2026</code>" in html
    assert entries[-1].digest not in html and "~~~ record" not in html
    assert "Game record" not in without_record(report) and "Scores" in without_record(report)


def test_a_receipt_is_the_hash_of_the_orders_and_their_nonce_and_the_report_reveals_the_nonce(
        runner: GameService, db: Database) -> None:
    start(runner)
    receipts = play(runner)
    with db.session() as session:
        stored = list(session.exec(select(SubmissionRow).order_by(SubmissionRow.seat)))  # type: ignore[arg-type]
    assert [receipt("rr", 1, s.seat, s.orders, s.nonce or "") for s in stored] == receipts
    assert len({s.nonce for s in stored}) == 2 and all(len(s.nonce or "") == 32 for s in stored)
    assert fields(chain(db)[1])["orders"] == {"1": receipts[0], "2": receipts[1]}
    report = runner.report_text("rr", "2")
    for submission in stored:
        assert f"turn 1, seat {submission.seat}: {submission.orders[0]} | nonce {submission.nonce}" in report
    text = runner.submit("rr", "1", "BID 1").render()
    assert "Receipt for game rr, turn 2, seat 1, v1: " in text


def test_a_rollback_is_a_branch_that_names_its_turn_and_the_next_report_says_so(runner: GameService,
                                                                               db: Database) -> None:
    start(runner)
    play(runner, turns=3)
    gm = GameService(db, actor="gm gm@example.org")
    with gm.unit() as unit:
        code = rewind.request_rollback(unit, "rr", 2)
    with gm.unit() as unit:
        rewind.confirm_rollback(unit, "rr", 2, code)
    entries = chain(db)
    rolled = fields(entries[-1])
    assert rolled["kind"] == "rollback" and rolled["returns_to"] == 2 and rolled["undone"] == [2, 3]
    assert rolled["branch_from"] == entries[1].digest and rolled["by"] == "GM" and rolled["prev"] == entries[3].digest
    play(runner)
    assert fields(chain(db)[-1])["prev"] == chain(db)[4].digest
    report = runner.report_text("rr", "2")
    assert "Turn 2 was rolled back by the GM at " in report and "turn(s) 2, 3 undone" in report
    assert runner.replay("rr").is_identical


def test_the_gms_end_is_the_last_entry_and_says_how_the_game_ended(runner: GameService, db: Database) -> None:
    start(runner)
    play(runner)
    runner.set_deadline("rr", runner.info("rr").row.deadline + timedelta(hours=1))  # type: ignore[operator]
    runner.end("rr")
    last = fields(chain(db)[-1])
    assert last["kind"] == "end" and last["ending"]["how"] == "gm" and last["ending"]["headline"]
    assert [a["action"] for a in last["actions"]] == ["DEADLINE", "END"]
    assert all("@" not in a["text"] for a in last["actions"])
    assert f"Game record: turn 1, chain {chain(db)[-1].digest}" in runner.report_text("rr", "1")


def _tamper(db: Database, table: Any, where: Any, change: Any) -> None:
    with db.session() as session:
        row = session.exec(select(table).where(where)).first()
        change(row)
        session.add(row)
        session.commit()


@pytest.mark.parametrize("part, named", [
    ("order", "turn 2: seat 1's orders as stored do not match their receipt in the record (entry 2)"),
    ("submission", "turn 2: seat 1's orders as received (v1) differ from the orders resolved"),
    ("draw", "turn 2: record entry 2 (turn): the draws differ from the stored game"),
    ("nmr", "turn 2: record entry 2 (turn): the NMR seats differ from the stored game"),
    ("salt", "turn 0: record entry 0 (start): the salts differ from the stored game"),
    ("options", "turn 0: record entry 0 (start): the options differ from the stored game"),
    ("gm action", "turn 2: record entry 2 (turn): its GM actions differ from the game's audit log"),
    ("entry", "turn 2: record entry 2 (turn): its stored hash is not the hash of its line"),
    ("link", "turn 3: record entry 3 (turn): it does not link to the entry before it"),
])
def test_verify_names_the_turn_of_any_part_changed_in_the_database(runner: GameService, db: Database, part: str,
                                                                  named: str) -> None:
    start(runner)
    play(runner)
    runner.extend("rr", timedelta(hours=5))  # a GM action of turn 2
    play(runner, turns=2)
    assert runner.verify("rr", operator=True).is_identical
    turn2 = (TurnRecordRow.turn == 2)
    if part == "order":
        _tamper(db, TurnRecordRow, turn2, lambda r: setattr(r, "orders", {**r.orders, "1": ["BID 0"]}))
    elif part == "submission":
        _tamper(db, SubmissionRow, (SubmissionRow.turn == 2) & (SubmissionRow.seat == "1"),
                lambda r: setattr(r, "orders", ["BID 0"]))
    elif part == "draw":
        _tamper(db, TurnRecordRow, turn2, lambda r: setattr(r, "draws", [[c, n, (v + 1) % n] for c, n, v in r.draws]))
    elif part == "nmr":
        _tamper(db, TurnRecordRow, turn2, lambda r: setattr(r, "nmr", ["2"]))
    elif part == "salt":
        _tamper(db, GameRow, GameRow.name == "rr", lambda r: setattr(r, "salts", ["1:sneaky"]))
    elif part == "options":
        _tamper(db, GameRow, GameRow.name == "rr", lambda r: setattr(r, "options", {"stamina": "8"}))
    elif part == "gm action":
        _tamper(db, AuditEntryRow, AuditEntryRow.action == "EXTEND", lambda r: setattr(r, "text", "nothing happened"))
    elif part == "entry":
        _tamper(db, RecordEntryRow, RecordEntryRow.seq == 2, lambda r: setattr(r, "line", r.line.replace('"gm"', '"all-in"')))
    elif part == "link":
        def rewrite(entry: RecordEntryRow) -> None:  # a changed entry 2, its hash made to fit: entry 3 no longer links
            body = json.loads(entry.line)
            body["nmr"] = ["2"]
            entry.line = canonical(body)
            entry.digest = digest(entry.line)
        _tamper(db, RecordEntryRow, RecordEntryRow.seq == 2, rewrite)
    result = runner.verify("rr", operator=True)
    assert named in result.mismatches, result.mismatches


def test_a_record_file_replays_and_moves_the_game_whose_chain_goes_on(runner: GameService, db: Database,
                                                                      tmp_path: Path) -> None:
    from databases import database_url

    start(runner)
    play(runner, turns=2)
    data = runner.game_record("rr")
    assert data["head"] == chain(db)[-1].digest and data["secret"] == "11"
    assert replay_file(data).is_identical
    changed = json.loads(json.dumps(data))
    changed["turns"][1]["orders"]["1"] = ["BID 0"]
    assert any(m.startswith("turn 2: ") for m in replay_file(changed).mismatches)
    (tmp_path / "other").mkdir()
    other = open_database(database_url(tmp_path / "other"))
    try:
        moved = GameService(other)
        row = moved.import_record(data)
        assert row.status == "paused" and row.turn == 3
        moved.resume("rr")
        assert moved.verify("rr", operator=True).is_identical
        play(moved)
        entries = chain(other)
        assert fields(entries[-1])["prev"] == data["head"] and len(entries) == len(data["chain"]) + 1
        assert moved.verify("rr", operator=True).is_identical
    finally:
        other.close()


def test_the_tool_checks_the_reports_texts_and_names_the_turn_of_a_changed_bid(runner: GameService,
                                                                              tmp_path: Path) -> None:
    start(runner)
    play(runner, turns=3)
    folder = tmp_path / "reports"
    folder.mkdir()
    for turn in range(4):
        (folder / f"turn-{turn}.txt").write_text(runner.report_text("rr", "1", turn))
    checked = subprocess.run([sys.executable, str(TOOL), str(folder)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "FAIL" not in checked.stdout, checked.stdout
    report = (folder / "turn-2.txt").read_text()
    bid = next(line for line in report.splitlines() if line.startswith('{"entry":2,') and '"seat":"1"' in line)
    (folder / "turn-2.txt").write_text(report.replace(bid, bid.replace("BID ", "BID 1")))
    checked = subprocess.run([sys.executable, str(TOOL), str(folder)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 1 and "turn 2: seat 1's orders as revealed" in checked.stdout, checked.stdout


def test_a_turn_the_gm_processes_says_so_and_an_agreed_ending_is_recorded_through_the_hook(
        runner: GameService, db: Database) -> None:
    from pbem.core import Outcome, OutcomeKind
    from pbem.service import record

    start(runner)
    gm = GameService(db, actor="gm gm@example.org")
    for seat, bid in BIDS.items():
        runner.submit("rr", seat, bid)
    gm.resolve("rr", reason="gm")
    processed = fields(chain(db)[-1])
    assert [(a["action"], a["by"]) for a in processed["actions"]] == [("PROCESS", "GM")]
    assert processed["reason"] == "gm" and "gm@example.org" not in chain(db)[-1].line
    with runner.unit() as unit:  # an ending the table agreed on: the caller names how
        record.append_end(unit, unit.game("rr"), "draw", Outcome((), "the table agreed a draw", OutcomeKind.DRAW))
    ended = fields(chain(db)[-1])
    assert ended["kind"] == "end" and ended["ending"] == {"how": "draw", "kind": "draw", "winners": [],
                                                          "headline": ended["ending"]["headline"]}
    assert runner.replay("rr").is_identical


@pytest.mark.parametrize("part, named", [
    ("events", "turn 2: replayed events differ from the stored ones"),
    ("last entry", "turn 3: the game's record has no entry for it"),
])
def test_replay_names_changed_events_and_a_turn_left_out_of_the_record(runner: GameService, db: Database,
                                                                        part: str, named: str) -> None:
    start(runner)
    play(runner, turns=3)
    if part == "events":
        _tamper(db, TurnRecordRow, TurnRecordRow.turn == 2, lambda r: setattr(r, "events", r.events[:-1]))
    else:
        with db.session() as session:
            session.delete(session.exec(select(RecordEntryRow).where(RecordEntryRow.seq == 3)).one())
            session.commit()
    assert named in runner.replay("rr").mismatches


def test_a_forgotten_player_leaves_the_record_as_it_was(runner: GameService, db: Database) -> None:
    from pbem.service import privacy

    start(runner)
    play(runner)
    runner.replace("rr", "2", "newcomer@example.org")  # the REPLACE names both addresses in the audit log
    play(runner)
    head = chain(db)[-1].digest
    assert "(an address)" in chain(db)[-1].line and "example.org" not in chain(db)[-1].line
    with runner.unit() as unit:
        privacy.forget(unit, "otto@example.org")
    assert "otto@example.org" not in " ".join(e.text for e in runner.log("rr"))
    result = runner.replay("rr")
    assert result.is_identical and result.head == head, result.mismatches
