"""How a Turkey Chase game ends: every bird captured, or one player left with
birds and strictly the highest score."""

from __future__ import annotations

from fractions import Fraction

from turkey_chase_scenarios import GAME, make_state, resolve


def test_the_game_goes_on_while_several_players_have_birds() -> None:
    state = make_state(birds={"A": ["F1"], "B": ["A6"]}, scores={"A": 20})
    assert GAME.outcome(state) is None


def test_the_game_ends_when_every_bird_is_captured_and_the_highest_score_wins() -> None:
    state = make_state(birds={}, scores={"A": 3, "B": 12, "C": Fraction(23, 2), "D": 0})
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("B",)
    assert outcome.reason == "Every bird has been captured."


def test_equal_highest_scores_share_the_win() -> None:
    state = make_state(birds={}, scores={"A": Fraction(17, 2), "C": Fraction(17, 2), "D": 8})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("A", "C")


def test_capturing_the_last_bird_ends_the_game_after_the_turn() -> None:
    state = make_state(farmers={"A": ["D6"]}, birds={"C": ["E6"]}, scores={"A": 5, "C": 2})
    result = resolve(state, {"A": "MOVE D6-E6"})
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("A",)


def test_the_game_ends_when_the_only_player_with_birds_is_strictly_highest() -> None:
    state = make_state(birds={"B": ["A6"]}, scores={"A": 4, "B": Fraction(9, 2)})
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("B",)
    assert outcome.reason == "Only B still has birds, and B's score is the highest."


def test_the_sole_survivor_merely_equal_highest_plays_on() -> None:
    assert GAME.outcome(make_state(birds={"B": ["A6"]}, scores={"A": 5, "B": 5})) is None


def test_the_sole_survivor_behind_plays_on() -> None:
    assert GAME.outcome(make_state(birds={"B": ["A6"]}, scores={"A": 6, "B": 5})) is None


def test_the_sole_survivor_feeding_into_the_lead_ends_the_game() -> None:
    state = make_state(farmers={"A": ["F7"]}, birds={"B": ["E5"]}, scores={"A": 6, "B": 5})
    assert GAME.outcome(state) is None
    result = resolve(state, {"B": "FEED E5\nMOVE E5-E4"})
    assert result.state.scores[1] == 12
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("B",)


def test_the_last_two_players_birds_captured_at_once_ends_on_scores() -> None:
    state = make_state(farmers={"A": ["D6"]}, birds={"B": ["E6"], "C": ["E6"]}, scores={"B": 3, "C": 3, "D": 1})
    result = resolve(state, {"A": "MOVE D6-E6"})
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("B", "C")
