"""Checking a game's stored record against the game (what ``pbem verify`` and ``pbem replay`` add to the
replay): every entry's hash and link, and every entry recomputed from what the game stores (its options,
salts and setup draws; each turn's orders, nonces, NMR seats, draws and time; each rollback; the GM
actions of the audit log). Each problem names the turn of the entry it is found in."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlmodel import select

from pbem.core.chain import canonical, digest
from pbem.service import compaction, queries
from pbem.service.record import (actions_between, actor_role, body, entries, rollback_fields, start_fields,
                                 turn_fields)
from pbem.service.unit import Unit
from pbem.store.tables import AuditEntryRow, GameRow, RecordEntryRow, SubmissionRow, TurnRecordRow

_NAMES = {"orders": "the receipts of the orders", "draws": "the draws", "nmr": "the NMR seats",
          "passed": "the passed seats", "salts": "the salts", "options": "the options", "seats": "the seats",
          "commitment": "the seed commitment", "phase": "the phase", "reason": "why it resolved",
          "at": "the time", "returns_to": "the turn returned to", "undone": "the turns undone",
          "branch_from": "the entry it builds on", "by": "who did it", "game_kind": "the kind",
          "rng_version": "the generator version", "rules_version": "the rules version"}


def check(unit: Unit, row: GameRow) -> list[str]:
    """Every problem of the game's stored record, in order (empty when it holds): a hash or link that
    does not hold, or an entry that differs from what it is recomputed from."""
    chain = entries(unit, row)
    problems = link_problems(chain) + _unrecorded(unit, row, chain)
    sources = _turn_sources(unit, row, chain)
    received = _received(unit, row)
    rollbacks = iter(_rollback_audits(unit, row))
    upto = 0
    for entry in chain:
        fields = body(entry)
        where = f"turn {entry.turn}: record entry {entry.seq} ({entry.kind})"
        actions, _ = actions_between(unit, row, upto, entry.audit_upto)
        upto = entry.audit_upto
        if fields.get("actions") != actions:
            problems.append(f"{where}: its GM actions differ from the game's audit log")
        expected: dict[str, Any] = {}
        if entry.kind == "start":
            expected = start_fields(row, [seat.name for seat in unit.seats(row)])
        elif entry.kind == "turn" and entry.seq not in sources:
            problems.append(f"{where}: the game stores no turn record for it")
        elif entry.kind == "turn":
            expected = turn_fields(row, sources[entry.seq])
            problems += _receipts(entry, fields, expected)
            problems += _submissions(received, sources[entry.seq], entry.turn)
        elif entry.kind == "rollback":
            audit = next(rollbacks, None)
            if audit is None:
                problems.append(f"{where}: the audit log has no rollback for it")
                continue
            expected = rollback_fields(chain[:entry.seq], fields.get("returns_to", 0),
                                       [undone["turn"] for undone in audit.data["undone"]], actor_role(audit.actor),
                                       audit.at)
        for key, value in expected.items():
            if key != "orders" and fields.get(key) != value:
                problems.append(f"{where}: {_NAMES.get(key, key)} differ from the stored game")
    return problems


def link_problems(chain: Sequence[RecordEntryRow]) -> list[str]:
    """The problems of the hashes and links of ``chain`` (entries in order), each naming its turn."""
    problems: list[str] = []
    previous = ""
    for index, entry in enumerate(chain):
        where = f"turn {entry.turn}: record entry {entry.seq} ({entry.kind})"
        try:
            fields = json.loads(entry.line)
        except ValueError:
            problems.append(f"{where}: its line is not JSON")
            previous = entry.digest
            continue
        if digest(entry.line) != entry.digest:
            problems.append(f"{where}: its stored hash is not the hash of its line")
        if canonical(fields) != entry.line:
            problems.append(f"{where}: its line is not in canonical form")
        if fields.get("seq") != index or entry.seq != index:
            problems.append(f"{where}: it is not entry {index} of the chain")
        if fields.get("prev") != previous:
            problems.append(f"{where}: it does not link to the entry before it")
        previous = digest(entry.line)
    return problems


def _receipts(entry: RecordEntryRow, fields: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """A problem for each seat whose stored orders do not match the receipt in the entry."""
    held, computed = fields.get("orders", {}), expected["orders"]
    return [f"turn {entry.turn}: seat {seat}'s orders as stored do not match their receipt in the record "
            f"(entry {entry.seq})" for seat in sorted(set(held) | set(computed)) if held.get(seat) != computed.get(seat)]


def _submissions(received: Mapping[tuple[str, int, str], SubmissionRow], record: Any, turn: int) -> list[str]:
    """A problem for each seat whose submission as received (``received``: :func:`_received`) differs from the
    orders resolved for it."""
    problems = []
    for seat, nonce in record.nonces.items():
        sent = received.get((seat, turn, nonce))
        if sent is not None and list(sent.orders) != list(record.orders.get(seat, [])):
            problems.append(f"turn {turn}: seat {seat}'s orders as received (v{sent.version}) differ from the orders "
                            "resolved")
    return problems


def _received(unit: Unit, row: GameRow) -> dict[tuple[str, int, str], SubmissionRow]:
    """The game's submissions that have a receipt, by seat, turn and nonce (the first received of each), read
    once (a compacted game's from its archive)."""
    archive = compaction.archive_of(unit.session, row)
    sent = archive.submissions if archive is not None else unit.session.exec(
        select(SubmissionRow).where(SubmissionRow.game_id == row.id).order_by(SubmissionRow.id))  # type: ignore[arg-type]
    received: dict[tuple[str, int, str], SubmissionRow] = {}
    for submission in sent:
        if submission.nonce is not None:
            received.setdefault((submission.seat, submission.turn, submission.nonce), submission)
    return received


def _turn_sources(unit: Unit, row: GameRow, chain: Sequence[RecordEntryRow]) -> dict[int, Any]:
    """What each turn entry is recomputed from, by its place: the turn record of the turns that stand, the
    rollback's kept copy of those undone."""
    standing: dict[int, int] = {}  # turn -> seq of its entry on the branch played now
    sources: dict[int, Any] = {}
    audits = iter(_rollback_audits(unit, row))
    for entry in chain:
        if entry.kind == "turn":
            standing[entry.turn] = entry.seq
        elif entry.kind == "rollback":
            audit = next(audits, None)
            for undone in audit.data["undone"] if audit is not None else []:
                seq = standing.pop(undone["turn"], None)
                if seq is not None:
                    sources[seq] = _undone_record(undone)
    for record in queries.history(unit.session, row):
        if record.turn in standing:
            sources[standing[record.turn]] = record
    return sources


def _unrecorded(unit: Unit, row: GameRow, chain: Sequence[RecordEntryRow]) -> list[str]:
    """A problem for each resolved turn of the game as it stands that no entry of the record holds (a turn
    resolved before the record began is none of its business)."""
    if not chain:
        return []
    held = {entry.turn for entry in chain if entry.kind == "turn"}
    return [f"turn {record.turn}: the game's record has no entry for it"
            for record in queries.history(unit.session, row, since=chain[0].turn + 1) if record.turn not in held]


def _undone_record(undone: dict[str, Any]) -> TurnRecordRow:
    """A rolled-back turn's record as the rollback kept it in the audit log."""
    return TurnRecordRow(game_id=0, turn=undone["turn"], phase=undone.get("phase", ""), orders=undone["orders"],
                         nmr=undone["nmr"], passed=undone.get("passed", []), reason=undone["reason"],
                         draws=undone["draws"], resolved_at=datetime.fromisoformat(undone["resolved_at"]),
                         nonces=undone.get("nonces", {}), rules_version=undone.get("rules_version", 1))


def _rollback_audits(unit: Unit, row: GameRow) -> list[AuditEntryRow]:
    """The audit entries of the game's confirmed rollbacks, oldest first."""
    query = select(AuditEntryRow).where(AuditEntryRow.game_id == row.id, AuditEntryRow.action == "ROLLBACK")
    return [entry for entry in unit.session.exec(query.order_by(AuditEntryRow.id))  # type: ignore[arg-type]
            if "undone" in (entry.data or {})]
