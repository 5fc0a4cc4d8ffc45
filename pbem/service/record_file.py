"""A game's whole record as one JSON file (``pbem record GAME --json``), replayed with the rules (``pbem replay
--record FILE``) and brought to another server (``pbem import FILE``: the chain goes on from its head).

The file is the operator's, not a player's: it holds the game's secret (its seed) and every order, sealed
or not, and the seats' addresses. Its keys: ``format``, ``game``, ``kind``, ``options``, ``seats`` (name and
address), ``secret``, ``seed``, ``commitment``, ``salts``, ``rng_version``, ``rules_version``, ``setup_draws``,
``status``, ``turns`` (each turn of the game as it stands: orders, nonces, NMR and passed seats, draws,
generator state, state, events, when and why resolved), ``audit`` (every logged action, GM actions among
them) and ``chain`` (every entry's line and hash) with its ``head``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlmodel import select

from pbem.core import GameError, GameRng, InvalidInput
from pbem.core.rng import commitment
from pbem.games import find_game
from pbem.orders import parser_for
from pbem.service import due, queries
from pbem.service.record import body, entries, start_fields, turn_fields
from pbem.service.record_check import link_problems
from pbem.service.replay import ReplayResult
from pbem.service.unit import Unit
from pbem.store.tables import AuditEntryRow, GameRow, GameStatus, RecordEntryRow, SeatRow, TurnRecordRow

FORMAT = "pbem-record-1"
"""The ``format`` of a record file this code writes and reads."""

_TURN_KEYS = ("turn", "phase", "reason", "orders", "nonces", "nmr", "passed", "draws", "rng_state", "state",
              "events", "rules_version")


def export(unit: Unit, name: str) -> dict[str, Any]:
    """The whole record of the game called ``name`` as a JSON-ready dict (see the module)."""
    row = unit.game(name)
    chain = entries(unit, row)
    audit = unit.session.exec(select(AuditEntryRow).where(AuditEntryRow.game_id == row.id)
                              .order_by(AuditEntryRow.id))  # type: ignore[arg-type]
    return {
        "format": FORMAT, "game": row.name, "kind": row.kind, "options": dict(row.options),
        "seats": [{"name": seat.name, "address": seat.address} for seat in unit.seats(row)],
        "secret": row.secret, "seed": row.seed,
        "commitment": commitment(row.name, row.secret) if row.secret is not None else None,
        "salts": list(row.salts), "rng_version": row.rng_version, "rules_version": row.rules_version,
        "setup_draws": list(row.setup_draws), "status": str(row.status),
        "turns": [{**{key: getattr(record, key) for key in _TURN_KEYS}, "resolved_at": record.resolved_at.isoformat()}
                  for record in queries.history(unit.session, row)],
        "audit": [{"id": entry.id, "at": entry.at.isoformat(), "actor": entry.actor, "action": entry.action,
                   "text": entry.text, "data": entry.data} for entry in audit],
        "chain": [{"seq": entry.seq, "turn": entry.turn, "kind": entry.kind, "line": entry.line,
                   "digest": entry.digest, "audit_upto": entry.audit_upto} for entry in chain],
        "head": chain[-1].digest if chain else None,
    }


def replay_file(data: Mapping[str, Any]) -> ReplayResult:
    """Replay a record file with the rules: every draw and state recomputed from its seed and orders, the
    chain's hashes and links, its start entry and the entries of the turns that stand recomputed from the
    file, and its head. Raises InvalidInput for a file that is no record."""
    return _replayed(data)[0]


def _replayed(data: Mapping[str, Any]) -> tuple[ReplayResult, GameRng, Any]:
    """:func:`replay_file`'s result, with the generator and the state after the last turn."""
    _check_format(data)
    rules = find_game(data["kind"])
    game = data["game"]
    mismatches: list[str] = []
    row = _row(data)
    chain = _chain(data)
    mismatches += link_problems(chain)
    if data.get("head") != (chain[-1].digest if chain else None):
        mismatches.append("the file's head is not the hash of its last entry")
    rng = GameRng(row.seed, version=row.rng_version)
    seats = [seat["name"] for seat in data["seats"]]
    state = rules.setup(seats, row.options, rng)
    if rng.draws != [list(d) for d in row.setup_draws]:
        mismatches.append("setup: the draws differ from the recomputed ones")
    if chain and chain[0].kind == "start":
        fields = body(chain[0])
        if any(fields.get(key) != value for key, value in start_fields(row, seats).items()):
            mismatches.append("turn 0: the record's start entry differs from the file's game")
    parser = parser_for(rules.name)
    for turn in data["turns"]:
        record = _turn_record(turn)
        if rng.get_state() != record.rng_state:
            mismatches.append(f"turn {record.turn}: random generator state differs before resolving")
            rng = GameRng.from_state(record.rng_state)
        rng.draws = []
        orders = {seat: parser.parse("\n".join(lines)).orders for seat, lines in record.orders.items()}
        state = rules.resolve(state, orders, rng).state
        if rng.draws != [list(d) for d in record.draws]:
            mismatches.append(f"turn {record.turn}: the draws differ from the recomputed ones")
        if rules.dump(state) != record.state:
            mismatches.append(f"turn {record.turn}: replayed state differs from the stored one")
            state = rules.load(record.state)
        entry = next((e for e in reversed(chain) if e.kind == "turn" and e.turn == record.turn), None)
        if entry is None:
            mismatches.append(f"turn {record.turn}: the record has no entry for it")
            continue
        fields, expected = body(entry), turn_fields(row, record)
        mismatches += [f"turn {record.turn}: seat {seat}'s orders do not match their receipt in the record"
                       for seat in sorted(expected["orders"]) if fields["orders"].get(seat) != expected["orders"][seat]]
        mismatches += [f"turn {record.turn}: {key} differ from the record entry {entry.seq}"
                       for key, value in expected.items() if key != "orders" and fields.get(key) != value]
    result = ReplayResult(game, len(data["turns"]), mismatches, draws_checked=sum(len(t["draws"]) for t in data["turns"]))
    return result, rng, state


def import_file(unit: Unit, data: Mapping[str, Any]) -> GameRow:
    """Bring the game of a record file to this server: its game, seats, turns, audit log and chain as they
    were (after :func:`replay_file` found nothing amiss), the clock stopped (PAUSED while it runs; the GM
    resumes it). New entries link to the imported head. Raises InvalidInput for a file that is no record or
    does not replay, GameError when a game of that name exists here."""
    result, rng, state = _replayed(data)
    if not result.is_identical:
        raise InvalidInput(f"the record of {data['game']} does not replay: {'; '.join(result.mismatches[:3])}")
    if queries.game_by_name(unit.session, data["game"]) is not None:
        raise GameError(f"a game named {data['game']} exists already")
    row = _row(data)
    rules = find_game(row.kind)
    row.created_at = unit.now()
    row.turn = len(data["turns"]) + 1
    finished = data["status"] == GameStatus.FINISHED
    row.status = GameStatus.FINISHED if finished else GameStatus.PAUSED
    row.paused_at = None if finished else unit.now()
    row.state = rules.dump(state)
    unit.add(row)
    unit.session.flush()
    for position, seat in enumerate(data["seats"]):
        unit.add(SeatRow(game_id=row.id, name=seat["name"], position=position, address=seat["address"]))
    ids: dict[int, int] = {0: 0}
    for logged in data["audit"]:
        entry = AuditEntryRow(game_id=row.id, at=datetime.fromisoformat(logged["at"]), actor=logged["actor"],
                              action=logged["action"], text=logged["text"], data=logged["data"] or {})
        unit.add(entry)
        unit.session.flush()
        ids[logged["id"]] = entry.id or 0
    for turn in data["turns"]:
        record = _turn_record(turn)
        record.game_id = row.id
        unit.add(record)
    unit.set_rng_state(row, rng.get_state())
    for entry in data["chain"]:
        unit.add(RecordEntryRow(game_id=row.id, seq=entry["seq"], turn=entry["turn"], kind=entry["kind"],
                                line=entry["line"], digest=entry["digest"], audit_upto=ids.get(entry["audit_upto"], 0)))
    if not finished:
        due.open_turn(row, unit.now(), None if rules.outcome(state) is not None else rules.phase(state))
        row.deadline = None
    unit.add(row)
    unit.session.flush()
    return row


def _check_format(data: Mapping[str, Any]) -> None:
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise InvalidInput(f"not a pbem record file (format {FORMAT})")


def _row(data: Mapping[str, Any]) -> GameRow:
    """A transient game row holding what the file says of the game."""
    return GameRow(name=data["game"], name_key=data["game"].lower(), kind=data["kind"], options=dict(data["options"]),
                   seed=data["seed"], secret=data["secret"], salts=list(data["salts"]), rng_version=data["rng_version"],
                   rules_version=data["rules_version"], setup_draws=list(data["setup_draws"]),
                   created_at=datetime.fromisoformat(data["turns"][0]["resolved_at"]) if data["turns"] else None)


def _chain(data: Mapping[str, Any]) -> list[RecordEntryRow]:
    """The file's chain as transient entry rows."""
    return [RecordEntryRow(game_id=0, seq=e["seq"], turn=e["turn"], kind=e["kind"], line=e["line"],
                           digest=e["digest"], audit_upto=e["audit_upto"]) for e in data["chain"]]


def _turn_record(turn: Mapping[str, Any]) -> TurnRecordRow:
    """One turn of the file as a transient turn record."""
    return TurnRecordRow(game_id=0, resolved_at=datetime.fromisoformat(turn["resolved_at"]),
                         **{key: turn[key] for key in _TURN_KEYS})
