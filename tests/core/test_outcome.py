"""Outcomes without a winner (X1): a win, a shared win, a draw, or a loss for everyone."""

from __future__ import annotations

import pytest

from pbem.core import Outcome, OutcomeKind, Phase


def test_the_kind_follows_from_the_winners_unless_a_draw_is_said() -> None:
    assert Outcome(("2",)).kind is OutcomeKind.WIN
    assert Outcome(("1", "3")).kind is OutcomeKind.SHARED
    assert Outcome(()).kind is OutcomeKind.LOSS
    assert Outcome.draw("the round cap").kind is OutcomeKind.DRAW
    assert Outcome.loss("the Magic Meanie won").winners == ()


def test_each_kind_has_its_headline() -> None:
    assert Outcome(("2",)).headline == "Winner: 2"
    assert Outcome(("1", "3")).headline == "Shared win: 1, 3"
    assert Outcome.draw().headline == "Draw"
    assert Outcome.loss().headline == "Nobody wins"


@pytest.mark.parametrize(("winners", "kind"), [((), OutcomeKind.WIN), (("1",), OutcomeKind.DRAW),
                                               (("1", "2"), OutcomeKind.WIN), (("1",), OutcomeKind.LOSS)])
def test_a_kind_that_contradicts_the_winners_is_refused(winners: tuple[str, ...], kind: OutcomeKind) -> None:
    with pytest.raises(ValueError, match=kind.value):
        Outcome(winners, "", kind)


def test_a_window_phase_says_silence_means_pass() -> None:
    window = Phase("window", ("2", "3"), deadline_hours=12, silence="pass")
    assert window.is_window and not Phase("act", ("1",)).is_window
    with pytest.raises(ValueError, match="silence"):
        Phase("x", ("1",), silence="maybe")
    with pytest.raises(ValueError, match="deadline_hours"):
        Phase("x", ("1",), deadline_hours=float("nan"))


def test_an_agreed_end_names_its_seats_and_says_so() -> None:
    draw = Outcome.agreed_draw(("1", "3"), "they agreed")
    assert draw.kind is OutcomeKind.DRAW and draw.is_agreed and draw.winners == ()
    assert draw.headline == "Draw agreed by 1, 3"
    assert draw.shares_draw("1") and not draw.shares_draw("2")  # seat 2 had left: not in the draw
    assert Outcome.draw().shares_draw("2") and not Outcome(("2",)).shares_draw("2")
    conceded = Outcome.conceded(("1", "2"))
    assert conceded.kind is OutcomeKind.LOSS and conceded.is_agreed
    assert conceded.headline == "Nobody wins: the team conceded" and not Outcome.loss().is_agreed


def test_only_a_draw_or_a_loss_can_be_agreed_and_only_by_some_seat() -> None:
    with pytest.raises(ValueError, match="only a draw or a loss can be agreed"):
        Outcome(("1",), "", None, ("1", "2"))
    with pytest.raises(ValueError, match="needs the seats"):
        Outcome.agreed_draw(())
    with pytest.raises(ValueError, match="needs the seats"):
        Outcome.conceded(())
