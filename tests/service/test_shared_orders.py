"""Shared pending orders (X5) through the service layer: in a team phase (The Epic Quest's step) the
check reply and STATUS of a seat that owes orders list the other owing seats' stored orders for this
step; in a sealed phase (Race on the River's bids) they never show another seat's orders, and nobody
else (the public STATUS, a seat that owes nothing) sees a team's orders."""

from __future__ import annotations

from pbem.core import GameRng
from pbem.mail.answering.answers import status_text
from pbem.service.api import GameService

EPIC = {"1": "WARRIOR MOVE c2\nARCHER MOVE c2", "2": "KNIGHT MOVE c2\nCLERIC MOVE c2"}


def test_in_a_team_phase_the_check_and_status_list_the_teammates_stored_orders(runner: GameService) -> None:
    runner.create_game("epic-quest", "q", seats={"1": "a@example.org", "2": "b@example.org"}, seed=5,
                       options={"turn_hours": "0", "resolve": "deadline"})
    phase = runner.info("q").phase
    assert phase is not None and phase.shared_orders and phase.seats == ("1", "2")
    before = runner.submit("q", "2", EPIC["2"], store=False)
    assert before.teammates == {"1": None} and "seat 1: none yet" in before.render()

    assert runner.submit("q", "1", EPIC["1"]).is_clean
    check = runner.submit("q", "2", EPIC["2"], store=False).render()
    assert "Your teammates' orders stored for this step:\n  seat 1:\n    WARRIOR MOVE c2\n    ARCHER MOVE c2" in check
    status = status_text(runner.status("q", "2"))
    assert "seat 1:\n    WARRIOR MOVE c2\n    ARCHER MOVE c2" in status

    assert runner.submit("q", "2", EPIC["2"]).is_clean
    assert runner.status("q", "1").teammates == {"2": ["KNIGHT MOVE c2", "CLERIC MOVE c2"]}
    runner.withdraw("q", "1")  # NOORDERS
    assert "seat 1: holds (no orders)" in status_text(runner.status("q", "2"))

    public = status_text(runner.status("q"))
    assert runner.status("q").teammates is None and "MOVE" not in public and "teammates" not in public


def test_a_seat_that_owes_nothing_sees_no_team_orders(runner: GameService) -> None:
    runner.create_game("epic-quest", "q", seats={"1": "a@example.org", "2": "b@example.org"}, seed=5,
                       options={"turn_hours": "0"})
    runner.submit("q", "1", "DONE")  # seat 1 ends its round: the next steps are seat 2's alone
    runner.submit("q", "2", EPIC["2"])
    runner.resolve("q")
    info = runner.info("q")
    assert info.phase is not None and info.phase.seats == ("2",), info.phase
    assert runner.status("q", "1").teammates is None
    assert runner.status("q", "2").teammates == {}


def test_in_a_sealed_phase_nobody_sees_another_seats_orders(runner: GameService) -> None:
    runner.create_game("race-on-the-river", "r", seats={"1": "a@example.org", "2": "b@example.org"}, seed=5,
                       options={"turn_hours": "0", "resolve": "deadline"})
    phase = runner.info("r").phase
    assert phase is not None and not phase.shared_orders and phase.seats == ("1", "2")
    bid = str(runner.info("r").rules.sample_orders(runner.info("r").state, "1", GameRng(3))[0])
    assert runner.submit("r", "1", bid).is_clean
    other = "BID 1" if bid != "BID 1" else "BID 2"
    check = runner.submit("r", "2", other, store=False)
    status = runner.status("r", "2")
    assert check.teammates is None and status.teammates is None
    for text in (check.render(), status_text(status)):
        assert bid not in text and "teammates" not in text
