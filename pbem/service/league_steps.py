"""A league's work that grows with its members, in steps the clock takes one unit of work at a time.

LEAGUE START, the end of a round's last game and LEAGUE END only leave work here (they set the league's
``step_at``, see :func:`pbem.service.leagues.schedule`); the clock takes the steps
(:meth:`pbem.service.deadlines.TurnClock.step_league`), each in a unit of its own that holds the league's
row lock, in this order:

1. a league just started, or a round complete: the next round is paired (bounded work, see
   :mod:`pbem.leagues.pairing`) and its tables stored, each waiting for its game (or the league finishes
   after its last round);
2. after LEAGUE END: up to :func:`tables_per_step` of the round's games still playing end;
3. the standings after a round: mailed to the next :data:`STEP_READERS` members, the GM with the last;
4. up to :func:`tables_per_step` of the round's tables get their games (their players get their seat
   mails as their table is created); with the last one, the GM is told that the round is seated.

A step's cost is bounded by a small fixed number (:data:`STEP_SEATS`), never by the league's size: a step
of a league of 200 takes what a step of a league of 8 takes. What is done is stored by each step with
the step (the tables' games, ``told_through``), so a daemon stopped between two steps carries on where
it was, and a step taken by two daemons at once is taken by one: the second one passes the league by
while the first holds its lock (``SKIP LOCKED``), then finds the work done.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from sqlmodel import select

from pbem.service import control, leagues
from pbem.service.unit import Unit
from pbem.store.tables import LeagueMemberRow, LeagueRow, LeagueStatus

STEP_SEATS = 8
"""Players one step seats (the tables it creates: 8 // table size, at least one) or whose tables it ends."""
STEP_READERS = 10
"""Members one step mails the standings to."""


def tables_per_step(league: LeagueRow) -> int:
    """The tables one step of ``league`` creates or ends: :data:`STEP_SEATS` players' worth, at least one."""
    return max(1, STEP_SEATS // league.table_size)


def claim_due(unit: Unit, now: datetime) -> LeagueRow | None:
    """Lock and return the league whose step has waited longest by ``now``; None when none is due or
    another daemon holds the lock of every due one (``SKIP LOCKED``; one indexed query)."""
    query = (select(LeagueRow).where(LeagueRow.step_at <= now)  # type: ignore[operator]
             .order_by(LeagueRow.step_at, LeagueRow.id).limit(1)  # type: ignore[arg-type]
             .with_for_update(skip_locked=True).execution_options(populate_existing=True))
    return unit.session.exec(query).first()


def claim(unit: Unit, name: str) -> LeagueRow | None:
    """Lock and return the league called ``name`` when a step of it waits (whenever it is due)."""
    league = leagues.league_row(unit, name, lock=True)
    return league if league.step_at is not None else None


def take_step(unit: Unit, league: LeagueRow) -> str:
    """Take the locked league's next step (see the module's text) in ``unit``; return what it did, for the
    log, or "" when no work waited (the league then waits for no step). A league with more work waits
    behind the other leagues due now: two large leagues are seated side by side."""
    done = _next_step(unit, league)
    league.step_at = unit.now() if done else None
    unit.add(league)
    return done


def run_steps(units: Callable[[], AbstractContextManager[Unit]], name: str) -> int:
    """Take every step of the league called ``name``, each in a unit of its own from ``units``, until no
    work waits (the command line's way; the daemon's clock takes them between its other work); return
    how many steps did something."""
    taken = 0
    while True:
        with units() as unit:
            league = claim(unit, name)
            done = take_step(unit, league) if league is not None else ""
        if not done:
            return taken
        taken += 1


def _next_step(unit: Unit, league: LeagueRow) -> str:
    if league.status == LeagueStatus.ACTIVE and league.round == 0:
        leagues.pair_round(unit, league, 1)
        return "round 1 paired"
    if leagues.is_round_complete(unit, league):
        leagues.finish_round(unit, league)
        return f"round {league.tell_round} complete" + (f"; round {league.round} paired"
                                                         if league.status == LeagueStatus.ACTIVE else "")
    if league.status == LeagueStatus.FINISHED and league.ended_early:
        ending = leagues.running_tables(unit, league, tables_per_step(league))
        if ending:
            for game in ending:
                control.end(unit, game)
            unit.news.append(leagues.TablesEnded(league.name, tuple(ending)))
            return f"ended {', '.join(ending)}"
    if league.tell_round is not None:
        return _tell_standings(unit, league, league.tell_round)
    if league.status != LeagueStatus.ACTIVE:
        return ""
    waiting = leagues.waiting_tables(unit, league, tables_per_step(league) + 1)
    if not waiting:
        return ""
    games = leagues.open_tables(unit, league, waiting[:tables_per_step(league)])
    if len(waiting) <= tables_per_step(league):
        leagues.record_seated(unit, league)
    return f"created {', '.join(games)}"


def _tell_standings(unit: Unit, league: LeagueRow, round_number: int) -> str:
    """Mail the standings after ``round_number`` to the next members still playing (and, with the last of
    them, the GM when it is none of them)."""
    query = (select(LeagueMemberRow).where(LeagueMemberRow.league_id == league.id,
                                           LeagueMemberRow.id > league.told_through,  # type: ignore[operator]
                                           LeagueMemberRow.dropped == False)  # noqa: E712  (SQL)
             .order_by(LeagueMemberRow.id).limit(STEP_READERS + 1))  # type: ignore[arg-type]
    members = list(unit.session.exec(query))
    readers = [m.address for m in members[:STEP_READERS]]
    last = len(members) <= STEP_READERS
    if last:
        league.tell_round = None
        if league.gm_address and not _is_playing_member(unit, league, league.gm_address):
            readers.append(league.gm_address)
    else:
        league.told_through = int(members[STEP_READERS - 1].id or 0)
    unit.news.append(leagues.StandingsDue(league.name, round_number, league.status == LeagueStatus.FINISHED,
                                          tuple(readers)))
    return f"standings after round {round_number} to {len(readers)} reader(s)"


def _is_playing_member(unit: Unit, league: LeagueRow, address: str) -> bool:
    query = select(LeagueMemberRow.id).where(LeagueMemberRow.league_id == league.id,
                                             LeagueMemberRow.address == address,
                                             LeagueMemberRow.dropped == False)  # noqa: E712  (SQL)
    return unit.session.exec(query).first() is not None
