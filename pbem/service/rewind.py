"""The GM's dry run and rollback.

PREVIEW resolves the turn awaiting orders with the standing orders, NMR defaults for the rest and
the game's real generator state, and returns the reports, changing nothing: the real resolution
later draws the same dice (the same counters) when the orders are the same.

ROLLBACK returns a game to the start of a turn, after a confirmation code sent to the GM's address:
the turn records from that turn on are removed (kept whole in the audit log), the state and the
generator state are those before that turn, and the orders of the rolled-back turns stay stored,
set aside (no longer standing), so the players can send them again. The redone turns take the
same draw counters again: a draw of the same range at the same counter gives the same result, so a
rollback re-rolls nothing, and every draw a mailed report listed stays checkable from the seed.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, update
from sqlmodel import select

from pbem.core import GameError, GameRng, InvalidInput
from pbem.passwords import hash_password
from pbem.reports import ReportInput
from pbem.service import agreed_endings, audit, due, players, queries, record, reporting
from pbem.service.news import RolledBack
from pbem.service.observers import observers_of
from pbem.service.resolution import play_forced, turn_orders
from pbem.service.unit import Unit
from pbem.store.tables import GameStatus, SubmissionRow, TurnRecordRow

CODE_VALID = timedelta(hours=24)
"""How long a rollback's confirmation code stays valid."""


@dataclass(frozen=True)
class Preview:
    """A dry run of the turn awaiting orders: its report input (for every reader), the seats given NMR
    defaults, and the draws it made."""

    report: ReportInput
    nmr: list[str]
    draws: list[list[int]]


def preview(unit: Unit, name: str) -> Preview:
    """Resolve the turn awaiting orders in a dry run (standing orders, NMR defaults, the real generator
    state) and return what it would report; nothing is written. Raises GameError when the game is not active."""
    info = unit.info(name)
    row = info.row
    if row.status != GameStatus.ACTIVE or info.phase is None:
        raise GameError(f"game {name} is {row.status}; there is no turn to preview")
    orders, nmr, passed = turn_orders(unit, info)
    rng = GameRng.from_state(unit.rng_state(row))
    result = info.rules.resolve(info.state, orders, rng)
    outcome = info.rules.outcome(result.state)
    phase = None if outcome is not None else info.rules.phase(result.state)
    report = reporting.turn_report(row, info.rules, result.state, turn=row.turn, events=result.events, nmr=nmr,
                                   passed=passed, phase=phase, outcome=outcome, draws=rng.draws)
    audit.record(unit, row, "PREVIEW", f"dry run of turn {row.turn}" + (f"; NMR: {', '.join(nmr)}" if nmr else ""))
    return Preview(report, nmr, [list(d) for d in rng.draws])


def request_rollback(unit: Unit, name: str, turn: int) -> str:
    """Start a rollback to the start of ``turn``: return its confirmation code (valid 24 hours), to go to
    the GM's address. Raises InvalidInput for a turn not resolved (or one that played itself),
    GameError for a game that is over (its seed is revealed) or forming."""
    row = _checked(unit, name, turn)
    code = secrets.token_hex(4)
    row.rollback_turn, row.rollback_code_hash, row.rollback_requested_at = turn, hash_password(code), unit.now()
    unit.add(row)
    audit.record(unit, row, "ROLLBACK", f"rollback to the start of turn {turn} asked; confirmation code sent")
    return code


def confirm_rollback(unit: Unit, name: str, turn: int, code: str) -> RolledBack:
    """Roll the game back to the start of ``turn`` when ``code`` is the code of that request (and still
    valid). Raises NotAuthorised-like InvalidInput for a wrong or old code."""
    from pbem.passwords import check_password

    row = _checked(unit, name, turn)
    if (row.rollback_turn != turn or row.rollback_code_hash is None or row.rollback_requested_at is None
            or unit.now() > row.rollback_requested_at + CODE_VALID
            or not check_password(code.strip(), row.rollback_code_hash)):
        raise InvalidInput(f"the confirmation code for a rollback of {name} to turn {turn} is wrong or expired; "
                           f"send ROLLBACK {turn} for a new one")
    records = [r for r in queries.history(unit.session, row) if r.turn >= turn]
    first, earlier = records[0], [r for r in queries.history(unit.session, row) if r.turn < turn]
    kept: dict[str, list[tuple[int, list[str]]]] = {}
    for submission in unit.session.exec(
            select(SubmissionRow).where(SubmissionRow.game_id == row.id, SubmissionRow.turn >= turn,
                                                SubmissionRow.rolled_back == False)  # noqa: E712
            .order_by(SubmissionRow.turn, SubmissionRow.version)):  # type: ignore[arg-type]
        if submission.source != "forced":
            by_turn = dict(kept.get(submission.seat, []))
            by_turn[submission.turn] = list(submission.orders)
            kept[submission.seat] = sorted(by_turn.items())
    unit.session.execute(update(SubmissionRow).where(SubmissionRow.game_id == row.id, SubmissionRow.turn >= turn)
                         .values(rolled_back=True))  # type: ignore[arg-type]
    audit.record(unit, row, "ROLLBACK", f"game rolled back from turn {row.turn} to the start of turn {turn}; "
                 f"{len(records)} resolved turn(s) undone; the players' orders of those turns are kept",
                 data={"undone": [{"turn": r.turn, "reason": r.reason, "orders": r.orders, "nmr": r.nmr,
                                   "draws": r.draws, "resolved_at": r.resolved_at.isoformat(), "phase": r.phase,
                                   "passed": r.passed, "nonces": r.nonces, "rules_version": r.rules_version}
                                  for r in records]})
    record.append_rollback(unit, row, turn, [r.turn for r in records])
    unit.session.execute(delete(TurnRecordRow).where(TurnRecordRow.game_id == row.id, TurnRecordRow.turn >= turn))
    players.forget_from_turn(unit, row, turn)
    agreed_endings.forget(unit, row)
    row.state = earlier[-1].state if earlier else _setup_state(unit, name)
    unit.set_rng_state(row, first.rng_state)
    row.turn = turn
    row.rollback_turn = row.rollback_code_hash = row.rollback_requested_at = None
    due.open_turn(row, unit.now(), unit.snapshot(row).phase)
    row.reminded_turn, row.nmr_streak = 0, 0
    row.gm_reported_turn = min(row.gm_reported_turn, turn - 1)
    for observer in observers_of(unit, row):
        observer.last_reported_turn = min(observer.last_reported_turn, turn - 1)
        unit.add(observer)
    unit.add(row)
    unit.session.flush()
    for seat_row in unit.seats(row):
        seat_row.missed_deadlines, seat_row.last_reported_turn = 0, min(seat_row.last_reported_turn, turn - 1)
        unit.add(seat_row)
    play_forced(unit, unit.snapshot(row))
    news = RolledBack(row.name, turn, len(records), kept)
    unit.news.append(news)
    return news


def _checked(unit: Unit, name: str, turn: int) -> Any:
    row = unit.game(name)
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {name} is finished and its seed revealed; it cannot be rolled back")
    if row.status == GameStatus.FORMING:
        raise GameError(f"game {name} has not started")
    records = {r.turn: r for r in queries.history(unit.session, row)}
    if turn not in records:
        raise InvalidInput(f"turn {turn} of {name} is not a resolved turn; resolved turns are 1 to {row.turn - 1}")
    if records[turn].reason == "forced":
        raise InvalidInput(f"turn {turn} of {name} played itself; roll back to the turn before it")
    return row


def _setup_state(unit: Unit, name: str) -> dict[str, Any]:
    """The stored form of the game's state right after its setup (replayed from the seed)."""
    info = unit.info(name)
    row = info.row
    state = info.rules.setup(info.seat_names, row.options, GameRng(row.seed, version=row.rng_version))
    return info.rules.dump(state)
