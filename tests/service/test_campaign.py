"""GM and seat operations on a real database."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.core import GameError, InvalidInput
from pbem.passwords import hash_password
from pbem.service import access
from pbem.service.access import NotAuthorised
from pbem.service.api import GameService


def test_join_fills_open_seats_and_start_needs_all_of_them(tiny_game: str, runner: GameService) -> None:
    runner.create_game("tiny", "open", players=2, seed=1)
    first = runner.join("open", "a@example.org")
    assert first.seat == "1" and len(first.password) == 10
    with pytest.raises(GameError, match="already"):
        runner.join("open", "a@example.org")
    with pytest.raises(GameError, match="still open"):
        runner.start("open")
    runner.join("open", "b@example.org", seat="2")
    assert runner.start("open").row.status == "active"
    assert runner.seat_for_signon("open", "1", first.password).name == "1"
    with pytest.raises(NotAuthorised):
        runner.seat_for_signon("open", "1", "guess")
    with pytest.raises(GameError, match="not open"):
        runner.join("open", "c@example.org")


def test_replace_bumps_key_version_and_voids_old_password(tiny_game: str, runner: GameService) -> None:
    runner.create_game("tiny", "g", seats={"1": "a@example.org", "2": "b@example.org"}, seed=1)
    old = runner.issue_passwords("g")
    assert set(old) == {"1", "2"} and runner.issue_passwords("g") == {}
    new = runner.replace("g", "2", "carol@example.org")
    seat = runner.seat_of_address("g", "carol@example.org")
    assert seat is not None and seat.key_version == 2 and runner.seat_of_address("g", "b@example.org") is None
    with pytest.raises(NotAuthorised):
        runner.seat_for_signon("g", "2", old["2"])
    assert runner.seat_for_signon("g", "2", new.password).name == "2"


def test_a_right_password_from_another_address_counts_as_a_wrong_one(tiny_game: str, runner: GameService) -> None:
    runner.create_game("tiny", "g", seats={"1": "a@example.org", "2": "b@example.org"}, seed=1)
    password = runner.issue_passwords("g")["1"]
    with runner.unit() as unit:  # as a mail is handled: the count is kept with the refusal
        with pytest.raises(NotAuthorised) as caught:
            access.seat_for_signon(unit, "g", "1", password, sender="eve@example.org")
        assert caught.value.right_password
        with pytest.raises(NotAuthorised) as caught:
            access.seat_for_signon(unit, "g", "1", "guess", sender="eve@example.org")
        assert not caught.value.right_password
    assert runner.info("g").seats[0].failed_logins == 2
    assert runner.seat_for_signon("g", "1", password, sender="A@Example.org").failed_logins == 0


def test_extend_pause_and_resume_move_the_deadline(tiny_game: str, runner: GameService) -> None:
    info = runner.create_game("tiny", "g", seats={"1": "a@x.org", "2": "b@x.org"}, seed=1)
    deadline = info.row.deadline
    assert deadline is not None
    assert runner.extend("g", timedelta(days=1)) == deadline + timedelta(days=1)
    runner.pause("g")
    with pytest.raises(GameError, match="paused"):
        runner.resolve("g")
    resumed = runner.resume("g")
    assert resumed is not None and resumed >= deadline + timedelta(days=1)
    with pytest.raises(InvalidInput, match="past"):
        runner.set_deadline("g", runner.clock() - timedelta(minutes=1))


def test_gm_end_declares_the_leaders(tiny_game: str, runner: GameService) -> None:
    runner.create_game("tiny", "g", seats={"1": "a@x.org", "2": "b@x.org"}, seed=1,
                       gm_address="gm@x.org", gm_password_hash=hash_password("sesame"))
    runner.check_gm("g", "sesame")
    with pytest.raises(NotAuthorised):
        runner.check_gm("g", "open")
    runner.end("g")
    data = runner.state_json("g")
    assert data["status"] == "finished" and data["winners"] == ["1", "2"]
    with pytest.raises(GameError, match="finished already"):
        runner.end("g")


def test_a_game_takes_a_bounded_number_of_observers(tiny_game: str, runner: GameService) -> None:
    from pbem.service.observers import MAX_OBSERVERS, observe

    runner.create_game("tiny", "g", seats={"1": "a@example.org", "2": "b@example.org"}, seed=1)
    with runner.unit() as unit:
        for number in range(MAX_OBSERVERS):
            observe(unit, "g", f"fan{number}@example.org")
        observe(unit, "g", "fan0@example.org")  # one already observing is no new one
    with runner.unit() as unit, pytest.raises(GameError, match=f"{MAX_OBSERVERS} observers"):
        observe(unit, "g", "one-more@example.org")
