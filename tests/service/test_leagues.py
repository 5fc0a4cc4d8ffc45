"""Leagues through the service layer on a real database: creating, joining, seating rounds as games
end, replacing and dropping players, ending early, the audit log, and two daemons racing to seat a round."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import select
from databases import on_postgresql
from stopped_clock import RecordingNotifier

from pbem.clock import utcnow
from pbem.core import InvalidInput
from pbem.service import audit, control, league_steps, leagues
from pbem.service.api import GameService
from pbem.service.deadlines import TurnClock
from pbem.store import Database, open_database
from pbem.store.tables import GameRow, GameStatus, LeagueStatus, LeagueTableRow, SeatStatus

KIND = "top-of-the-temple"
PLAYERS = [f"p{i}@example.org" for i in range(1, 9)]


def _league(runner: GameService, *options: str, players: list[str] = PLAYERS) -> list[str]:
    with runner.unit() as unit:
        leagues.create(unit, "spring", KIND, dict(o.split("=", 1) for o in options), gm_address="gm@example.org")
        for address in players:
            leagues.join(unit, "spring", address)
        leagues.start(unit, "spring")
    _steps(runner)
    return _current(runner)


def _steps(runner: GameService) -> int:
    """Take the league's steps the clock would take, to the end."""
    return league_steps.run_steps(runner.unit, "spring")


def _end_all(runner: GameService, games: list[str]) -> None:
    for game in games:
        runner.end(game)
    _steps(runner)


def _tables(runner: GameService, round_number: int) -> list[tuple[str, ...]]:
    with runner.unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        return [tuple(unit.session.get(GameRow, t.game_id).name if t.game_id else "bye"
                      for _ in [0]) + tuple(unit.snapshot(unit.session.get(GameRow, t.game_id)).seats[i].address or ""
                                           for i in range(len(t.seats)))
                for t in leagues.tables_of(unit, league, round_number) if t.game_id]


def _current(runner: GameService) -> list[str]:
    with runner.unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        return [unit.session.get(GameRow, t.game_id).name for t in leagues.tables_of(unit, league, league.round)
                if t.game_id]


def test_a_swiss_league_seats_each_round_when_the_last_table_ends(runner: GameService) -> None:
    games = _league(runner, "format=swiss", "rounds=2", "table=4", "turn_hours=24")
    assert games == ["spring-1-1", "spring-1-2"]
    first = _tables(runner, 1)
    assert [t[1:] for t in first] == [tuple(PLAYERS[:4]), tuple(PLAYERS[4:])]
    assert runner.info("spring-1-1").row.turn_hours == 24  # the game options go to every table
    runner.end("spring-1-1")
    assert _steps(runner) == 0 and _current(runner) == games  # round 2 waits for the round's last table
    runner.end("spring-1-2")
    _steps(runner)
    second = _tables(runner, 2)
    assert [t[0] for t in second] == ["spring-2-1", "spring-2-2"]
    met_before = {frozenset(p) for t in first for p in combinations(t[1:], 2)}
    repeats = sum(frozenset(p) in met_before for t in second for p in combinations(t[1:], 2))
    assert repeats == 4  # two from each old table at each new one: the fewest there can be
    _end_all(runner, _current(runner))
    with runner.unit(lock=False) as unit:
        view = leagues.view(unit, "spring")
        assert view.status == LeagueStatus.FINISHED and view.round == 2
        assert sum(line.played for line in view.standings) == 16
        assert all("@example.org" not in line.name for line in view.standings)
        assert view.standings[0].points >= view.standings[-1].points
        log = [(e.action, e.text) for e in audit.entries(unit, "spring")]
        actors = {e.action: e.actor for e in audit.entries(unit, "spring")}
    assert actors["RESULT"] == actors["ROUND"] == actors["FINISH"] == audit.SERVICE
    actions = [a for a, _ in log]
    assert actions[:10] == ["CREATE", *["JOIN"] * 8, "START"]
    assert actions.count("SEAT") == 2 and actions.count("RESULT") == 4 and actions[-1] == "FINISH"


def test_league_options_are_checked_at_creation(runner: GameService) -> None:
    for options, message in ((["format=ladder"], "format=ladder"), (["table=9"], "table=9"),
                             (["points=win:x"], "not a number"), (["size=3"], "unknown option"),
                             (["rounds=0"], "rounds=0")):
        with runner.unit() as unit, pytest.raises(InvalidInput, match=message):
            leagues.create(unit, "bad", KIND, dict(o.split("=", 1) for o in options))


def test_replace_hands_the_place_and_the_running_seat(runner: GameService) -> None:
    _league(runner, "rounds=2", "table=4")
    with runner.unit() as unit:
        handed = leagues.replace(unit, "spring", "P1@example.org", "new@example.org")
        assert handed == ["spring-1-1"]
        assert [n for n in unit.news if isinstance(n, leagues.LeagueSeatHandedOver)][0].address == "new@example.org"
    assert runner.info("spring-1-1").seats[0].address == "new@example.org"
    _end_all(runner, _current(runner))
    assert any("new@example.org" in t for t in _tables(runner, 2))
    assert not any("p1@example.org" in t for t in _tables(runner, 2))


def test_drop_resigns_the_running_seat_and_seats_no_further_round(runner: GameService) -> None:
    _league(runner, "rounds=2", "table=4")
    with runner.unit() as unit:
        leagues.drop(unit, "spring", "p8@example.org")
    assert runner.info("spring-1-2").seats[3].status == SeatStatus.RESIGNED
    _end_all(runner, _current(runner))
    second = _tables(runner, 2)
    assert sorted(len(t) - 1 for t in second) == [3, 4]  # seven players: tables of 4 and 3
    assert not any("p8@example.org" in t for t in second)


def test_end_stops_the_league_and_its_running_tables(runner: GameService) -> None:
    _league(runner, "rounds=3", "table=4")
    runner.end("spring-1-1")
    with runner.unit() as unit:
        assert leagues.end(unit, "spring") == ["spring-1-2"]
    assert runner.info("spring-1-2").row.status == GameStatus.ACTIVE  # the clock ends it
    _steps(runner)
    assert runner.info("spring-1-2").row.status == GameStatus.FINISHED
    with runner.unit(lock=False) as unit:
        view = leagues.view(unit, "spring")
    assert view.status == LeagueStatus.FINISHED and sum(line.played for line in view.standings) == 4


def test_knockout_advances_one_player_per_table_until_one_is_left(runner: GameService) -> None:
    _league(runner, "format=knockout", "table=4")
    _end_all(runner, _current(runner))
    final = _tables(runner, 2)
    assert len(final) == 1 and len(final[0]) == 3  # the two table winners meet
    _end_all(runner, _current(runner))
    with runner.unit(lock=False) as unit:
        view = leagues.view(unit, "spring")
    assert view.status == LeagueStatus.FINISHED and view.round == view.rounds == 2


def test_round_robin_of_two_meets_everyone_once(runner: GameService) -> None:
    players = PLAYERS[:4]
    _league(runner, "format=roundrobin", "table=2", players=players)
    pairs = []
    for round_number in (1, 2, 3):
        pairs += [frozenset(t[1:]) for t in _tables(runner, round_number)]
        _end_all(runner, _current(runner))
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(players, 2))))


def test_a_round_is_seated_once_under_the_unique_constraint(runner: GameService) -> None:
    _league(runner, "rounds=2", "table=4")
    with pytest.raises(IntegrityError), runner.unit() as unit:
        league = leagues.league_row(unit, "spring")
        unit.add(LeagueTableRow(league_id=league.id, round=1, table_number=1, seats={}))
        unit.session.flush()


def _retrying(work: Callable[[], Any]) -> Any:
    """Run ``work`` again after a transient database error, as the daemon does."""
    for _ in range(20):
        try:
            return work()
        except OperationalError:
            time.sleep(0.1)
    raise AssertionError("still failing")


def test_two_daemons_ending_the_last_two_tables_at_once_seat_the_next_round_once(db: Database) -> None:
    runner = GameService(db)
    _league(runner, "rounds=2", "table=4")
    first_done = threading.Event()
    errors: list[BaseException] = []

    def first() -> None:
        with GameService(db).unit() as unit:
            control.end(unit, "spring-1-1")
            first_done.set()
            time.sleep(0.5)  # the second daemon gets to the league while this one holds it

    def second() -> None:
        first_done.wait(5)

        def work() -> None:
            with GameService(db).unit() as unit:
                control.end(unit, "spring-1-2")
        _retrying(work)

    threads = [threading.Thread(target=lambda f=f: _catch(f, errors)) for f in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert _steps(runner) > 0  # the clock pairs and seats round 2
    with runner.unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        rows = list(unit.session.exec(select(LeagueTableRow).where(LeagueTableRow.league_id == league.id,
                                                                   LeagueTableRow.round == 2)))
        assert league.round == 2 and sorted(r.table_number for r in rows) == [1, 2]
    # and two daemons both looking whether the round is complete seat nothing more
    for _ in range(2):
        with runner.unit() as unit:
            assert not leagues.advance(unit, "spring")
    assert _steps(runner) == 0


def test_two_daemons_taking_a_league_s_steps_at_once_create_each_table_once(db_url: str) -> None:
    if not on_postgresql():
        pytest.skip("several daemons share a PostgreSQL database: run with --db-engine postgresql")
    players = [f"p{i}@example.org" for i in range(1, 41)]
    seated: list[leagues.RoundSeated] = []
    databases = [open_database(db_url) for _ in range(2)]
    services = [GameService(database) for database in databases]
    for service in services:
        service.on_news.append(lambda unit, news: seated.extend(n for n in news if isinstance(n, leagues.RoundSeated)))
    with services[0].unit() as unit:
        leagues.create(unit, "spring", KIND, {"table": "2", "rounds": "2"}, gm_address="gm@example.org")
        for address in players:
            leagues.join(unit, "spring", address)
        assert leagues.start(unit, "spring") == 20
    clocks = [TurnClock(service, RecordingNotifier()) for service in services]
    errors: list[BaseException] = []

    def steps(clock: TurnClock) -> None:
        while _retrying(lambda: clock.step_league(utcnow())):
            pass

    threads = [threading.Thread(target=lambda c=c: _catch(lambda: steps(c), errors)) for c in clocks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and len(seated) == 1  # the GM is told once
    with services[0].unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        tables = leagues.tables_of(unit, league, 1)
        games = leagues.round_games(unit, "spring")
        addresses = sorted(seat.address for game in games for seat in unit.info(game).seats)
        assert league.step_at is None
        log = [e.action for e in audit.entries(unit, "spring")]
    for database in databases:
        database.close()
    assert games == [f"spring-1-{n}" for n in range(1, 21)] and all(t.game_id for t in tables)
    assert addresses == sorted(players)  # every member seated exactly once
    assert log.count("SEAT") == 1


def _catch(work: Callable[[], None], errors: list[BaseException]) -> None:
    try:
        work()
    except BaseException as error:  # noqa: BLE001 - handed to the test
        errors.append(error)


def test_a_member_who_said_stop_is_seated_but_stays_stopped(runner: GameService) -> None:
    from pbem.service import consent

    _league(runner, "rounds=2", "table=4")
    with runner.unit() as unit:
        consent.stop(unit, "p2@example.org")
    _end_all(runner, _current(runner))
    assert any("p2@example.org" in t for t in _tables(runner, 2))  # its seat goes silent, as any stopped seat
    with runner.unit(lock=False) as unit:
        assert not consent.may_mail(unit.session, "p2@example.org")
        assert consent.may_mail(unit.session, "p1@example.org")


def test_the_league_migration_goes_down_and_up_again(tmp_path: Any) -> None:
    from test_report_digests import downgrade

    from pbem.store import open_database

    path = tmp_path / "leagues.db"
    database = open_database(str(path))
    runner = GameService(database)
    _league(runner, "rounds=2", "table=4")
    database.close()
    downgrade(path, "0014")  # the league's log goes with its tables; the games stay
    database = open_database(str(path))
    try:
        runner = GameService(database)
        assert runner.info("spring-1-1").row.status == GameStatus.ACTIVE
        assert [e.action for e in runner.log("spring-1-1")][:2] == ["CREATE", "START"]
        with runner.unit(lock=False) as unit, pytest.raises(leagues.UnknownLeague):
            leagues.league_row(unit, "spring")
    finally:
        database.close()
