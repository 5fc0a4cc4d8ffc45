"""A game's standing for someone asking about it: what STATUS tells, and the JSON of
``pbem show --json``. Only public facts, or a seat's own view when asked as that seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbem.clock import format_utc
from pbem.core.protocol import score_to_json
from pbem.numbering import game_standing, game_turn
from pbem.service import absences, consent, due, owing, players, seeds, submissions
from pbem.service.endings import ending_of
from pbem.service.unit import Unit
from pbem.store.tables import GameStatus


@dataclass(frozen=True)
class StatusView:
    """What STATUS says about a game."""

    name: str
    title: str
    status: GameStatus
    standing: str  # "turn 4", "finished after turn 5": see pbem.numbering.standing
    commitment: str | None  # None for a legacy game
    revealed_secret: str | None  # once the game is over
    open_seats: list[str] | None  # while forming
    scores: dict[str, int | float] | None  # once started
    outcome_headline: str | None  # once over
    waiting_for: list[str] | None  # while a phase waits for orders: the seats that owe some and sent none
    deadline: datetime | None
    window: str | None = None  # while the phase is an answer window: when it closes and what silence means
    teammates: dict[str, list[str] | None] | None = None  # asked as an owing seat of a team phase
    absences: list[str] | None = None  # for the GM: "B away 2026-12-20 00:00 UTC to ... (2.0 of 14 days used)"
    unaccepted: list[str] | None = None  # while forming: seats whose holders have not accepted their invitation
    reliability: list[str] | None = None  # for the GM: "B bob@example.org (bob): 92% (46 of the last 50 deadlines met)"
    gm_press: str | None = None  # copy | none: whether the GM reads press between players (None: the game has no GM)


def status_view(unit: Unit, name: str, seat: str | None = None, *, gm: bool = False) -> StatusView:
    """Return what STATUS says about the game called ``name``; asked by ``seat`` (signed on), in a team
    phase it owes orders in, also its teammates' stored orders; asked by the GM, also each holder's
    reliability. Raises UnknownGame, UnknownSeat."""
    info = unit.info(name)
    row = info.row
    forming = row.status == GameStatus.FORMING
    return StatusView(
        name=row.name,
        title=info.rules.title,
        status=row.status,
        standing=game_standing(row),
        commitment=seeds.commitment_of(row),
        revealed_secret=row.secret if seeds.is_revealed(row) else None,
        open_seats=[s.name for s in info.seats if not s.address] if forming else None,
        scores=None if forming else {s: score_to_json(v) for s, v in info.rules.scores(info.state).items()},
        outcome_headline=info.outcome.headline if info.outcome is not None else None,
        waiting_for=owing.missing_seats(unit, info) if info.outcome is None and info.phase is not None else None,
        deadline=row.deadline,
        window=due.window_note(row, info.phase) if info.outcome is None else None,
        teammates=submissions.shared_orders(unit, info, info.seat_name(seat)) if seat is not None else None,
        absences=[f"{a.seat} away {format_utc(a.starts)} to {format_utc(a.ends)} "
                  f"({unit.seat(row, a.seat).absence_used_hours / 24:.1f} of {row.absence_days:g} days used)"
                  for a in absences.absences_of(unit, row, current=True)],
        unaccepted=[s.name for s in consent.unaccepted(unit, row)] if forming else None,
        reliability=[holder_line(unit, s.name, s.address) for s in info.seats if s.address] if gm else None,
        gm_press=row.gm_press if row.gm_address else None,
    )


def holder_line(unit: Unit, seat: str, address: str) -> str:
    """A seat's holder for the GM: seat, address, player name when registered, and reliability."""
    player = players.player_of(unit.session, address)
    named = f" ({player.name})" if player is not None else ""
    return f"{seat} {address}{named}: {players.record_of_address(unit.session, address).reliability_text()}"


def state_json(unit: Unit, name: str, seat: str | None = None) -> dict[str, Any]:
    """Return the game as JSON: game, kind, turn (the turn awaited; once finished, the last turn
    played), status, scores, once finished winners, outcome (win, shared, draw or loss),
    outcome_reason and ending (how it ended: :meth:`pbem.service.endings.Ending.to_json`), and state: the game's view
    (with ``seat``, that seat's secrets too). Raises UnknownGame, UnknownSeat."""
    info = unit.info(name)
    if seat is not None:
        seat = info.seat_name(seat)
    row = info.row
    data: dict[str, Any] = {"game": info.name, "kind": info.rules.name, "turn": game_turn(row),
                            "status": row.status.value}
    if row.status == GameStatus.FORMING:
        data["seats"] = {s.name: bool(s.address) for s in info.seats}
        return data
    data["scores"] = {s: score_to_json(v) for s, v in info.rules.scores(info.state).items()}
    if info.outcome is not None:
        data["winners"] = list(info.outcome.winners)
        data["outcome"] = info.outcome.kind.value
        data["outcome_reason"] = info.outcome.reason
        data["ending"] = ending_of(row).to_json()
    else:
        data["phase"] = info.phase.name if info.phase else None
        data["owing"] = list(owing.owing_seats(info))
        data["deadline"] = row.deadline.isoformat() if row.deadline else None
    data["state"] = info.rules.view(info.state, seat)
    return data
