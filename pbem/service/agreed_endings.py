"""Endings the table agrees on: DRAW, CONCEDE and NODRAW.

A seat's DRAW proposes a draw among every seat still playing (not resigned, not eliminated by the
rules), or agrees to the draw proposed; in a cooperative game CONCEDE does the same for the team's
defeat. NODRAW withdraws the seat's vote. When every seat still playing has voted within one turn,
the game ends at once (:func:`vote`); a proposal still short of that when the turn resolves lapses,
and the turn's report says so without a name (:func:`lapse_at_turn_end`).

Votes are secret until all agree, as in DPjudge's games (no player's vote is revealed) and diplicity's
draw flags: nothing here tells who voted. The reply to a voter says whether its vote opened a
proposal or joined one standing; every seat still playing, the proposer too, is told that a proposal
was made (DPjudge's HIDE_PROPOSER: "a draw has been proposed", no name), never who made or joined it,
nor how many did.
Whether a game allows an agreed end is the game's declared fact (:class:`~pbem.core.game.AgreedEnd`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete
from sqlmodel import select

from pbem.core import Event, Game, GameError, InvalidInput
from pbem.core.game import AgreedEnd
from pbem.service import audit, players, record
from pbem.service.unit import Unit
from pbem.store.tables import EndVoteRow, GameRow, GameStatus, SeatStatus

DRAW = "draw"
CONCEDE = "concede"

LAPSED = "agreed-end-lapsed"
"""The kind of the event a turn's report carries when a proposal made in it lapsed."""

_WORD = {DRAW: "DRAW", CONCEDE: "CONCEDE"}
_PROPOSAL = {DRAW: "a draw", CONCEDE: "a concession"}


class AgreedEndRefused(InvalidInput):
    """A DRAW, CONCEDE or NODRAW the game or the seat cannot make: the message says why."""


@dataclass(frozen=True)
class Vote:
    """What a seat's vote did: ``kind`` (draw or concede) in ``turn``; ``opened`` when no proposal stood
    before it (the other seats are to be told one was made), ``ended`` when it was the last vote needed
    (the game is over)."""

    kind: str
    turn: int
    opened: bool
    ended: bool

    @property
    def proposal(self) -> str:
        """The proposal in words: ``a draw`` or ``a concession``."""
        return _PROPOSAL[self.kind]


def agreed_end_of(rules: Game[Any, Any]) -> AgreedEnd:
    """Return how the players of a game of ``rules`` may end it by agreement (its declared fact)."""
    return rules.facts().agreed_end  # type: ignore[attr-defined, no-any-return]


def agreed_end_help(rules: Game[Any, Any]) -> str:
    """Return the sentence HELP <kind> ends with: how the players of a game of ``rules`` may end it by
    agreement, or why they may not."""
    allowed = agreed_end_of(rules)
    if allowed is AgreedEnd.DRAW:
        return ("Ending by agreement: DRAW (after SIGNON, or in a reply) proposes a draw among the seats still "
                "playing, or agrees to the one proposed; when all agree within one turn the game ends as a draw. "
                "Votes stay secret (the others hear only that a draw was proposed); NODRAW withdraws yours.")
    if allowed is AgreedEnd.CONCEDE:
        return ("Ending by agreement: CONCEDE (after SIGNON, or in a reply) proposes that the team gives up, or "
                "agrees to it; when the whole team agrees within one turn the game ends as a defeat. Votes stay "
                "secret; NODRAW withdraws yours. There is no draw in a cooperative game.")
    return f"Ending by agreement: none. {rules.title} allows no agreed end: {getattr(rules, 'agreed_end_refusal', '')}."


def agreed_end_word(rules: Game[Any, Any]) -> str:
    """Return the command that ends a game of ``rules`` by agreement (``DRAW`` or ``CONCEDE``), or
    ``none`` when the game allows no agreed end (for lists of games)."""
    allowed = agreed_end_of(rules)
    return "none" if allowed is AgreedEnd.NONE else _WORD[allowed.value]


def allowed_kind(rules: Game[Any, Any], asked: str) -> str:
    """Return ``asked`` (draw or concede) when the game allows that agreed end. Raises
    :class:`AgreedEndRefused` naming what the game allows instead (or why it allows none)."""
    allowed = agreed_end_of(rules)
    if allowed is AgreedEnd.NONE:
        raise AgreedEndRefused(f"{rules.title} allows no agreed end: {getattr(rules, 'agreed_end_refusal', '')}")
    if allowed.value == asked:
        return asked
    if allowed is AgreedEnd.CONCEDE:
        raise AgreedEndRefused(f"{rules.title} is cooperative: the team cannot draw. CONCEDE gives the game up "
                               "as a defeat once the whole team sends it")
    raise AgreedEndRefused(f"only the team of a cooperative game concedes; in {rules.title} DRAW proposes a "
                           "draw (RESIGN leaves the game alone)")


def seats_playing(unit: Unit, row: GameRow) -> tuple[str, ...]:
    """Return the seats of a running game still playing, in seat order: not resigned, and not put out by
    the rules (:meth:`~pbem.core.Game.eliminated_seats`)."""
    info = unit.snapshot(row)
    out = set(info.rules.eliminated_seats(info.state))
    return tuple(seat.name for seat in info.seats if seat.status == SeatStatus.ACTIVE and seat.name not in out)


def vote(unit: Unit, name: str, seat: str, asked: str) -> Vote:
    """Record ``seat``'s vote for the agreed end ``asked`` (``draw`` or ``concede``) in the turn awaiting
    orders, and end the game when every seat still playing has voted for it in this turn. Raises
    :class:`AgreedEndRefused` when the game does not allow that end, the seat is out of the game or a
    draw would be of one seat; GameError for a game not running."""
    row = _running(unit, name)
    kind = allowed_kind(unit.snapshot(row).rules, asked)
    playing = seats_playing(unit, row)
    if seat not in playing:
        raise AgreedEndRefused(f"seat {seat} is out of game {row.name}: only the seats still playing vote")
    if kind == DRAW and len(playing) < 2:
        raise AgreedEndRefused(f"seat {seat} is the only seat still playing in {row.name}: a draw needs two")
    votes = _votes(unit, row)
    standing = {v.seat for v in votes if v.turn == row.turn and v.kind == kind and v.agrees}
    for stale in (v for v in votes if v.turn != row.turn or v.kind != kind):  # an earlier turn's, not lapsed yet
        unit.session.delete(stale)
    mine = next((v for v in votes if v.seat == seat and v.turn == row.turn and v.kind == kind), None)
    if mine is None:
        unit.add(EndVoteRow(game_id=row.id, seat=seat, kind=kind, turn=row.turn, voted_at=unit.now()))
    elif not mine.agrees:
        mine.agrees, mine.voted_at = True, unit.now()
        unit.add(mine)
    agreed = standing | {seat}
    ended = agreed >= set(playing)
    if ended:
        _end(unit, row, kind, playing)
    return Vote(kind, row.turn, opened=not standing, ended=ended)


def withdraw(unit: Unit, name: str, seat: str) -> str | None:
    """Withdraw ``seat``'s vote of the turn awaiting orders (NODRAW); return its kind (draw or concede), or
    None when the seat had none. Whether a proposal still stands is not told; a proposal every vote of
    which was withdrawn still lapses in the turn's report. Raises GameError for a game not running."""
    row = _running(unit, name)
    mine = next((v for v in _votes(unit, row) if v.seat == seat and v.turn == row.turn and v.agrees), None)
    if mine is None:
        return None
    mine.agrees = False  # kept: the turn had a proposal, and its report tells that it lapsed
    unit.add(mine)
    return mine.kind


def drop_vote(unit: Unit, row: GameRow, seat: str) -> None:
    """Drop ``seat``'s vote, if any (its seat changed hands: the new holder has not voted)."""
    unit.session.execute(delete(EndVoteRow).where(EndVoteRow.game_id == row.id, EndVoteRow.seat == seat))  # type: ignore[arg-type]


def lapse_at_turn_end(unit: Unit, row: GameRow, turn: int) -> list[Event]:
    """The turn ``turn`` of ``row``'s game resolves: every vote lapses. Return the event its report tells
    when a proposal made in that turn had not been agreed (no seat named), else none."""
    votes = _votes(unit, row)
    if not votes:
        return []
    forget(unit, row)
    kinds = sorted({v.kind for v in votes if v.turn == turn})
    return [Event(LAPSED, f"{_PROPOSAL[kind].capitalize()} was proposed in turn {turn}, but not every seat still "
                          "playing agreed before the turn ended: the proposal lapsed (who voted for it stays secret).",
                  data={"kind": kind}) for kind in kinds]


def forget(unit: Unit, row: GameRow) -> None:
    """Drop every vote of ``row``'s game (its turns were rolled back, or it is over)."""
    unit.session.execute(delete(EndVoteRow).where(EndVoteRow.game_id == row.id))  # type: ignore[arg-type]


def _votes(unit: Unit, row: GameRow) -> Sequence[EndVoteRow]:
    return list(unit.session.exec(select(EndVoteRow).where(EndVoteRow.game_id == row.id)))


def _running(unit: Unit, name: str) -> GameRow:
    """The row of a game under way (its clock running or paused); GameError for any other."""
    row = unit.game(name)
    if row.status == GameStatus.FORMING:
        raise GameError(f"game {row.name} has not started")
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {row.name} is over")
    return row


def _end(unit: Unit, row: GameRow, kind: str, seats: tuple[str, ...]) -> None:
    """End the game as the seats agreed: a draw among them, or the team's defeat."""
    forget(unit, row)
    row.agreed_end = {"kind": kind, "seats": list(seats), "turn": row.turn}
    row.status, row.deadline = GameStatus.FINISHED, None
    unit.add(row)
    unit.session.flush()
    info = unit.snapshot(row)
    assert info.outcome is not None
    players.note_outcome(unit, info, row.turn, info.outcome)
    audit.record(unit, row, _WORD[kind], f"game over in turn {row.turn}: {info.outcome.headline}",
                 actor=audit.SERVICE, data={"agreed_end": dict(row.agreed_end)})
    record.append_end(unit, row, kind, info.outcome)
    from pbem.service import leagues  # leagues create games through the resolution, which imports this module

    leagues.game_over(unit, row)
