"""An Honest Trade through the real turn runner and database with turn_hours=0 (no deadline):
a window closes when every owing seat has answered (the clock's early resolution) or when the GM
resolves it, and a seat that stays silent, or holds with NOORDERS, passes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlmodel import Session

from pbem.core import GameRng
from pbem.service.deadlines import TurnClock
from pbem.games import find_game
from pbem.store import Database
from pbem.store.tables import SeatRow
from pbem.service.api import GameService
from pbem.service.snapshot import GameInfo

GAME = find_game("honest-trade")
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


class QuietNotifier:
    """The clock's messages are not what this test is about."""

    def remind(self, session: Session, info: GameInfo, seats: Sequence[SeatRow]) -> None:
        """Send nothing."""

    def tell_gm(self, session: Session, info: GameInfo, text: str) -> None:
        """Send nothing."""

    def tell_players(self, session: Session, info: GameInfo, text: str) -> None:
        """Send nothing."""


def _submit(runner: GameService, seat: str, text: str) -> None:
    result = runner.submit("g", seat, text)
    assert result.is_clean and not result.general, result.render()


def test_windows_close_when_all_answered_or_by_the_gm_and_silence_passes(db: Database) -> None:
    runner = GameService(db, clock=lambda: NOW)
    clock = TurnClock(runner, QuietNotifier())
    runner.create_game("honest-trade", "g", seats={s: f"p{s}@example.org" for s in "123"}, seed=5,
                       options={"turn_hours": "0", "window_hours": "6"})
    secrets = runner.info("g").state.secrets

    _submit(runner, "1", "ACT YELLOW CUBES")
    assert [r.turns[0].record.reason for r in clock.tick(NOW).resolutions] == ["all-in"]
    info = runner.info("g")
    assert info.phase is not None and info.phase.name == "window" and info.phase.seats == ("2", "3")
    assert (info.phase.deadline_hours, info.phase.silence, info.row.deadline) == (6, "pass", None)

    _submit(runner, "2", "PASS")
    assert clock.tick(NOW).resolutions == []  # seat 3 has not answered: no deadline, the window waits
    runner.resolve("g")  # the GM's PROCESS closes it
    record = runner.history("g")[-1]
    assert record.phase == "window" and record.orders == {"2": ["PASS"], "3": ["PASS"]}
    state = runner.info("g").state
    assert state.actor == "2" and state.trader("1").blacks == 2  # nobody accused nor reacted: it stood

    _submit(runner, state.actor, "ACT RED")
    clock.tick(NOW)
    window = runner.info("g").phase
    assert window is not None and window.name == "window"
    accuser, silent = window.seats
    runner.withdraw("g", silent)  # NOORDERS: he holds, which in a window is PASS
    _submit(runner, accuser, "ACCUSE")
    assert [r.turns[0].record.reason for r in clock.tick(NOW).resolutions] == ["all-in"]
    record = runner.history("g")[-1]
    assert record.orders[silent] == [] and record.orders[accuser] == ["ACCUSE"]  # the empty entry plays PASS
    assert f"Seat {accuser} accuses seat {state.actor}" in " ".join(e["text"] for e in record.events)
    assert f"Seat {silent} accuse" not in " ".join(e["text"] for e in record.events)
    after = runner.info("g").state
    right = secrets[after.index(state.actor)] == "red"
    assert after.trader(state.actor).out == right and ("red" in after.trader(state.actor).cleared) != right

    robots = GameRng(3)
    for _ in range(2_000):
        info = runner.info("g")
        if info.outcome is not None:
            break
        assert info.phase is not None
        for seat in info.phase.seats:
            if runner.current_orders("g", seat) is None:
                _submit(runner, seat, "\n".join(str(o) for o in GAME.sample_orders(info.state, seat, robots)))
        runner.resolve("g")
    assert runner.info("g").row.status == "finished"
    assert runner.replay("g").is_identical
    final = runner.report_text("g", None)
    assert "The game is over. The secret colours were: " + ", ".join(
        f"seat {s} {c}" for s, c in zip("123", secrets, strict=True)) in final


def test_a_report_tells_a_seat_its_own_secret_colour_and_no_other(db: Database) -> None:
    runner = GameService(db, clock=lambda: NOW)
    runner.create_game("honest-trade", "g", seats={s: f"p{s}@example.org" for s in "1234"}, seed=8,
                       options={"turn_hours": "0"})
    secrets = runner.info("g").state.secrets
    for seat, colour in zip("1234", secrets, strict=True):
        text = runner.report_text("g", seat)
        assert f"Your secret colour: {colour}." in text and text.count("secret colour:") == 1
    assert "Your secret colour" not in runner.report_text("g", None)
    assert all(p["secret"] is None for p in runner.state_json("g")["state"]["players"])
