"""The edges of the campaign toolkit on a real database with a controlled clock: absences and their
cap, standby offers that nobody takes, handovers, rollbacks refused and allowed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from stopped_clock import START, StoppedClock

from pbem.core import GameError, InvalidInput, UnknownGame, UnknownSeat
from pbem.service import absences, rewind, standby, status
from pbem.service.api import GameService
from pbem.store import Database


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def setup(db: Database, players: int = 2, **options: str) -> tuple[GameService, StoppedClock]:
    clock = StoppedClock()
    runner = GameService(db, clock=clock)
    seats = {str(n): f"p{n}@x.org" for n in range(1, players + 1)}
    runner.create_game("tiny", "g", seats=seats, seed=2, options={"turn_hours": "24", "target": "99", **options})
    return runner, clock


def on_move(runner: GameService) -> str:
    phase = runner.info("g").phase
    assert phase is not None
    return phase.seats[0]


def pass_deadline(runner: GameService, clock: StoppedClock) -> None:
    deadline = runner.info("g").row.deadline
    assert deadline is not None
    clock.now = deadline
    runner.resolve("g", reason="deadline")


def offers(runner: GameService) -> list[tuple[str, str, str]]:
    """Every seat offer of the game: (seat, address, status)."""
    from sqlmodel import select

    from pbem.store.tables import SeatOfferRow

    with runner.unit() as unit:
        found = unit.session.exec(select(SeatOfferRow).where(SeatOfferRow.game_id == unit.game("g").id)
                                  .order_by(SeatOfferRow.id))  # type: ignore[arg-type]
        return [(o.seat, o.address, o.status) for o in found]


def on_standby(runner: GameService, *addresses: str) -> None:
    with runner.unit() as unit:
        for address in addresses:
            standby.join_list(unit, address, "tiny")


# --- standby -------------------------------------------------------------------------


def test_an_offer_nobody_takes_goes_to_the_next_standby_at_the_next_missed_deadline(
        tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, replace_after="0")
    on_standby(runner, "first@x.org", "second@x.org")
    quitter = on_move(runner)
    runner.resign("g", quitter)
    assert offers(runner) == [(quitter, "first@x.org", "open")]
    pass_deadline(runner, clock)  # the resigned seat misses its deadline; the first standby said nothing
    assert offers(runner) == [(quitter, "first@x.org", "withdrawn"), (quitter, "second@x.org", "open")]
    with runner.unit() as unit, pytest.raises(GameError, match="no open seat offers"):
        standby.accept(unit, "first@x.org", "g")
    with runner.unit() as unit:
        assert standby.accept(unit, "second@x.org", None).seat == quitter
    assert [e.text for e in runner.log("g") if e.action == "OFFER"] == [
        f"seat {quitter} offered to standby first@x.org (its player resigned)",
        f"offer of seat {quitter} to standby first@x.org withdrawn: not accepted before the seat's next deadline",
        f"seat {quitter} offered to standby second@x.org (the standby offered it before did not accept)"]


def test_a_standby_holds_at_most_one_open_offer_in_a_game(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, players=3, replace_after="1")
    on_standby(runner, "first@x.org", "second@x.org")
    silent = []
    for _ in range(2):
        silent.append(on_move(runner))
        pass_deadline(runner, clock)
    assert offers(runner) == [(silent[0], "first@x.org", "open"), (silent[1], "second@x.org", "open")]
    with runner.unit() as unit:  # ACCEPT, with or without the game, finds the one offer
        assert standby.accept(unit, "first@x.org", None).seat == silent[0]


def test_a_standby_the_gm_seats_elsewhere_in_the_game_loses_its_open_offer(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, players=3, replace_after="1")
    on_standby(runner, "first@x.org")
    silent = on_move(runner)
    pass_deadline(runner, clock)
    assert offers(runner) == [(silent, "first@x.org", "open")]
    other = next(s for s in "123" if s != silent)
    runner.replace("g", other, "first@x.org")  # the GM gives the standby another seat by hand
    assert offers(runner) == [(silent, "first@x.org", "withdrawn")]
    with runner.unit() as unit, pytest.raises(GameError, match="no open seat offers"):
        standby.accept(unit, "first@x.org", "g")  # no second seat in the same game
    assert [s.address for s in runner.info("g").seats].count("first@x.org") == 1


def test_a_seat_handed_to_a_standby_starts_with_a_clean_record(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, replace="auto", absence_days="3")
    on_standby(runner, "sub@x.org", "next@x.org")
    silent = on_move(runner)
    with runner.unit() as unit:  # the old holder is away after the first deadline, uses no allowance yet
        absences.announce(unit, "g", silent, START + timedelta(days=5), START + timedelta(days=30))
    for _ in range(3):  # silent, the other seat (which plays), silent again: two missed deadlines in a row
        if on_move(runner) != silent:
            runner.submit("g", on_move(runner), "ADD 1")
        pass_deadline(runner, clock)
    assert offers(runner) == [(silent, "sub@x.org", "open")]
    with runner.unit() as unit:
        assert standby.accept(unit, "sub@x.org", "g").status == "taken"
    seat = runner.info("g").seats[int(silent) - 1]
    assert seat.address == "sub@x.org" and seat.missed_deadlines == 0 and seat.absence_used_hours == 0
    with runner.unit() as unit:  # the old holder's absence is no absence of the new one
        assert absences.absences_of(unit, unit.game("g"), current=True) == []
    runner.submit("g", on_move(runner), "ADD 1")  # the other seat plays
    pass_deadline(runner, clock)
    pass_deadline(runner, clock)  # the new holder misses one deadline: no new offer (replace_after=2)
    assert offers(runner) == [(silent, "sub@x.org", "taken")]


def test_standby_refusals_and_who_is_skipped(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, replace_after="0")
    with runner.unit() as unit:
        with pytest.raises(UnknownGame, match="no game kind 'chess'"):
            standby.join_list(unit, "sub@x.org", "chess")
        with pytest.raises(GameError, match="no open seat offers"):
            standby.accept(unit, "nobody@x.org", None)
        standby.join_list(unit, "P1@x.org", "tiny")  # holds seat 1 already: never offered a seat of g
        standby.join_list(unit, "off@x.org", "tiny")
        assert standby.leave_lists(unit, "OFF@x.org") == ["tiny"]
        assert standby.leave_lists(unit, "off@x.org") == []
    for _ in range(3):  # replace_after=0: missed deadlines bring no offer
        pass_deadline(runner, clock)
    assert offers(runner) == []
    runner.resign("g", "2")
    assert offers(runner) == []  # the only standby left holds seat 1
    on_standby(runner, "late@x.org")
    pass_deadline(runner, clock)
    pass_deadline(runner, clock)  # the resigned seat misses a deadline: offered to a standby who came later
    assert offers(runner) == [("2", "late@x.org", "open")]


def test_standby_off_declines_an_open_offer(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, replace_after="0")
    on_standby(runner, "first@x.org", "second@x.org")
    quitter = on_move(runner)
    runner.resign("g", quitter)
    with runner.unit() as unit:
        standby.leave_lists(unit, "first@x.org")
    assert offers(runner) == [(quitter, "first@x.org", "withdrawn")]
    with runner.unit() as unit, pytest.raises(GameError, match="no open seat offers"):
        standby.accept(unit, "first@x.org", "g")
    pass_deadline(runner, clock)
    assert offers(runner) == [(quitter, "first@x.org", "withdrawn"), (quitter, "second@x.org", "open")]


# --- absences ------------------------------------------------------------------------


def test_absences_refused_when_over_backwards_or_too_far(tiny_game: str, db: Database) -> None:
    runner, _ = setup(db)
    with runner.unit() as unit:
        for starts, ends, why in [(day("2026-10-01"), day("2026-10-03"), "is over"),
                                  (day("2026-11-05"), day("2026-11-04"), "ends before it starts"),
                                  (day("2026-11-05"), day("2027-12-01"), "at most a year long"),
                                  (day("2099-01-01"), day("2099-01-02"), "at most a year ahead")]:
            with pytest.raises(InvalidInput, match=why):
                absences.announce(unit, "g", "1", starts, ends)
        with pytest.raises(UnknownSeat):
            absences.announce(unit, "g", "9", day("2026-11-05"), day("2026-11-06"))


def test_the_absence_allowance_caps_every_extension_of_a_seat_in_a_game(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, absence_days="3")
    mover = on_move(runner)
    deadline = runner.info("g").row.deadline
    assert deadline == day("2026-11-02 12:00")
    with runner.unit() as unit:  # two overlapping absences: 1 Nov to 4 Nov, then to 10 Nov
        absences.announce(unit, "g", mover, day("2026-11-01"), day("2026-11-04"))
        absences.announce(unit, "g", mover, day("2026-11-03"), day("2026-11-10"))
    assert runner.info("g").row.deadline == deadline + timedelta(days=3)  # the cap, not 10 Nov + a day
    pass_deadline(runner, clock)
    pass_deadline(runner, clock)  # the mover's next turn falls in the absence again: nothing left
    assert runner.info("g").seats[int(mover) - 1].absence_used_hours == 72
    with runner.unit() as unit:
        absences.announce(unit, "g", mover, day("2026-11-20"), day("2026-11-25"))
    assert sum(e.action == "EXTEND" for e in runner.log("g")) == 2  # one for each announcement


def test_no_extension_when_absence_days_is_zero_or_the_seat_owes_nothing(tiny_game: str, db: Database) -> None:
    runner, _ = setup(db, absence_days="0")
    mover = on_move(runner)
    waiting = "1" if mover == "2" else "2"
    deadline = runner.info("g").row.deadline
    with runner.unit() as unit:
        absences.announce(unit, "g", mover, day("2026-11-01"), day("2026-11-05"))
        absences.announce(unit, "g", waiting, day("2026-11-01"), day("2026-11-05"))
        assert unit.news == []
    assert runner.info("g").row.deadline == deadline
    runner.set_options("g", {"absence_days": "14"})
    with runner.unit() as unit:  # the waiting seat owes nothing this turn: the mover's absence moves it
        absences.announce(unit, "g", waiting, day("2026-11-01"), day("2026-11-08"))
    assert runner.info("g").row.deadline == day("2026-11-06")
    with runner.unit() as unit:
        assert len(status.status_view(unit, "g").absences or []) == 3


def test_back_ends_absences_and_the_moved_deadline_stays(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db)
    mover = on_move(runner)
    with runner.unit() as unit:
        absences.announce(unit, "g", mover, day("2026-11-01"), day("2026-11-04"))
    moved = runner.info("g").row.deadline
    assert moved == day("2026-11-05")
    clock.now = day("2026-11-02 09:00")
    with runner.unit() as unit:
        assert absences.back(unit, "g", mover) == 1
        assert absences.back(unit, "g", mover) == 0
        assert status.status_view(unit, "g").absences == []
    assert runner.info("g").row.deadline == moved
    assert [e.action for e in runner.log("g")][-1] == "BACK"


def test_an_absence_extension_is_the_service_s_decision_in_the_log(tiny_game: str, db: Database) -> None:
    runner, _ = setup(db)
    mover = on_move(runner)
    runner.actor = f"seat {mover} p{mover}@x.org"
    with runner.unit() as unit:
        absences.announce(unit, "g", mover, day("2026-11-01"), day("2026-11-04"))
    logged = {e.action: e.actor for e in runner.log("g")}
    assert logged["ABSENT"] == f"seat {mover} p{mover}@x.org" and logged["EXTEND"] == "service"


# --- rollback -------------------------------------------------------------------------


def test_rollback_codes_are_single_and_expire_after_a_day(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db)
    for _ in range(3):
        runner.submit("g", on_move(runner), "ADD 3")
        runner.resolve("g")
    with runner.unit() as unit:
        for turn in (0, 4, 9):
            with pytest.raises(InvalidInput, match="not a resolved turn"):
                rewind.request_rollback(unit, "g", turn)
        first = rewind.request_rollback(unit, "g", 1)
        second = rewind.request_rollback(unit, "g", 2)
    with runner.unit() as unit:  # a newer request voids the older code
        with pytest.raises(InvalidInput, match="wrong or expired"):
            rewind.confirm_rollback(unit, "g", 1, first)
        with pytest.raises(InvalidInput, match="wrong or expired"):
            rewind.confirm_rollback(unit, "g", 2, "00000000")
    clock.now += rewind.CODE_VALID + timedelta(seconds=1)
    with runner.unit() as unit, pytest.raises(InvalidInput, match="wrong or expired"):
        rewind.confirm_rollback(unit, "g", 2, second)
    assert runner.info("g").row.turn == 4


def test_rollback_to_turn_one_is_the_game_as_set_up(tiny_game: str, db: Database) -> None:
    runner, _ = setup(db)
    set_up = runner.info("g").row.state
    for _ in range(2):
        runner.submit("g", on_move(runner), "ADD 2")
        runner.resolve("g")
    first_draws = [list(d) for r in runner.history("g") for d in r.draws]
    with runner.unit() as unit:
        code = rewind.request_rollback(unit, "g", 1)
    with runner.unit() as unit:
        done = rewind.confirm_rollback(unit, "g", 1, code)
    assert done.turn == 1 and done.undone == 2 and sum(len(kept) for kept in done.orders.values()) == 2
    info = runner.info("g")
    assert info.row.turn == 1 and info.row.state == set_up and runner.history("g") == []
    assert runner.current_orders("g", "1") is None and runner.current_orders("g", "2") is None
    assert runner.replay("g").mismatches == []
    with runner.unit() as unit, pytest.raises(InvalidInput, match="not a resolved turn"):
        rewind.confirm_rollback(unit, "g", 1, code)  # a code works once
    for _ in range(2):
        runner.submit("g", on_move(runner), "ADD 2")
        runner.resolve("g")
    assert [list(d) for r in runner.history("g") for d in r.draws] == first_draws
    assert runner.replay("g").mismatches == []


def test_rollback_refused_for_a_turn_that_played_itself_and_a_finished_game(db: Database) -> None:
    runner = GameService(db)
    runner.create_game("golden-egg", "g", seats={s: f"p{s}@x.org" for s in ("1", "2", "3")}, seed=1)
    for _ in range(2):  # the third turn and the two after it play themselves
        runner.resolve("g")
    reasons = {r.turn: r.reason for r in runner.history("g")}
    assert reasons[3] == "forced" and runner.info("g").row.status == "active"
    with runner.unit() as unit:
        with pytest.raises(InvalidInput, match="played itself"):
            rewind.request_rollback(unit, "g", 3)
        rewind.request_rollback(unit, "g", 2)
    runner.end("g")
    with runner.unit() as unit, pytest.raises(GameError, match="finished"):
        rewind.request_rollback(unit, "g", 2)


def test_missed_deadlines_count_only_in_a_row_when_turns_resolve_early(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, replace_after="2")
    on_standby(runner, "sub@x.org")
    late = on_move(runner)
    pass_deadline(runner, clock)  # one missed deadline
    for _ in range(3):  # then the other seat, the late one and the other again play in time (early)
        runner.submit("g", on_move(runner), "ADD 1")
        runner.resolve("g", reason="all-in")
    assert on_move(runner) == late
    pass_deadline(runner, clock)  # a second missed deadline, but not in a row
    assert offers(runner) == []
    assert runner.info("g").seats[int(late) - 1].missed_deadlines == 1


def test_an_open_offer_is_withdrawn_when_the_player_is_back_in_time(tiny_game: str, db: Database) -> None:
    runner, clock = setup(db, replace_after="1", replace="auto")
    on_standby(runner, "sub@x.org")
    late = on_move(runner)
    pass_deadline(runner, clock)
    assert offers(runner) == [(late, "sub@x.org", "open")]
    runner.submit("g", on_move(runner), "ADD 1")
    runner.resolve("g", reason="all-in")
    runner.submit("g", late, "ADD 1")  # the player is back before the standby answered
    runner.resolve("g", reason="all-in")
    assert offers(runner) == [(late, "sub@x.org", "withdrawn")]
    with runner.unit() as unit, pytest.raises(GameError, match="no open seat offers"):
        standby.accept(unit, "sub@x.org", "g")
    assert runner.info("g").seats[int(late) - 1].address == f"p{late}@x.org"
