"""The turn runner on a real SQLite file, with the test-only sequential game ``tiny``."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from pbem.core import GameError, InvalidInput, StaleTurn, UnknownGame, UnknownSeat
from pbem.core.rng import derive_seed
from pbem.service.api import GameService
from pbem.service.options import BadOption
from pbem.store.tables import TurnRecordRow


def new_tiny(runner: GameService, **options: str) -> str:
    runner.create_game("tiny", "t1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3, options=options)
    return "t1"


def owing(runner: GameService, name: str) -> str:
    phase = runner.info(name).phase
    assert phase is not None
    return phase.seats[0]


def test_accepted_orders_are_stored_as_a_new_version(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner)
    seat = owing(runner, name)
    first = runner.submit(name, seat, "ADD 2\n")
    second = runner.submit(name, seat, "add 3  # more\n")
    assert (first.version, second.version) == (1, 2)
    assert second.replaced_previous and "replace your previous ones" in second.render()
    stored = runner.current_orders(name, seat)
    assert stored is not None and stored.orders == ["ADD 3"] and stored.text == "add 3  # more\n"


def test_refused_line_is_reported_with_its_reason_and_not_stored(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner, target="4")
    seat = owing(runner, name)
    runner.submit(name, seat, "ADD 1")
    runner.resolve(name)
    seat = owing(runner, name)
    result = runner.submit(name, seat, "ADD 2\n")
    assert result.is_clean
    runner.resolve(name)  # total 3 of 4: the only legal play is forced
    info = runner.info(name)
    assert info.outcome is not None and info.row.status == "finished"
    assert [r.reason for r in runner.history(name)] == ["gm", "gm", "forced"]


def test_syntax_error_gives_line_column_and_expected_words(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner)
    result = runner.submit(name, owing(runner, name), "\n# plan\nADD x\n")
    [line] = result.lines
    assert line.number == 3 and line.problem is not None
    assert line.problem.column == 5
    assert "expected a number from 1 to 3" in line.problem.message
    # With its one line refused the submission is empty, which this game refuses as a whole.
    assert result.general == ["a turn is exactly one ADD"] and result.version is None
    rendered = result.render()
    assert "REFUSED (line 3, column 5)" in rendered and "\n" + " " * 9 + "^" in rendered
    # No line shows it, so the one verdict of the whole submission names it.
    assert "0 line(s) accepted, 1 refused. The orders as a whole: a turn is exactly one ADD." in rendered


def test_orders_from_a_seat_not_on_move_are_refused(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner)
    other = "2" if owing(runner, name) == "1" else "1"
    result = runner.submit(name, other, "ADD 1")
    assert result.general and "not your turn" in result.general[0]
    assert runner.current_orders(name, other) is None


def test_stale_turn_is_refused(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner)
    runner.resolve(name)
    with pytest.raises(StaleTurn, match="stale"):
        runner.submit(name, owing(runner, name), "ADD 1", turn=1)


def test_nmr_default_applies_to_seats_without_orders(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner)
    seat = owing(runner, name)
    resolution = runner.resolve(name)
    record = resolution.turns[0].record
    assert record.nmr == [seat] and record.orders == {seat: ["ADD 1"]}


def test_a_turn_is_never_recorded_twice(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner)
    runner.resolve(name)
    with pytest.raises(GameError, match="resolved already"):
        runner.resolve(name, expected_turn=1)
    record = runner.history(name)[0]
    with pytest.raises(IntegrityError), runner.db.session() as session:
        session.add(TurnRecordRow(**{**record.model_dump(), "id": None}))
        session.flush()


def test_replay_reproduces_every_state_and_detects_tampering(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner, target="12")
    while runner.info(name).outcome is None:
        runner.resolve(name)
    assert runner.replay(name).is_identical
    with runner.db.session() as session:
        record = session.get(TurnRecordRow, runner.history(name)[1].id)
        assert record is not None
        record.state = {**record.state, "total": 99}
        session.add(record)
    result = runner.replay(name)
    assert not result.is_identical and "turn 2" in result.mismatches[0]


def test_unknown_names_raise_specific_errors(tiny_game: str, runner: GameService) -> None:
    with pytest.raises(UnknownGame):
        runner.info("nope")
    with pytest.raises(UnknownGame, match="kinds are"):
        runner.create_game("chess", "c1", seats={"1": "a@x"})
    name = new_tiny(runner)
    with pytest.raises(UnknownSeat, match="seats are 1, 2"):
        runner.submit(name, "9", "ADD 1")
    with pytest.raises(BadOption, match="unknown option 'colour' for tiny"):
        runner.create_game("tiny", "t2", seats={"1": "a@x", "2": "b@x"}, options={"colour": "red"})
    with pytest.raises(GameError, match="exists already"):
        new_tiny(runner)


def test_forming_game_starts_when_every_seat_is_taken(tiny_game: str, runner: GameService) -> None:
    info = runner.create_game("tiny", "open", players=2, seed=1)
    assert info.row.status == "forming"
    with pytest.raises(GameError, match="still open"):
        runner.start("open")
    assert runner.state_json("open") == {"game": "open", "kind": "tiny", "turn": 1, "status": "forming",
                                         "seats": {"1": False, "2": False}}


def test_deadline_streak_counts_only_deadline_resolutions_with_everyone_nmr(tiny_game: str, runner: GameService) -> None:
    name = new_tiny(runner, target="30")
    runner.resolve(name, reason="deadline")
    runner.resolve(name, reason="deadline")
    assert runner.info(name).row.nmr_streak == 2
    runner.resolve(name, reason="gm")
    assert runner.info(name).row.nmr_streak == 0


def test_a_seed_the_database_cannot_hold_is_refused(tiny_game: str, runner: GameService) -> None:
    for seed in (-1, 2**63):
        with pytest.raises(InvalidInput, match="give a whole number from 0 to"):
            runner.create_game("tiny", "g", seats={"1": "a@example.org", "2": "b@example.org"}, seed=seed)
    row = runner.create_game("tiny", "g", seats={"1": "a@example.org", "2": "b@example.org"}, seed=2**63 - 1).row
    assert row.secret == str(2**63 - 1)  # a given seed is the committed secret; the seed is derived from it
    assert row.seed == derive_seed(str(2**63 - 1)) < 2**63
