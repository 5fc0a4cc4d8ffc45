"""Report digests (``reports=digest``) through the service layer: who is told at each resolution
and by the clock, and that no event is ever lost or told twice. Whole games of every kind are
played under digest with the clock moving on, and the events of every report each reader got are
compared with the events that reader may see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine
from stopped_clock import StoppedClock

from pbem.core import Event, GameRng
from pbem.games import GAMES, find_game
from pbem.mail.outbound.preferences import set_preference
from pbem.service import control, digests, observers
from pbem.service.api import GameService
from pbem.service.deadlines import TurnClock
from pbem.service.digests import DueReport
from pbem.service.options import BadOption
from pbem.service.resolution import ResolvedTurns
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store import Database, open_database
from pbem.store import database as store
from pbem.store.tables import SeatRow

MAX_STEPS = 400
GM = "GM"


@dataclass
class Mailbag:
    """Every report the service queued, per reader ("GM" for the public copy), and when."""

    reports: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    last: list[str] = field(default_factory=list)  # the readers of the newest batch

    def send_reports(self, unit: Unit, info: GameInfo, reports: Sequence[DueReport]) -> None:
        self.last = []
        for due in reports:
            reader = due.observer.address if due.observer else GM if due.seat is None else due.seat.name
            self.reports.setdefault(reader, []).append((f"turn {info.row.turn}", due.report))
            self.last.append(reader)

    def on_resolved(self, unit: Unit, info: GameInfo, resolved: ResolvedTurns) -> None:
        self.send_reports(unit, info, digests.take_reports(unit, info))

    def remind(self, unit: Unit, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """No reminders here (no deadlines)."""

    def tell_gm(self, unit: Unit, info: GameInfo, text: str) -> None:
        raise AssertionError(f"the GM was told: {text}")

    def tell_players(self, unit: Unit, info: GameInfo, text: str) -> None:
        raise AssertionError(f"the players were told: {text}")

    def events(self, reader: str) -> list[Event]:
        """Every event the reports to ``reader`` show it, in the order they were mailed."""
        seat = None if reader == GM or "@" in reader else reader
        return [event for _, report in self.reports.get(reader, []) for event in report.events
                if event.is_visible_to(seat)]


def start(db: Database, kind: str, *, seed: int = 5, players: int | None = None,
          **options: str) -> tuple[GameService, TurnClock, Mailbag, StoppedClock]:
    """A game of ``kind`` started with every seat held and a GM, its opening report taken."""
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    bag = Mailbag()
    runner.on_resolved.append(bag.on_resolved)
    game = find_game(kind)
    seats = game.seat_names(players or game.min_players)
    runner.create_game(kind, "g", seats={s: f"p{s.lower()}@example.org" for s in seats}, seed=seed,
                       gm_address="gm@example.org", options={**dict(getattr(game, "quick_options", {})), **options})
    with runner.unit() as unit:
        info = unit.info("g")
        bag.send_reports(unit, info, digests.take_opening(unit, info))
    return runner, TurnClock(runner, bag), bag, clock


def play_step(runner: GameService, turn_clock: TurnClock, clock: StoppedClock, robots: GameRng) -> None:
    """Every seat with a choice sends a robot's orders; the clock resolves the step."""
    info = runner.info("g")
    game = info.rules
    assert info.phase is not None
    for seat in info.phase.seats:
        if runner.current_orders("g", seat) is None:
            result = runner.submit("g", seat, "\n".join(str(o) for o in game.sample_orders(info.state, seat, robots)))
            assert result.is_clean, result.render()
    [resolved] = turn_clock.tick(clock.now).resolutions
    assert resolved.turns


def visible_events(runner: GameService, reader: str) -> list[Event]:
    """Every event of the game's history that ``reader`` may see, in order."""
    seat = None if reader == GM else reader
    return [event for record in runner.history("g") for data in record.events
            if (event := Event.from_json(data)).is_visible_to(seat)]


def test_the_default_is_the_games_and_the_options_are_checked(db: Database) -> None:
    runner = GameService(db)
    runner.create_game("shelloker", "s1", players=2)
    runner.create_game("race-on-the-river", "r1", players=2)
    runner.create_game("shelloker", "s2", players=2, options={"reports": "Each", "digest_hours": "6"})
    assert (runner.info("s1").row.reports, runner.info("s1").row.digest_hours) == ("digest", 24)
    assert runner.info("r1").row.reports == "each"
    assert (runner.info("s2").row.reports, runner.info("s2").row.digest_hours) == ("each", 6)
    for kind in GAMES:
        assert getattr(find_game(kind), "default_reports", "each") in ("each", "digest"), kind
    for option, value, message in [("reports", "weekly", "give each or digest"),
                                   ("digest_hours", "0.5", "from 1 to 720"), ("digest_hours", "721", "from 1 to 720"),
                                   ("digest_hours", "nan", "from 1 to 720"), ("digest_hours", "soon", "from 1 to 720")]:
        with pytest.raises(BadOption, match=f"{option}=.*{message}"):
            runner.create_game("shelloker", "bad", players=2, options={option: value})
        with pytest.raises(BadOption, match=f"{option}=.*{message}"):
            runner.set_options("s1", {option: value})
    runner.set_options("r1", {"reports": "digest", "digest_hours": "12"})
    assert (runner.info("r1").row.reports, runner.info("r1").row.digest_hours) == ("digest", 12)


def test_under_digest_only_the_seats_that_owe_a_choice_are_told_at_once(db: Database) -> None:
    runner, turn_clock, bag, clock = start(db, "great-regatta", reports="digest", turn_hours="0")
    assert sorted(bag.last) == ["1", "2", GM]  # the opening goes to everybody
    robots = GameRng(4)
    for _ in range(12):
        play_step(runner, turn_clock, clock, robots)
        info = runner.info("g")
        if info.outcome is not None:
            break
        choosing = [s for s in info.phase.seats if info.rules.forced_orders(info.state, s) is None]
        assert sorted(bag.last) == sorted(choosing), (bag.last, choosing)
    with runner.unit() as unit:  # those told know every turn so far; the others wait
        row = unit.game("g")
        told = {seat.name: seat.last_reported_turn for seat in unit.seats(row)}
        assert all(told[seat] == row.turn - 1 for seat in bag.last)
        assert row.gm_reported_turn < row.turn - 1


def test_a_reader_whose_news_waited_digest_hours_is_told_by_the_clock(db: Database) -> None:
    runner, turn_clock, bag, clock = start(db, "great-regatta", reports="digest", digest_hours="6",
                                           turn_hours="0")
    robots = GameRng(4)
    play_step(runner, turn_clock, clock, robots)
    waiting = [reader for reader in ("1", "2", GM) if reader not in bag.last]
    assert GM in waiting
    clock.now += timedelta(hours=5, minutes=59)
    assert turn_clock.tick(clock.now).digests == 0
    clock.now += timedelta(minutes=1)
    assert turn_clock.tick(clock.now).digests == len(waiting)
    assert sorted(bag.last) == sorted(waiting)
    assert turn_clock.tick(clock.now).digests == 0  # told once
    for reader in ("1", "2", GM):
        assert bag.events(reader) == visible_events(runner, reader), reader


def test_switching_to_each_mid_game_tells_the_waiting_readers_everything_at_the_next_step(db: Database) -> None:
    runner, turn_clock, bag, clock = start(db, "great-regatta", reports="digest", turn_hours="0")
    robots = GameRng(4)
    for _ in range(3):
        play_step(runner, turn_clock, clock, robots)
    assert GM not in bag.last
    runner.set_options("g", {"reports": "each"})
    play_step(runner, turn_clock, clock, robots)
    assert sorted(bag.last) == ["1", "2", GM]
    for reader in ("1", "2", GM):
        assert bag.events(reader) == visible_events(runner, reader), reader
    runner.set_options("g", {"reports": "digest"})
    play_step(runner, turn_clock, clock, robots)
    assert GM not in bag.last


def test_the_gm_ending_a_game_tells_everybody_what_they_were_not_told(db: Database) -> None:
    """The waiting readers get every turn since their last report; a reader told everything already
    gets the game as it stands with the result, and no turn told again."""
    runner, turn_clock, bag, clock = start(db, "great-regatta", reports="digest", turn_hours="0")
    robots = GameRng(4)
    for _ in range(3):
        play_step(runner, turn_clock, clock, robots)
    told = list(bag.last)
    assert told and GM not in told
    with runner.unit() as unit:
        control.end(unit, "g")
        info = unit.info("g")
        bag.send_reports(unit, info, digests.take_reports(unit, info, everyone=True))
    assert sorted(bag.last) == ["1", "2", GM]
    newest = runner.last_report("g")
    for reader in ("1", "2", GM):
        final = bag.reports[reader][-1][1]
        assert final.outcome is not None
        if reader in told:
            assert (final.turn, final.events, final.ended_after) == (newest.newest_turn, [], newest.newest_turn)
        assert bag.events(reader) == visible_events(runner, reader), reader


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_whole_game_under_digest_loses_no_event_and_tells_none_twice(db: Database, kind: str) -> None:
    """Every seat and the GM: the events of all the reports it got are, in order, exactly the events
    of the game it may see; at each resolution only the seats that owe a choice were told (all at
    the end), and the clock told the others after digest_hours."""
    runner, turn_clock, bag, clock = start(db, kind, reports="digest", digest_hours="8", turn_hours="0")
    robots = GameRng(17)
    timed = 0
    for _ in range(MAX_STEPS):
        play_step(runner, turn_clock, clock, robots)
        info = runner.info("g")
        if info.outcome is not None:
            assert sorted(bag.last) == sorted([*info.seat_names, GM])
            break
        choosing = [s for s in info.phase.seats if info.rules.forced_orders(info.state, s) is None]
        assert sorted(bag.last) == sorted(choosing), (bag.last, choosing)
        clock.now += timedelta(hours=robots.randint(0, 5))
        timed += turn_clock.tick(clock.now).digests
    else:
        pytest.fail(f"{kind} did not end in {MAX_STEPS} steps")
    assert timed > 0 or len(runner.history("g")) < 4, "the clock never told a waiting reader"
    for reader in [*runner.info("g").seat_names, GM]:
        assert bag.events(reader) == visible_events(runner, reader), reader


def test_an_observer_is_a_reader_of_its_own(db: Database) -> None:
    """An observer is told only what comes after it came, reads the game's digests unless its address
    asked for every report (SET DIGEST OFF), and like every reader loses no public event."""
    runner, turn_clock, bag, clock = start(db, "shelloker", players=3, turn_hours="0")
    assert runner.info("g").row.reports == "digest"
    robots = GameRng(7)
    for _ in range(2):
        play_step(runner, turn_clock, clock, robots)
    fan, quiet = "fan@outside.test", "quiet@outside.test"
    with runner.unit() as unit:
        for address in (fan, quiet):
            observers.observe(unit, "g", address)
        set_preference(unit.session, fan, "digest", on=False, now=clock.now)
    came = runner.info("g").row.turn - 1
    for _ in range(MAX_STEPS):
        if runner.info("g").outcome is not None:
            break
        play_step(runner, turn_clock, clock, robots)
        if runner.info("g").outcome is None:
            assert fan in bag.last and quiet not in bag.last and GM not in bag.last, bag.last
    assert runner.info("g").outcome is not None
    assert quiet in bag.last and GM in bag.last  # the final report goes to every reader at once
    assert len(bag.reports[quiet]) == 1 < len(bag.reports[fan])
    public = [event for record in runner.history("g") if record.turn > came for data in record.events
              if (event := Event.from_json(data)).is_visible_to(None)]
    assert bag.events(fan) == bag.events(quiet) == public
    assert bag.events(GM) == visible_events(runner, GM)


def test_games_stored_before_digests_count_as_told_everything(tmp_path: Path) -> None:
    """The migration: a game stored before reported every step to every reader, so its readers are
    told only what comes after (not the whole history in their next mail)."""
    path = tmp_path / "old.db"
    database = open_database(str(path))
    runner = GameService(database)
    runner.create_game("race-on-the-river", "old", seats={"1": "a@example.org", "2": "b@example.org"}, seed=4,
                       gm_address="gm@example.org")
    robots = GameRng(2)
    for _ in range(3):
        info = runner.info("old")
        for seat in info.phase.seats:
            runner.submit("old", seat, "\n".join(str(o) for o in info.rules.sample_orders(info.state, seat, robots)))
        runner.resolve("old")
    turn = runner.info("old").row.turn
    database.close()
    downgrade(path, "0009")
    database = open_database(str(path))  # migrates to the newest schema again
    try:
        with GameService(database).unit() as unit:
            row = unit.game("old")
            assert (row.reports, row.digest_hours, row.gm_reported_turn) == ("each", 24, turn - 1)
            assert [seat.last_reported_turn for seat in unit.seats(row)] == [turn - 1, turn - 1]
    finally:
        database.close()


def downgrade(path: Path, revision: str) -> None:
    """Take the SQLite database at ``path`` back to the schema of migration ``revision``."""
    engine = create_engine(f"sqlite:///{path}")
    config = Config()
    config.set_main_option("script_location", str(store._MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
    engine.dispose()


def test_a_digest_wait_is_the_games_wake_up_time_paused_or_not(db: Database) -> None:
    """The clock finds the games whose digests are due by their wake-up time (never by reading every
    game's readers): the wait of the oldest news follows digest_hours, and the waiting readers of a
    paused game are told too."""
    runner, turn_clock, bag, clock = start(db, "great-regatta", reports="digest", digest_hours="6", turn_hours="0")
    play_step(runner, turn_clock, clock, GameRng(4))
    waiting = [reader for reader in ("1", "2", GM) if reader not in bag.last]
    row = runner.info("g").row
    assert waiting and row.news_since == clock.now and row.wake_at == clock.now + timedelta(hours=6)
    runner.set_options("g", {"digest_hours": "2"})
    runner.pause("g")
    assert runner.info("g").row.wake_at == clock.now + timedelta(hours=2)
    assert turn_clock.due_games(clock.now + timedelta(hours=1, minutes=59)) == []
    clock.now += timedelta(hours=2)
    assert turn_clock.due_games(clock.now) == [row.id]
    assert turn_clock.tick(clock.now).digests == len(waiting)
    assert sorted(bag.last) == sorted(waiting)
    row = runner.info("g").row
    assert (row.status, row.news_since, row.wake_at) == ("paused", None, None)
    for reader in ("1", "2", GM):
        assert bag.events(reader) == visible_events(runner, reader), reader


def test_the_migration_finds_the_news_readers_of_running_games_wait_for(tmp_path: Path) -> None:
    """A database from before the wake-up times: the news a digest reader waits for makes the game due
    digest_hours after its turn resolved."""
    path = tmp_path / "old.db"
    database = open_database(str(path))
    runner, turn_clock, bag, clock = start(database, "great-regatta", reports="digest", digest_hours="6",
                                           turn_hours="0")
    play_step(runner, turn_clock, clock, GameRng(4))
    assert GM not in bag.last
    database.close()
    downgrade(path, "0010")
    database = open_database(str(path))  # migrates to the newest schema again
    try:
        row = GameService(database).info("g").row
        assert (row.news_since, row.wake_at) == (clock.now, clock.now + timedelta(hours=6))
    finally:
        database.close()
