"""What a turn report is made from: the report input of the turns a reader is told of together
(a turn and the forced turns after it, or a digest of several), of the newest report of a game,
and of a dry run, with what players need to check the dice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pbem.clock import format_utc
from pbem.core import Event, Game, GameRng, Outcome, PbemError, Phase
from pbem.core.chain import RecordExcerpt
from pbem.core.rng import commitment
from pbem.reports import Fairness, ReportInput, render_report
from pbem.service import due, queries, seeds
from pbem.service import record as chain_of
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, TurnRecordRow


def turn_report(row: GameRow, rules: Game[Any, Any], state: Any, *, turn: int, events: Sequence[Event],
                nmr: Sequence[str], passed: Sequence[str] = (), phase: Phase | None, outcome: Outcome | None,
                draws: Sequence[Sequence[int]]) -> ReportInput:
    """The report input of turn ``turn`` of a game resolved into ``state`` without a turn record (the
    GM's dry run), with ``row`` giving the deadline and the dice's commitment."""
    return ReportInput(
        game_name=row.name, rules=rules, state=state, turn=turn, events=list(events), nmr=list(nmr),
        phase=phase, outcome=outcome, deadline=_deadline(row), fairness=fairness(row, draws),
        deadline_at=row.deadline, passed=list(passed), window=due.window_note(row, phase),
    )


def records_report(info: GameInfo, records: Sequence[TurnRecordRow], *, setup_draws: bool = False,
                   record: RecordExcerpt | None = None) -> ReportInput:
    """One report input telling the resolved turns ``records`` (in order) of the game as it stands in
    ``info``: every event, NMR and passed seat of them and all their draws (with ``setup_draws``, the
    draws of the game's setup first), then the state, the phase awaited and its deadline now, and
    ``record``, what it shows of the game's record. Without records it is the opening report (turn 0)."""
    row = info.row
    draws = [list(draw) for draw in row.setup_draws] if setup_draws else []
    draws += [draw for record in records for draw in record.draws]
    return ReportInput(
        game_name=info.name,
        rules=info.rules,
        state=info.state,
        turn=records[0].turn if records else 0,
        last_turn=records[-1].turn if records else 0,
        events=[Event.from_json(event) for record in records for event in record.reported_events],
        nmr=sorted({seat for record in records for seat in record.nmr}),
        passed=sorted({seat for record in records for seat in record.passed}),
        phase=info.phase,
        outcome=info.outcome,
        deadline=_deadline(row),
        fairness=fairness(row, draws),
        deadline_at=row.deadline,
        window=due.window_note(row, info.phase),
        record=record,
    )


def told_report(unit: Unit, info: GameInfo, records: Sequence[TurnRecordRow], *, setup_draws: bool = False) -> ReportInput:
    """:func:`records_report` of ``records`` as mailed now: with the game's record from the entry its first
    turn builds on (every entry, with ``setup_draws``: the opening report) to the head."""
    first = 0 if setup_draws or not records else records[0].turn
    record = chain_of.excerpt(unit, info.row, info.rules, records, first_turn=first, last_turn=None)
    return records_report(info, records, setup_draws=setup_draws, record=record)


def ended_report(unit: Unit, info: GameInfo) -> ReportInput:
    """The final report of a game the GM ended, for a reader told of every turn already: the game as it
    stands and its outcome, no turn told again (and none of their draws), and the record's last entries."""
    played = info.row.turn - 1
    record = chain_of.excerpt(unit, info.row, info.rules, [], first_turn=played + 1, last_turn=None)
    return replace(records_report(info, [], record=record), turn=played, last_turn=played, ended_after=played)


def last_report(unit: Unit, name: str) -> ReportInput:
    """Return the report input of the newest report of a game: the last turn resolved on request and
    the forced turns after it, which are reported together (the opening report before any turn; the
    first report also lists the draws of the game's setup)."""
    info = unit.info(name)
    group: list[TurnRecordRow] = []
    for record in reversed(queries.history(unit.session, info.row)):
        group.insert(0, record)
        if record.reason != "forced":
            break
    opening = not group or (group[0].turn == 1 and group[0].reason == "forced")
    return told_report(unit, info, group, setup_draws=opening)


class NoSuchReport(PbemError):
    """A report asked for by turn number (REPORT n) that the game has not made."""


def report_of_turn(unit: Unit, name: str, turn: int | None = None) -> ReportInput:
    """The report input of the report that told turn ``turn`` of a game (0: the opening report), as it was
    made then: the turn resolved on request and the forced turns after it, the state, phase and pictures
    after them; for the newest report its deadline (exactly :func:`last_report`), for an older one none
    (its deadline is gone). ``turn`` None: the newest report. Raises :class:`NoSuchReport` for a turn
    not resolved yet (saying which turns there are), UnknownGame."""
    info = unit.info(name)
    if info.state is None:
        raise NoSuchReport(f"game {info.name} has not started: it has no report yet")
    groups: list[list[TurnRecordRow]] = [[]]  # the opening report, then one report per turn resolved on request
    for record in queries.history(unit.session, info.row):
        if record.reason == "forced":
            groups[-1].append(record)
        else:
            groups.append([record])
    newest = groups[-1][-1].turn if groups[-1] else 0
    wanted = newest if turn is None else turn
    if not 0 <= wanted <= newest:
        raise NoSuchReport(f"game {info.name} has no report of turn {wanted}: its reports tell turns 0 (the opening) "
                           f"to {newest}")
    group = next(group for group in groups if (group[-1].turn if group else 0) >= wanted)
    if group is groups[-1]:
        return last_report(unit, name)
    rules, row = info.rules, info.row
    state = rules.load(group[-1].state) if group else rules.setup(info.seat_names, row.options, GameRng(row.seed))
    outcome = rules.outcome(state)
    earlier = replace(info, state=state, outcome=outcome, phase=None if outcome is not None else rules.phase(state))
    record = chain_of.excerpt(unit, row, rules, group, first_turn=0 if group is groups[0] else group[0].turn,
                              last_turn=group[-1].turn if group else 0)
    return replace(records_report(earlier, group, setup_draws=group is groups[0], record=record), deadline=None,
                   deadline_at=None, window=None)


def report_since(unit: Unit, name: str, after_turn: int) -> ReportInput:
    """One report input covering every turn of a game resolved after ``after_turn`` (a digest, with the
    setup's draws too when it covers the start); the newest report when no turn was resolved since."""
    info = unit.info(name)
    records = queries.history(unit.session, info.row, since=after_turn + 1)
    if not records:
        return last_report(unit, name)
    return told_report(unit, info, records, setup_draws=after_turn == 0)


def report_text(unit: Unit, name: str, seat: str | None, turn: int | None = None) -> str:
    """Render the newest report of a game (with ``turn``, the report that told that turn: see
    :func:`report_of_turn`) for ``seat`` (``None`` = the public report). Raises UnknownSeat, NoSuchReport."""
    if seat is not None:
        seat = unit.info(name).seat_name(seat)
    return render_report(report_of_turn(unit, name, turn), seat)


def fairness(row: GameRow, draws: Sequence[Sequence[int]]) -> Fairness | None:
    """What a report shows players to check the dice (None for a legacy game without a commitment)."""
    if row.secret is None:
        return None
    revealed = row.secret if seeds.is_revealed(row) else None
    return Fairness(commitment(row.name, row.secret), row.rng_version, list(row.salts), list(draws), revealed)


def _deadline(row: GameRow) -> str | None:
    """The deadline of the turn awaiting orders as reports print it (None: no deadline)."""
    return format_utc(row.deadline) if row.deadline is not None else None
