"""A game's record: the hash chain of its entries (:mod:`pbem.core.chain`), appended as the game goes, and
what a report shows of it.

Entries, in order (``seq`` 0, 1, ...), each naming the hash of the one before it:

- ``start`` (turn 0): the kind, options, seats, the seed's commitment, the salts, the generator version
  and the setup's draws;
- ``turn``: a resolved turn's number, phase, why it resolved (``gm`` is the GM's PROCESS), each owing
  seat's orders by their receipt, the NMR and passed seats, the draws, when, the rules version that
  resolved it, and how the game ended when it did (``ending``);
- ``rollback``: the GM's ROLLBACK: the turn it returns to, the turns undone, the entry the new branch
  builds on (``branch_from``), by whom and when. The undone entries stay in the chain;
- ``end``: a game ended without a turn (the GM's END or REVEAL, or an agreed ending): ``ending`` says how
  (``how``: ``gm``, ``reveal`` or what :func:`append_end`'s caller names, such as ``draw``).

Every entry holds the GM actions that changed the game since the entry before it (``actions``: options,
deadline moves, pauses, replacements, resignations, PROCESS, END, REVEAL), their addresses left out. An agreed
ending (a draw, a concession) is recorded by calling :func:`append_end` with its ``how`` and headline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlmodel import select

from pbem.core import Game, Outcome
from pbem.core.chain import (RECORD_VERSION, RecordExcerpt, RevealedOrders, RollbackNote, canonical, digest,
                             new_nonce, receipt)
from pbem.core.rng import commitment
from pbem.service import compaction
from pbem.service.unit import Unit
from pbem.store.tables import AuditEntryRow, GameRow, RecordEntryRow, SeatRow, TurnRecordRow

CHAIN_ACTIONS = frozenset({"SET", "DEADLINE", "EXTEND", "PAUSE", "RESUME", "REPLACE", "RESIGN", "ACCEPT", "END",
                           "REVEAL"})
"""The audit actions that change a game and go into its record (a rollback is an entry of its own), besides
a resolution the GM asked for, which the record calls ``PROCESS``."""

_ADDRESS = re.compile(r"[^\s<>(),;:]+@[^\s<>(),;:]+|\bforgotten-[0-9a-f]+\b")
"""An address in an audit text, or the pseudonym FORGET puts in its place (pbem.service.privacy): the record
says neither, so it stays the same when a player is forgotten."""
_BRANCHING = ("start", "turn")


def reveals_orders(rules: Game[Any, Any]) -> bool:
    """Whether ``rules`` tell every seat's orders of a step to everyone once it resolves: as the game
    declares (``reveals_orders``), else when it has no hidden information."""
    declared = getattr(rules, "reveals_orders", None)
    return bool(declared) if declared is not None else not getattr(rules, "has_hidden_information", False)


def entries(unit: Unit, row: GameRow) -> list[RecordEntryRow]:
    """The game's record entries in order (a compacted game's read back from its archive)."""
    archive = compaction.archive_of(unit.session, row)
    if archive is not None:
        return archive.chain
    query = select(RecordEntryRow).where(RecordEntryRow.game_id == row.id).order_by(RecordEntryRow.seq)  # type: ignore[arg-type]
    return list(unit.session.exec(query))


def body(entry: RecordEntryRow) -> dict[str, Any]:
    """The entry as a dict (its canonical line read back)."""
    return dict(json.loads(entry.line))


def utc_text(at: datetime) -> str:
    """A moment as the record writes it: ``2026-12-02T09:10:00Z`` (a naive time is UTC)."""
    aware = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def actor_role(actor: str) -> str:
    """Who did an action, without an address: ``GM``, ``seat B``, ``service`` or ``GM (command line)``."""
    if actor.startswith("gm"):
        return "GM"
    if actor.startswith("seat "):
        return " ".join(actor.split()[:2])
    return "GM (command line)" if actor == "command line" else actor.split()[0] if actor else "service"


def audit_action(entry: AuditEntryRow) -> dict[str, str]:
    """One audit entry as the record holds it: action (a resolution is ``PROCESS``), by whom
    (:func:`actor_role`), when, and its text with every address left out."""
    action = "PROCESS" if entry.action == "RESOLVE" else entry.action
    return {"action": action, "by": actor_role(entry.actor), "at": utc_text(entry.at),
            "text": _ADDRESS.sub("(an address)", entry.text)}


def is_recorded(entry: AuditEntryRow) -> bool:
    """Whether an audit entry's action goes into the record: one of :data:`CHAIN_ACTIONS`, or a resolution
    the GM asked for (by mail or on the command line)."""
    return entry.action in CHAIN_ACTIONS or (entry.action == "RESOLVE" and actor_role(entry.actor).startswith("GM"))


def actions_between(unit: Unit, row: GameRow, after_id: int, upto_id: int | None) -> tuple[list[dict[str, str]], int]:
    """The GM actions of the game logged after audit entry ``after_id`` (up to ``upto_id`` when given), as the
    record holds them, and the id of the newest audit entry looked at."""
    query = select(AuditEntryRow).where(AuditEntryRow.game_id == row.id, AuditEntryRow.id > after_id)  # type: ignore[operator]
    if upto_id is not None:
        query = query.where(AuditEntryRow.id <= upto_id)  # type: ignore[operator]
    found = list(unit.session.exec(query.order_by(AuditEntryRow.id)))  # type: ignore[arg-type]
    upto = max((e.id or 0 for e in found), default=after_id)
    return [audit_action(e) for e in found if is_recorded(e)], upto


def start_fields(row: GameRow, seats: Sequence[str]) -> dict[str, Any]:
    """The fields of a game's ``start`` entry besides the common ones."""
    return {"game_kind": row.kind, "options": dict(row.options), "seats": list(seats),
            "commitment": commitment(row.name, row.secret) if row.secret is not None else None,
            "salts": list(row.salts), "rng_version": row.rng_version, "draws": [list(d) for d in row.setup_draws]}


def turn_fields(row: GameRow, record: TurnRecordRow) -> dict[str, Any]:
    """The fields of the ``turn`` entry of ``record`` besides the common ones (``ending`` aside)."""
    receipts = {seat: receipt(row.name, record.turn, seat, orders, record.nonces[seat])
                for seat, orders in record.orders.items() if seat in record.nonces}
    return {"phase": record.phase, "reason": record.reason, "orders": receipts, "nmr": list(record.nmr),
            "passed": list(record.passed), "draws": [list(d) for d in record.draws],
            "at": utc_text(record.resolved_at), "rules_version": record.rules_version}


def ending(how: str, outcome: Outcome | None) -> dict[str, Any]:
    """How a game ended, as its last entry says: ``how`` (``rules``, ``gm``, ``reveal``, ``draw``, ...), the
    outcome's kind, winners and headline."""
    if outcome is None:
        return {"how": how, "kind": None, "winners": [], "headline": "ended"}
    return {"how": how, "kind": outcome.kind.value if outcome.kind is not None else None,
            "winners": list(outcome.winners), "headline": outcome.headline}


def _append(unit: Unit, row: GameRow, kind: str, turn: int, fields: Mapping[str, Any]) -> RecordEntryRow:
    """Append one entry (with the GM actions since the entry before it) and return it."""
    unit.session.flush()
    chain = entries(unit, row)
    if not chain and kind != "start":  # a game under way when the record began: it begins here
        chain = [append_start(unit, row, [s.name for s in _seats(unit, row)])]
    last = chain[-1] if chain else None
    actions, upto = actions_between(unit, row, last.audit_upto if last else 0, None)
    entry = {"v": RECORD_VERSION, "game": row.name, "seq": len(chain), "prev": last.digest if last else "",
             "kind": kind, "turn": turn, "actions": actions, **fields}
    line = canonical(entry)
    stored = RecordEntryRow(game_id=row.id, seq=len(chain), turn=turn, kind=kind, line=line, digest=digest(line),
                            audit_upto=upto)
    unit.add(stored)
    unit.session.flush()
    return stored


def _seats(unit: Unit, row: GameRow) -> list[SeatRow]:
    return list(unit.session.exec(select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.id)))  # type: ignore[arg-type]


def append_start(unit: Unit, row: GameRow, seats: Sequence[str]) -> RecordEntryRow:
    """Begin the record of a game that just started (its options, seats, commitment, salts, setup draws)."""
    return _append(unit, row, "start", max(row.turn - 1, 0), start_fields(row, seats))


def append_turn(unit: Unit, row: GameRow, record: TurnRecordRow, outcome: Outcome | None) -> RecordEntryRow:
    """Record a resolved turn (and, when it ended the game, how: ``ending``)."""
    fields = turn_fields(row, record)
    if outcome is not None:
        fields["ending"] = ending("rules", outcome)
    return _append(unit, row, "turn", record.turn, fields)


def append_rollback(unit: Unit, row: GameRow, turn: int, undone: Sequence[int]) -> RecordEntryRow:
    """Record the GM's rollback to the start of ``turn`` (undoing the turns ``undone``), just logged in the
    audit log (who and when come from there): a new branch that builds on the entry of turn ``turn - 1``."""
    unit.session.flush()
    logged = unit.session.exec(select(AuditEntryRow).where(AuditEntryRow.game_id == row.id,
                                                           AuditEntryRow.action == "ROLLBACK")
                               .order_by(AuditEntryRow.id.desc())).first()  # type: ignore[union-attr]
    assert logged is not None
    chain = entries(unit, row)
    return _append(unit, row, "rollback", turn - 1,
                   rollback_fields(chain, turn, undone, actor_role(logged.actor), logged.at))


def rollback_fields(chain: Sequence[RecordEntryRow], turn: int, undone: Sequence[int], by: str,
                    at: datetime) -> dict[str, Any]:
    """The fields of a rollback entry appended after ``chain``."""
    base = branch_point(chain, turn - 1)
    return {"returns_to": turn, "undone": list(undone), "branch_from": base.digest if base is not None else "",
            "by": by, "at": utc_text(at)}


def branch_point(chain: Sequence[RecordEntryRow], turn: int) -> RecordEntryRow | None:
    """The newest start or turn entry of ``chain`` after turn ``turn`` (what later turns build on)."""
    return next((e for e in reversed(chain) if e.kind in _BRANCHING and e.turn == turn), None)


def append_end(unit: Unit, row: GameRow, how: str, outcome: Outcome | None) -> RecordEntryRow:
    """Record that the game ended without a turn played: ``how`` (``gm`` for END, ``reveal`` for REVEAL;
    an agreed ending names itself, such as ``draw`` or ``concede``) and its outcome. This is the hook an
    ending adds to the record."""
    return _append(unit, row, "end", max(row.turn - 1, 0), {"ending": ending(how, outcome)})


def resolved_nonces(unit: Unit, row: GameRow, orders: Mapping[str, Any]) -> dict[str, str]:
    """The nonce of each seat's orders that the turn awaiting orders resolves: its standing submission's,
    or a new one for a seat given its default orders."""
    from pbem.service import queries  # queries reads the tables this module's callers write

    nonces: dict[str, str] = {}
    for seat in orders:
        stored = queries.current_submission(unit.session, row, seat)
        nonces[seat] = stored.nonce if stored is not None and stored.nonce else new_nonce()
    return nonces


def excerpt(unit: Unit, row: GameRow, rules: Game[Any, Any], records: Sequence[TurnRecordRow], *,
            first_turn: int, last_turn: int | None) -> RecordExcerpt | None:
    """What a report telling turns ``first_turn`` to ``last_turn`` (``records``) shows of the record: every
    entry after the one it builds on (the entry of turn ``first_turn - 1``; all for the opening report) up to
    the entry of ``last_turn`` (None: the head now), and the orders of ``records`` with their nonces. None
    for a game without a record."""
    chain = entries(unit, row)
    if not chain:
        return None
    upto = chain[-1] if last_turn is None else (branch_point(chain, last_turn) or chain[-1])
    shown = chain[:upto.seq + 1]
    base = branch_point(shown, first_turn - 1) if first_turn > 0 else None
    after = base.seq if base is not None else -1
    told = [e for e in shown if e.seq > after]
    public = reveals_orders(rules)
    revealed: list[RevealedOrders] = []
    for record in records:
        entry = next((e for e in reversed(shown) if e.kind == "turn" and e.turn == record.turn), None)
        if entry is None:
            continue
        revealed += [RevealedOrders(entry.seq, record.turn, seat, tuple(orders), record.nonces[seat], public)
                     for seat, orders in record.orders.items() if seat in record.nonces]
    rollbacks = []
    for entry in told:
        if entry.kind == "rollback":
            fields = body(entry)
            rollbacks.append(RollbackNote(fields["returns_to"], fields["by"], fields["at"], tuple(fields["undone"])))
    return RecordExcerpt(upto.turn, upto.seq, upto.digest, tuple(e.line for e in told), tuple(revealed),
                         tuple(rollbacks))
