"""A league's work in the clock's steps, on a real database: START only pairs; each step creates a few
tables, mails the standings to a few members or ends a few tables after LEAGUE END; what a step did is
stored, so a new service (a restarted daemon) carries on; members dropped or replaced meanwhile."""

from __future__ import annotations

from collections import Counter
from typing import Any

from stopped_clock import RecordingNotifier

from pbem.clock import utcnow
from pbem.service import audit, league_steps, leagues
from pbem.service.api import GameService
from pbem.service.deadlines import TurnClock
from pbem.store import Database
from pbem.store.tables import GameStatus, SeatStatus

KIND = "top-of-the-temple"
GM = "gm@example.org"


def _members(count: int) -> list[str]:
    return [f"p{i}@example.org" for i in range(1, count + 1)]


class League:
    """A league of ``count`` members at tables of 2 on ``db``, and the news its units brought."""

    def __init__(self, db: Database, count: int, *options: str) -> None:
        self.db = db
        self.members = _members(count)
        self.news: list[Any] = []
        self.runner = self.service()
        with self.runner.unit() as unit:
            leagues.create(unit, "big", KIND, {"table": "2", **dict(o.split("=", 1) for o in options)},
                           gm_address=GM)
            for address in self.members:
                leagues.join(unit, "big", address)

    def service(self) -> GameService:
        """A new game service on the database (a daemon started afresh), its news kept."""
        service = GameService(self.db)
        service.on_news.append(lambda unit, news: self.news.extend(news))
        return service

    def steps(self, limit: int | None = None, service: GameService | None = None) -> int:
        """Take up to ``limit`` (all) due steps with a turn clock of ``service``; return how many."""
        clock = TurnClock(service or self.runner, RecordingNotifier())
        taken = 0
        while (limit is None or taken < limit) and clock.step_league(utcnow()):
            taken += 1
        return taken

    def games(self) -> list[str]:
        with self.runner.unit(lock=False) as unit:
            return leagues.round_games(unit, "big")

    def of(self, kind: type) -> list[Any]:
        return [item for item in self.news if isinstance(item, kind)]


def test_start_leaves_the_work_to_steps_each_creating_four_tables_of_two(db: Database) -> None:
    league = League(db, 40)
    with league.runner.unit() as unit:
        assert leagues.start(unit, "big") == 20
    with league.runner.unit(lock=False) as unit:
        assert leagues.tables_of(unit, leagues.league_row(unit, "big")) == []  # the mail's unit paired nothing
    assert league.steps(1) == 1 and league.games() == []  # the first step pairs round 1
    with league.runner.unit(lock=False) as unit:
        assert len(leagues.waiting_tables(unit, leagues.league_row(unit, "big"))) == 20
    assert league.steps(1) == 1 and league.games() == ["big-1-1", "big-1-2", "big-1-3", "big-1-4"]
    assert [n.games for n in league.of(leagues.TablesOpened)] == [("big-1-1", "big-1-2", "big-1-3", "big-1-4")]
    assert league.steps() == 5  # 4 more steps of 4 tables, and one that finds no work left
    assert len(league.games()) == 20 and len(league.of(leagues.RoundSeated)) == 1


def test_a_restarted_service_carries_on_where_the_steps_stopped(db: Database) -> None:
    league = League(db, 40)
    with league.runner.unit() as unit:
        leagues.start(unit, "big")
    league.steps(3)
    assert len(league.games()) == 8
    league.steps(service=league.service())  # the daemon killed; the next one starts
    games = league.games()
    assert games == [f"big-1-{n}" for n in range(1, 21)]
    with league.runner.unit(lock=False) as unit:
        seated = sorted(s.address for game in games for s in unit.info(game).seats)
        log = [e.action for e in audit.entries(unit, "big")]
    assert seated == sorted(league.members) and log.count("SEAT") == 1
    assert len(league.of(leagues.RoundSeated)) == 1


def test_the_standings_go_to_ten_members_a_step_each_once_and_the_gm_last(db: Database) -> None:
    league = League(db, 45, "rounds=2")  # 22 tables and a bye
    with league.runner.unit() as unit:
        leagues.start(unit, "big")
    league.steps()
    for game in league.games():
        league.runner.end(game)
    assert league.of(leagues.StandingsDue) == []  # the last game's unit only left the work to the clock
    league.steps()
    told = league.of(leagues.StandingsDue)
    assert [len(n.readers) for n in told] == [10, 10, 10, 10, 6] and {n.round for n in told} == {1}
    assert Counter(r for n in told for r in n.readers) == Counter([*league.members, GM])
    assert told[-1].readers[-1] == GM and not any(n.over for n in told)
    assert len(league.games()) == 22  # round 2 seated after the standings
    assert league.of(leagues.RoundSeated)[-1].round == 2


def test_league_end_drops_the_tables_not_seated_and_ends_the_others_in_steps(db: Database) -> None:
    league = League(db, 40)
    with league.runner.unit() as unit:
        leagues.start(unit, "big")
    league.steps(3)
    with league.runner.unit() as unit:
        assert leagues.end(unit, "big") == [f"big-1-{n}" for n in range(1, 9)]
    assert all(league.runner.info(g).row.status == GameStatus.ACTIVE for g in league.games())
    league.steps()
    assert league.games() == [f"big-1-{n}" for n in range(1, 9)]  # no table created after the END
    assert all(league.runner.info(g).row.status == GameStatus.FINISHED for g in league.games())
    assert [len(n.games) for n in league.of(leagues.TablesEnded)] == [4, 4]
    told = league.of(leagues.StandingsDue)
    assert all(n.over for n in told) and sorted(r for n in told for r in n.readers) == sorted([*league.members, GM])
    assert league.of(leagues.RoundSeated) == []


def test_a_member_dropped_before_its_table_is_seated_resigns_there(db: Database) -> None:
    league = League(db, 16)
    with league.runner.unit() as unit:
        leagues.start(unit, "big")
    league.steps(1)
    with league.runner.unit() as unit:
        leagues.drop(unit, "big", "p16@example.org")  # at table 8, not yet seated
        leagues.replace(unit, "big", "p15@example.org", "new@example.org")
    league.steps()
    seats = {s.address: s.status for s in league.runner.info("big-1-8").seats}
    assert seats == {"new@example.org": SeatStatus.ACTIVE, "p16@example.org": SeatStatus.RESIGNED}


def test_steps_are_bounded_by_players_not_tables(db: Database) -> None:
    with GameService(db).unit() as unit:
        for size in ("2", "4", "9"):
            row = leagues.create(unit, f"l{size}", "meanies-in-our-midst" if size == "9" else KIND, {"table": size})
            assert league_steps.tables_per_step(row) == {"2": 4, "4": 2, "9": 1}[size]
