"""The service layer's own promises: one unit of work per call, stored statuses, input errors,
and the one place that decides who owes orders."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import pytest
from databases import query

from pbem.core import GameError, InvalidInput, StaleTurn, UnknownGame, UnknownSeat
from pbem.core import GameRng
from pbem.games import find_game
from pbem.service import control, due, owing, resolution, rewind, submissions
from pbem.service.api import GameService
from pbem.service.options import BadOption
from pbem.store import Database
from pbem.store.tables import GameStatus, SeatStatus

SEATS = {"1": "a@example.org", "2": "b@example.org"}


def test_statuses_are_enums_stored_as_their_values(tiny_game: str, runner: GameService, db_url: str) -> None:
    forming = runner.create_game("tiny", "f", players=2, seed=1)
    running = runner.create_game("tiny", "r", seats=SEATS, seed=1)
    runner.resign("r", "2")
    assert forming.row.status is GameStatus.FORMING and running.row.status is GameStatus.ACTIVE
    assert runner.info("r").row.status is GameStatus.ACTIVE
    assert runner.info("r").seats[1].status is SeatStatus.RESIGNED
    assert query(db_url, "SELECT name, status FROM game ORDER BY name") == [("f", "forming"), ("r", "active")]
    assert query(db_url, "SELECT status FROM seat WHERE name = '2' AND game_id = "
                         "(SELECT id FROM game WHERE name = 'r')") == [("resigned",)]


@pytest.mark.parametrize(("call", "error", "quoted"), [
    (lambda s: s.create_game("tiny", "no way", seats=SEATS), InvalidInput, "'no way'"),
    (lambda s: s.create_game("tiny", "g2", seats=SEATS, seed=-4), InvalidInput, "seed -4"),
    (lambda s: s.create_game("tiny", "g2", seats=SEATS, options={"speed": "9"}), BadOption, "'speed'"),
    (lambda s: s.create_game("tiny", "g2", seats={"1": "a@example.org", "2": "nobody"}), InvalidInput, "'nobody'"),
    (lambda s: s.create_game("chess", "g2", seats=SEATS), UnknownGame, "'chess'"),
    (lambda s: s.info("nope"), UnknownGame, "'nope'"),
    (lambda s: s.submit("g", "7", "ADD 1"), UnknownSeat, "'7'"),
    (lambda s: s.submit("g", "1", "ADD 1", turn=5), StaleTurn, "turn 5 of g"),
    (lambda s: s.set_options("g", {"turn_hours": "soon"}), BadOption, "'soon'"),
    (lambda s: s.extend("g", timedelta(hours=-1)), InvalidInput, "-1 day"),
])
def test_input_errors_are_value_errors_that_quote_the_input(tiny_game: str, runner: GameService, call: object,
                                                             error: type[Exception], quoted: str) -> None:
    runner.create_game("tiny", "g", seats=SEATS, seed=1)
    with pytest.raises(error) as caught:
        call(runner)  # type: ignore[operator]
    assert isinstance(caught.value, ValueError) and quoted in str(caught.value)


def test_a_unit_of_work_commits_everything_or_nothing(tiny_game: str, runner: GameService) -> None:
    runner.create_game("tiny", "g", seats=SEATS, seed=1)
    seat = owing.owing_seats(runner.info("g"))[0]
    with pytest.raises(GameError), runner.unit() as unit:
        assert submissions.submit(unit, "g", seat, "ADD 1").version == 1
        assert submissions.current_orders(unit, "g", seat) is not None  # seen inside the unit
        raise GameError("something later in the same mail failed")
    assert runner.current_orders("g", seat) is None
    with runner.unit() as unit:
        assert unit.game("G") is unit.game("g")  # loaded once per unit, whatever the case
        submissions.submit(unit, "g", seat, "ADD 1")
    assert runner.current_orders("g", seat) is not None


def test_a_unit_reads_a_games_state_once_and_again_whenever_it_changes(tiny_game: str,
                                                                       runner: GameService) -> None:
    runner.create_game("tiny", "g", seats=SEATS, seed=1)
    with runner.unit() as unit:
        before = unit.info("g")
        assert unit.info("g").state is before.state  # read once while the row holds that state
        resolution.resolve(unit, "g")  # NMR default: ADD 1
        after = unit.info("g")
        assert after.row.turn == 2 and after.state.total == before.state.total + 1
        assert after.phase is not None and after.phase.seats != before.phase.seats
        control.end(unit, "g")
        ended = unit.info("g")
        assert ended.row.status is GameStatus.FINISHED and ended.outcome is not None and ended.phase is None
    assert runner.info("g").state == ended.state


def test_a_games_state_kept_between_units_is_read_again_once_another_service_changed_it(
        tiny_game: str, runner: GameService, db: Database) -> None:
    runner.create_game("tiny", "g", seats=SEATS, seed=1)
    first = runner.info("g")
    assert runner.info("g").state is first.state  # kept from one unit to the next while the row is unchanged
    other = GameService(db)  # another daemon on the same database, with states of its own
    other.resolve("g")
    resolved = runner.info("g")
    assert resolved.row.turn == 2 and resolved.state.total == first.state.total + 1
    assert resolved.state == other.info("g").state
    other.end("g")
    ended = runner.info("g")
    assert ended.row.status is GameStatus.FINISHED and ended.outcome is not None and ended.phase is None
    assert ended.state == resolved.state and ended.state is not resolved.state  # read again for its new status


def test_a_deadline_game_is_due_once_the_newest_orders_of_every_owing_seat_say_ready(runner: GameService) -> None:
    seats = {seat: f"{seat.lower()}@example.org" for seat in ("A", "B", "C", "D")}
    info = runner.create_game("turkey-chase", "g", seats=seats, options={"resolve": "deadline"}, seed=1)
    owing_now = owing.owing_seats(info)
    *earlier, last = owing_now
    for seat in earlier:
        runner.withdraw("g", seat, ready=True)  # READY in earlier mails: known from the database
    with runner.unit() as unit:
        submissions.withdraw(unit, "g", last)  # NOORDERS: not READY
        assert due.due_reason(unit, unit.info("g"), unit.now()) is None
        submissions.withdraw(unit, "g", last, ready=True)
        assert due.due_reason(unit, unit.info("g"), unit.now()) == due.ALL_READY
    with runner.unit() as unit:
        assert due.due_reason(unit, unit.info("g"), unit.now()) == due.ALL_READY
        orders = find_game("turkey-chase").sample_orders(info.state, earlier[0], GameRng(1))
        assert submissions.submit(unit, "g", earlier[0], "\n".join(map(str, orders))).version is not None
        assert due.due_reason(unit, unit.info("g"), unit.now()) is None  # new orders are not READY


def test_ready_from_turns_rolled_back_does_not_count(runner: GameService) -> None:
    seats = {seat: f"{seat.lower()}@example.org" for seat in ("A", "B", "C", "D")}
    runner.create_game("turkey-chase", "g", seats=seats, options={"resolve": "deadline"}, seed=1)
    for _turn in (1, 2):
        for seat in owing.owing_seats(runner.info("g")):
            runner.withdraw("g", seat, ready=True)
        with runner.unit() as unit:
            assert due.due_reason(unit, unit.info("g"), unit.now()) == due.ALL_READY
            resolution.resolve(unit, "g")
    with runner.unit() as unit:
        code = rewind.request_rollback(unit, "g", 2)
        rewind.confirm_rollback(unit, "g", 2, code)
    with runner.unit() as unit:
        assert unit.game("g").turn == 2
        assert due.due_reason(unit, unit.info("g"), unit.now()) is None  # the READY of the undone turn 2 is gone


def test_all_in_is_the_newest_of_the_owing_seats_orders() -> None:
    early, late = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC)
    assert owing.all_in_since(("A", "B"), {"A": early, "B": late, "C": late + timedelta(days=1)}) == late
    assert owing.all_in_since(("A", "B"), {"A": early}) is None
    assert owing.all_in_since((), {"A": early}) is None


def test_who_owes_orders_is_the_phase_and_the_others_are_told_to_wait(tiny_game: str, runner: GameService) -> None:
    info = runner.create_game("tiny", "g", seats=SEATS, seed=1)
    [mover] = owing.owing_seats(info)
    other = next(seat for seat in info.seat_names if seat != mover)
    assert owing.not_your_turn(info, mover) is None
    assert owing.not_your_turn(info, other) == f"it is not your turn: waiting for seat {mover}"
    assert runner.missing_seats("g") == [mover]
    refused = runner.submit("g", other, "ADD 1")
    assert refused.general == [f"it is not your turn: waiting for seat {mover}"] and refused.version is None
    text = refused.render()
    assert f"REFUSED (line 1): it is not your turn: waiting for seat {mover}" in text and "  ok" not in text, text
    assert "0 line(s) accepted, 1 refused." in text and "Nothing was stored: you owe no orders now." in text
    assert "Send corrected orders" not in text and not refused.asks_for_orders
    with pytest.raises(GameError, match=f"waiting for seat {mover}"):
        runner.withdraw("g", other)
    runner.withdraw("g", mover, ready=True)
    assert runner.missing_seats("g") == []


def test_orders_refused_as_a_whole_store_nothing_and_say_which_orders_stand(tiny_game: str,
                                                                             runner: GameService) -> None:
    info = runner.create_game("tiny", "g", seats=SEATS, seed=1)
    [mover] = owing.owing_seats(info)
    assert runner.submit("g", mover, "ADD 2").version == 1
    refused = runner.submit("g", mover, "ADD 1\nADD 1")
    assert refused.general == ["a turn is exactly one ADD"] and refused.version is None and refused.standing == 1
    text = refused.render()
    assert text.count("REFUSED (line") == 2 and "a turn is exactly one ADD" in text and "  ok" not in text
    assert "0 line(s) accepted, 2 refused." in text and "REFUSED: a turn" not in text
    assert "nothing was stored: your orders v1 stand" in text and "2 line(s) accepted" not in text
    assert [str(order) for order in runner.current_orders("g", mover).orders] == ["ADD 2"]


def test_the_position_cache_keeps_the_games_played_and_drops_a_game_once_it_ended(tiny_game: str,
                                                                                  runner: GameService) -> None:
    runner.create_game("tiny", "g", seats=SEATS, seed=1)
    runner.create_game("tiny", "h", seats=SEATS, seed=2)
    ids = {name: runner.info(name).row.id for name in ("g", "h")}
    assert set(runner.positions._entries) == set(ids.values())
    runner.end("g")
    assert runner.info("g").outcome is not None  # read afresh, and not kept
    assert set(runner.positions._entries) == {ids["h"]}
