"""What a turn report is made from: the report input of a resolved turn, of several turns
reported together, and of the newest report of a game, with what players need to check the dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.clock import format_utc
from pbem.core import Event, Game, Outcome, Phase
from pbem.core.rng import commitment
from pbem.reports import Fairness, ReportInput, render_report
from pbem.service import due, queries, seeds
from pbem.service.unit import Unit
from pbem.store.tables import GameRow, TurnRecordRow


def turn_report(row: GameRow, rules: Game[Any, Any], state: Any, *, turn: int, events: Sequence[Event],
                nmr: Sequence[str], passed: Sequence[str], phase: Phase | None, outcome: Outcome | None,
                draws: Sequence[Sequence[int]]) -> ReportInput:
    """The report input of turn ``turn`` of a game just resolved into ``state`` (``row`` as updated)."""
    return ReportInput(
        game_name=row.name, rules=rules, state=state, turn=turn, events=list(events), nmr=list(nmr),
        phase=phase, outcome=outcome, deadline=_deadline(row), fairness=fairness(row, draws), passed=list(passed),
        window=due.window_note(row, phase),
    )


def merged_report(reports: Sequence[ReportInput]) -> ReportInput:
    """One report input covering turns reported together (a turn and the forced turns after it):
    every event and NMR seat of them, the state, phase and deadline after the last, all their draws."""
    first, last = reports[0], reports[-1]
    return ReportInput(
        game_name=last.game_name,
        rules=last.rules,
        state=last.state,
        turn=first.turn,
        events=[e for report in reports for e in report.events],
        nmr=sorted({s for report in reports for s in report.nmr}),
        phase=last.phase,
        outcome=last.outcome,
        deadline=last.deadline,
        fairness=_merged_fairness([report.fairness for report in reports]),
        passed=sorted({s for report in reports for s in report.passed}),
        window=last.window,
    )


def last_report(unit: Unit, name: str) -> ReportInput:
    """Return the report input of the newest resolved turn of a game (the opening report before any)."""
    info = unit.info(name)
    row = info.row
    records = queries.history(unit.session, row)
    window = due.window_note(row, info.phase)
    if not records:
        return ReportInput(info.name, info.rules, info.state, 0, [], [], info.phase, info.outcome, _deadline(row),
                           fairness(row, row.setup_draws), window=window)
    last = records[-1]
    return ReportInput(
        game_name=info.name,
        rules=info.rules,
        state=info.state,
        turn=last.turn,
        events=[Event.from_json(e) for e in last.events],
        nmr=last.nmr,
        phase=info.phase,
        outcome=info.outcome,
        deadline=_deadline(row),
        fairness=fairness(row, _reported_draws(records, row.setup_draws)),
        passed=last.passed,
        window=window,
    )


def report_text(unit: Unit, name: str, seat: str | None) -> str:
    """Render the newest report of a game for ``seat`` (``None`` = the public report). Raises UnknownSeat."""
    if seat is not None:
        seat = unit.info(name).seat_name(seat)
    return render_report(last_report(unit, name), seat)


def fairness(row: GameRow, draws: Sequence[Sequence[int]]) -> Fairness | None:
    """What a report shows players to check the dice (None for a legacy game without a commitment)."""
    if row.secret is None:
        return None
    revealed = row.secret if seeds.is_revealed(row) else None
    return Fairness(commitment(row.name, row.secret), row.rng_version, list(row.salts), list(draws), revealed)


def _deadline(row: GameRow) -> str | None:
    """The deadline of the turn awaiting orders as reports print it (None: no deadline)."""
    return format_utc(row.deadline) if row.deadline is not None else None


def _reported_draws(records: Sequence[TurnRecordRow], setup_draws: Sequence[Sequence[int]]) -> list[list[int]]:
    """The draws of the newest report: of the last turn resolved on request and the
    forced turns after it (which are reported together), or of every turn when all were
    forced; the first report also lists the draws of the game's setup."""
    group: list[TurnRecordRow] = []
    for record in reversed(records):
        group.append(record)
        if record.reason != "forced":
            break
    first = [list(draw) for draw in setup_draws] if group and group[-1].turn == 1 and group[-1].reason == "forced" \
        else []
    return first + [draw for record in reversed(group) for draw in record.draws]


def _merged_fairness(parts: Sequence[Fairness | None]) -> Fairness | None:
    """Join the fairness parts of turns reported together: all their draws, the last one's reveal."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    last = present[-1]
    return Fairness(last.commitment, last.rng_version, last.salts,
                    [d for p in present for d in p.draws], last.secret)
