"""Resolving turns: the orders of each owing seat (NMR defaults for the silent), the rules'
resolution, the turn record and the new state, then any turns that play themselves.

A resolution happens in the caller's unit, so its turn record (unique per game
and turn), the new state and whatever the ``on_resolved`` listeners add (the
outbox reports) are committed together or not at all: a crash never resolves
a turn twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update

from pbem.core import GameError, GameRng
from pbem.core.chain import new_nonce
from pbem.orders import parser_for
from pbem.service import absences, agreed_endings, audit, due, owing, players, queries, standby
from pbem.service import record as record_chain
from pbem.service.checking import FORCED
from pbem.service.snapshot import GameInfo, rules_version_of
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, GameStatus, SubmissionRow, TurnRecordRow

MAX_FORCED_CHAIN = 10_000
"""Most turns in a row that play themselves after one resolution (a safety bound)."""


@dataclass(frozen=True)
class ResolvedTurn:
    """One turn that was resolved: its record."""

    record: TurnRecordRow


@dataclass
class ResolvedTurns:
    """What one resolution did: the turn resolved and the forced turns that followed it."""

    game: str
    turns: list[ResolvedTurn] = field(default_factory=list)


def resolve(unit: Unit, name: str, *, reason: str = "gm", expected_turn: int | None = None) -> ResolvedTurns:
    """Resolve the turn awaiting orders now (NMR defaults for seats without orders), then any
    forced turns that follow, and tell the unit's ``on_resolved`` listeners.

    ``reason`` is recorded: ``gm`` (asked for), ``deadline``, ``all-in`` or ``all-ready``.
    ``expected_turn`` guards against resolving a turn twice: when given and the game
    has moved on, GameError is raised and nothing changes.
    Raises UnknownGame, GameError (not active).
    """
    row = unit.game(name)
    if row.status != GameStatus.ACTIVE:
        raise GameError(f"game {name} is {row.status}; nothing to resolve")
    if expected_turn is not None and row.turn != expected_turn:
        raise GameError(f"turn {expected_turn} of {name} was resolved already")
    resolved = ResolvedTurns(game=row.name)
    resolved.turns.append(_resolve_one(unit, unit.snapshot(row), reason))
    resolved.turns.extend(play_forced(unit, unit.snapshot(row)))
    absences.extend_for_absences(unit, row)  # before the reports are made: they tell the deadline as moved
    final = unit.snapshot(row)
    for listener in unit.on_resolved:
        listener(unit, final, resolved)
    return resolved


def play_forced(unit: Unit, info: GameInfo) -> list[ResolvedTurn]:
    """File the play of every owing seat that has no choice, and resolve each turn in which
    no owing seat has a choice (reported together with the turn before them)."""
    played: list[ResolvedTurn] = []
    for _ in range(MAX_FORCED_CHAIN):
        if info.phase is None or info.row.status != GameStatus.ACTIVE:
            break
        choosing = False
        for seat in owing.owing_seats(info):
            orders = info.rules.forced_orders(info.state, seat)
            if orders is None:
                choosing = True
            elif queries.current_submission(unit.session, info.row, seat) is None:
                _store_forced(unit, info.row, seat, orders)
        if choosing:
            break
        played.append(_resolve_one(unit, info, "forced"))
        info = unit.snapshot(info.row)
    return played


def turn_orders(unit: Unit, info: GameInfo) -> tuple[dict[str, list[Any]], list[str], list[str]]:
    """The orders the turn awaiting orders of ``info``'s game resolves with: each owing seat's stored
    orders, or its default when it sent none. Also the seats that sent none: NMR, or in an answer window
    (silence means PASS) passed, getting their default all the same."""
    assert info.phase is not None
    orders: dict[str, list[Any]] = {}
    silent: list[str] = []
    parser = parser_for(info.rules.name)
    for seat in owing.owing_seats(info):
        submission = queries.current_submission(unit.session, info.row, seat)
        if submission is None:
            silent.append(seat)
            orders[seat] = list(info.rules.default_orders(info.state, seat))
        else:
            orders[seat] = parser.parse("\n".join(submission.orders)).orders
    return (orders, [], silent) if info.phase.is_window else (orders, silent, [])


def _resolve_one(unit: Unit, info: GameInfo, reason: str) -> ResolvedTurn:
    """Resolve the turn awaiting orders of ``info``'s game and record it."""
    row, rules, state = info.row, info.rules, info.state
    assert info.phase is not None
    orders, nmr, passed = turn_orders(unit, info)
    nonces = record_chain.resolved_nonces(unit, row, orders)
    rng_before = unit.rng_state(row)
    rng = GameRng.from_state(rng_before)
    current_rules = rules_version_of(rules)
    if row.rules_version != current_rules:
        row.rules_version = current_rules  # the game goes on under the rules this code implements
    result = rules.resolve(state, orders, rng)
    outcome = rules.outcome(result.state)
    turn = row.turn
    changed = unit.session.execute(
        update(GameRow).where(GameRow.id == row.id, GameRow.turn == turn).values(turn=turn + 1)  # type: ignore[arg-type]
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        raise GameError(f"turn {turn} of {row.name} was resolved already")
    record = TurnRecordRow(
        game_id=row.id,
        turn=turn,
        phase=info.phase.name,
        orders={seat: [str(o) for o in seat_orders] for seat, seat_orders in orders.items()},
        nmr=nmr,
        passed=passed,
        rng_state=rng_before,
        events=[event.to_json() for event in result.events],
        table_events=[event.to_json() for event in agreed_endings.lapse_at_turn_end(unit, row, turn)],
        state=rules.dump(result.state),
        reason=reason,
        resolved_at=unit.now(),
        draws=rng.draws,
        rules_version=current_rules,
        nonces=nonces,
    )
    unit.add(record)
    row.turn = turn + 1
    row.state = record.state
    unit.set_rng_state(row, rng.get_state())
    phase = None if outcome is not None else rules.phase(result.state)
    if outcome is not None:
        row.status = GameStatus.FINISHED
    due.open_turn(row, unit.now(), phase)
    if row.news_since is None:  # news for every reader (the listeners' reports mark who was told)
        row.news_since = record.resolved_at
    _count_silence(unit, info, nmr, reason, record)
    players.note_turn(unit, info, turn, orders, nmr, reason)
    if outcome is not None:
        players.note_outcome(unit, info, turn, outcome)
    unit.add(row)
    audit.record(unit, row, "RESOLVE", f"turn {turn} resolved ({reason})" + (f"; NMR: {', '.join(nmr)}" if nmr else "")
                 + (f"; no answer, passed: {', '.join(passed)}" if passed else "")
                 + (f"; game over: {outcome.headline}" if outcome is not None else ""))
    record_chain.append_turn(unit, row, record, outcome)
    if outcome is not None:
        from pbem.service import leagues  # leagues create games through this module's callers

        leagues.game_over(unit, row)
    return ResolvedTurn(record)


def _count_silence(unit: Unit, info: GameInfo, nmr: Sequence[str], reason: str, record: TurnRecordRow) -> None:
    """Keep the game's count of all-NMR deadlines in a row, and mark seats that missed a deadline absent.
    An answer window that closes at its deadline changes neither: its silent seats passed."""
    row = info.row
    assert info.phase is not None
    if reason == due.DEADLINE and info.phase.is_window:
        return
    if reason == due.DEADLINE:
        standby.after_deadline(unit, row, list(owing.owing_seats(info)), list(nmr))
        for seat_row in info.seats:
            if seat_row.name in nmr and seat_row.absent_since is None:
                seat_row.absent_since = record.resolved_at
                unit.add(seat_row)
        row.nmr_streak = row.nmr_streak + 1 if len(nmr) == len(owing.owing_seats(info)) else 0
    elif reason != "forced":
        row.nmr_streak = 0


def _store_forced(unit: Unit, row: GameRow, seat: str, orders: Sequence[Any]) -> None:
    """Store the only possible play of ``seat`` as its orders for the turn."""
    version = queries.latest_version(unit.session, row, seat) + 1
    text = "\n".join(str(o) for o in orders)
    unit.add(
        SubmissionRow(
            game_id=row.id, seat=seat, turn=row.turn, version=version, text=text,
            orders=[str(o) for o in orders], problems=[], received_at=unit.now(), source=FORCED, nonce=new_nonce(),
        )
    )
    unit.session.flush()
    unit.stored_submission(row, seat, ready=False)
