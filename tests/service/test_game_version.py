"""A game's version rises with every write of its row or its seats, whoever writes, and the rows a service keeps
across its units (pbem.service.row_cache) are always those of the version the database holds: a write by
another daemon or program is seen by the next unit, and a unit that rolled back leaves nothing behind."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, text

from pbem.games import find_game
from pbem.service.api import GameService
from pbem.store import Database, open_database

KIND = "turkey-chase"


def playing(runner: GameService) -> None:
    """Create the game ``g``, started, its four seats held."""
    runner.create_game(KIND, "g", seats={seat: f"{seat.lower()}@x.test" for seat in find_game(KIND).seat_names(4)})


def game_rows(db: Database, name: str) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """The game's version, its row's other values and its seats' values, read afresh."""
    with db.engine.connect() as connection:
        game = dict(connection.execute(text("SELECT * FROM game WHERE name = :name"), {"name": name}).mappings().one())
        seats = [dict(seat) for seat in connection.execute(
            text("SELECT * FROM seat WHERE game_id = :id ORDER BY position"), {"id": game["id"]}).mappings()]
    return game.pop("version"), game, seats


def rows_in_a_unit(runner: GameService) -> list[dict[str, Any]]:
    """The values of game ``g``'s row and its seats' rows as the next unit of ``runner`` has them (from its
    cache, or loaded), without the version."""
    with runner.unit(lock=False) as unit:
        row = unit.game("g")
        return [{column.key: getattr(item, column.key) for column in type(item).__table__.columns
                 if column.key != "version"} for item in (row, *unit.seats(row))]


def version(db: Database, name: str) -> int:
    return game_rows(db, name)[0]


@contextmanager
def game_loads(db: Database, reads: tuple[str, ...] = ("SELECT game.id, game.name", "SELECT seat.id")
               ) -> Iterator[list[str]]:
    """The statements that load whole game rows or seat rows (or start with one of ``reads``) while the
    block runs."""
    loads: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith(reads):
            loads.append(statement)

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        yield loads
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)


def test_every_service_write_of_a_game_or_its_seats_raises_its_version(runner: GameService, db: Database) -> None:
    runner.create_game(KIND, "g", players=4, gm_address="gm@x.test")
    info = runner.info("g")
    seats = info.seat_names
    steps: list[tuple[str, Callable[[], object]]] = [
        ("join", lambda: runner.join("g", "a@x.test", seats[0])),
        ("salt", lambda: runner.add_salt("g", seats[0], "pepper")),
        ("assign", lambda: runner.assign("g", seats[1], "b@x.test")),
        ("assign", lambda: runner.assign("g", seats[2], "c@x.test")),
        ("assign", lambda: runner.assign("g", seats[3], "d@x.test")),
        ("start", lambda: runner.start("g")),
        ("passwords", lambda: runner.issue_passwords("g")),
        ("options", lambda: runner.set_options("g", {"turn_hours": "24"})),
        ("deadline", lambda: runner.extend("g", timedelta(hours=5))),
        ("pause", lambda: runner.pause("g")),
        ("resume", lambda: runner.resume("g")),
        ("resolve", lambda: runner.resolve("g")),
        ("replace", lambda: runner.replace("g", seats[1], "b2@x.test")),
        ("resign", lambda: runner.resign("g", seats[2])),
        ("end", lambda: runner.end("g")),
    ]
    changed = []
    for name, step in steps:
        before, game_before, seats_before = game_rows(db, "g")
        step()
        after, game_after, seats_after = game_rows(db, "g")
        if (game_after, seats_after) != (game_before, seats_before):
            changed.append(name)
            assert after > before, f"{name} changed the game's rows without raising its version"
        assert rows_in_a_unit(runner) == rows_in_a_unit(GameService(db)), name  # kept as a fresh load has them
    assert changed == [name for name, _ in steps], " ".join(changed)  # every step wrote: none passes by changing nothing


def test_every_statement_on_a_game_or_its_seats_raises_its_version_whoever_runs_it(runner: GameService,
                                                                                   db: Database) -> None:
    playing(runner)
    game_id = game_rows(db, "g")[1]["id"]
    statements = [
        "UPDATE game SET turn_hours = turn_hours WHERE id = :id",  # even a write that changes nothing
        "UPDATE seat SET address = 'z@x.test' WHERE game_id = :id AND position = 0",
        "INSERT INTO seat (game_id, name, position, key_version, status, absence_reported, failed_logins, "
        "missed_deadlines, absence_used_hours, last_reported_turn) "
        "VALUES (:id, 'E', 4, 1, 'active', false, 0, 0, 0, 0)",
        "DELETE FROM seat WHERE game_id = :id AND name = 'E'",
    ]
    for statement in statements:
        before = version(db, "g")
        with db.engine.begin() as connection:  # another program: a statement of its own, no ORM
            connection.execute(text(statement), {"id": game_id})
        assert version(db, "g") == before + 1, statement


def test_a_game_read_once_is_not_loaded_again_while_its_version_stands(runner: GameService, db: Database) -> None:
    playing(runner)
    runner.info("g")
    with game_loads(db) as loads:
        info = runner.info("g")
        with runner.unit() as unit:
            assert unit.seat(unit.game("g"), info.seat_names[0]).name == info.seat_names[0]
    assert loads == []
    assert info.state is not None and info.phase is not None


def test_rows_built_from_the_cache_are_the_units_own_as_loaded_rows_are(runner: GameService, db: Database) -> None:
    """Rows a unit is given from the cache are persistent in its session, clean, found again by their identity,
    and a change to one is written when the unit commits (and raises the game's version)."""
    from sqlalchemy import inspect as orm_state

    from pbem.store.tables import GameRow, SeatRow

    playing(runner)
    runner.info("g")
    before = version(db, "g")
    with game_loads(db) as loads, runner.unit() as unit:
        row = unit.game("g")
        seats = unit.seats(row)
        for item in (row, *seats):
            state = orm_state(item)
            assert state.persistent and state.session is unit.session and not state.modified
        assert not unit.session.dirty and not unit.session.new
        assert unit.session.get(GameRow, row.id) is row
        assert unit.session.get(SeatRow, seats[1].id) is seats[1]
        seats[1].address = "new@x.test"
        assert list(unit.session.dirty) == [seats[1]]
    assert loads == []
    after, _, stored = game_rows(db, "g")
    assert [seat["address"] for seat in stored][1] == "new@x.test"
    assert after > before


def test_a_write_by_another_daemon_is_seen_by_the_next_unit(db_url: str, runner: GameService) -> None:
    playing(runner)
    seat = runner.info("g").seat_names[0]
    runner.info("g")  # kept
    other = open_database(db_url)  # another daemon on the same database, with a cache of its own
    try:
        GameService(other).replace("g", seat, "new@x.test")
        GameService(other).set_options("g", {"turn_hours": "7"})
    finally:
        other.close()
    info = runner.info("g")
    assert info.seats[0].address == "new@x.test"
    assert info.row.turn_hours == 7


def test_a_statement_of_another_program_is_seen_by_the_next_unit(runner: GameService, db: Database) -> None:
    playing(runner)
    runner.info("g")
    with db.engine.begin() as connection:
        connection.execute(text("UPDATE seat SET address = 'raw@x.test' WHERE position = 1"))
    assert runner.info("g").seats[1].address == "raw@x.test"


class Rollback(Exception):
    pass


def test_a_unit_that_rolls_back_leaves_nothing_in_the_cache(runner: GameService, db: Database) -> None:
    playing(runner)
    runner.info("g")
    with pytest.raises(Rollback), runner.unit() as unit:
        row = unit.game("g")
        row.turn_hours = 1.0
        unit.seat(row, unit.seats(row)[0].name).address = "rolled@x.test"
        unit.session.flush()  # written in the transaction, which rolls back
        raise Rollback
    info = runner.info("g")
    assert info.row.turn_hours == 48.0 and info.seats[0].address != "rolled@x.test"


def test_a_unit_that_rolls_back_after_loading_a_game_keeps_nothing_it_loaded(runner: GameService,
                                                                              db: Database) -> None:
    playing(runner)
    fresh = GameService(db)  # nothing kept yet
    with pytest.raises(Rollback), fresh.unit() as unit:
        unit.game("g")
        raise Rollback
    with game_loads(db) as loads:
        fresh.info("g")
    assert loads  # loaded again: the unit that rolled back kept nothing
    with game_loads(db) as loads:
        fresh.info("g")
    assert loads == []  # the committed one did


def test_a_games_kind_is_kept_by_name_only_once_the_unit_that_read_it_committed(runner: GameService,
                                                                                  db: Database) -> None:
    with pytest.raises(Rollback), runner.unit() as unit:
        from pbem.service import creation

        creation.create_game(unit, KIND, "g", players=4)
        assert unit.kind_of("G") == KIND  # its own uncommitted game
        raise Rollback
    with runner.unit() as unit:
        assert unit.kind_of("g") is None  # nothing was kept of the game that was never there
    runner.create_game("fungus", "g", players=2)
    with runner.unit() as unit:
        assert unit.kind_of("g") == "fungus"
    with game_loads(db, ("SELECT game.kind",)) as loads, runner.unit() as unit:
        assert unit.kind_of(" G ") == "fungus"
    assert loads == []


def test_a_games_kind_is_known_by_name_once_its_rows_are_kept(runner: GameService, db: Database) -> None:
    """The unit that created the game kept its rows: the first mail to it asks nothing of its kind."""
    playing(runner)
    with game_loads(db, ("SELECT game.kind",)) as loads, runner.unit() as unit:
        assert unit.kind_of("G") == KIND
    assert loads == []


def test_a_unit_whose_bulk_writes_expired_a_games_rows_commits_and_the_next_unit_reads_them_afresh(
        runner: GameService, db: Database) -> None:
    """FORGET rewrites a seat's address by bulk statements, which leave the unit's rows of the game expired: the
    unit commits (it keeps no half-read rows), and the next unit has the new rows."""
    from pbem.service import privacy

    playing(runner)
    rows_in_a_unit(runner)  # the game is in the cache
    with runner.unit() as unit:
        unit.game("g")
        forgotten = privacy.forget(unit, "a@x.test")
    assert forgotten.resigned
    seats = rows_in_a_unit(runner)[1:]
    assert "a@x.test" not in {seat["address"] for seat in seats}
    assert seats == [{key: value for key, value in seat.items() if key != "version"} for seat in game_rows(db, "g")[2]]
