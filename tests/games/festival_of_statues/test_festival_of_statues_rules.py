"""The Festival of Statues rules, one worked example per rule (rule book chapter 16, the
hosting plan's section 4.16 and CLARIFICATIONS)."""

from __future__ import annotations

import pytest
from festival_builders import GAME, position, square

from pbem.core import GameError, GameRng, IllegalOrder, OutcomeKind
from pbem.games.festival_of_statues.board import add_spaces, legal_plays, space_name
from pbem.games.festival_of_statues.orders import Add, Move

EXAMPLE_16A = """
. . . . . .
. . . 1 . .
. . . . . 2
. 1 . . . 2
2 . . . . .
2 . . . . .
"""


def _problem(state, seat, order):  # type: ignore[no-untyped-def]
    problems = GAME.validate(state, seat, [order])
    return problems[0].message if problems else None


def _play(state, *texts):  # type: ignore[no-untyped-def]
    """Resolve one play per text for whoever is to play; return the last resolution."""
    from pbem.orders import OrderParser

    parser = OrderParser(GAME)
    rng = GameRng(7)
    result = None
    for text in texts:
        orders = parser.parse(text).orders
        result = GAME.resolve(state, {state.to_play: orders}, rng)
        state = result.state
    return result


def test_example_16a_john_adds_on_a_checked_space_and_paul_moves_next_to_his_own() -> None:
    """Example 16A: John rolls 4 and may add on the open spaces of row 4 and column 4 that are
    not next to one of his statues; Paul then moves his statue on row 4 next to his others."""
    state = position(EXAMPLE_16A, die=4)
    checked = [space_name(i) for i in add_spaces(state, "1")]
    # row 4: 4,1 is next to John's 4,2, 4,3 too; 4,2 and 4,6 are taken; column 4: 1,4 and 3,4 touch 2,4
    assert checked == ["4,4", "4,5", "5,4", "6,4"]
    after_john = _play(state, "ADD 4,4").state
    assert after_john.board == square("""
        . . . . . .
        . . . 1 . .
        . . . . . 2
        . 1 . 1 . 2
        2 . . . . .
        2 . . . . .""")
    assert after_john.to_play == "2" and after_john.die == 4  # Paul plays with the same die
    paul = _play(after_john, "MOVE 4,6-5,2")
    assert paul.state.board[space_index(5, 2)] == "2"  # next to his own 5,1: allowed for a move
    assert paul.state.round == 2 and paul.state.to_play == "2"  # Paul takes the die and goes first
    assert [e.kind for e in paul.events] == ["play", "roll"]


def space_index(row: int, column: int) -> int:
    return (row - 1) * 6 + column - 1


@pytest.mark.parametrize(("order", "message"), [
    (Add(2, 3), "2,3 is not in row 4 or column 4 (the die shows 4)"),
    (Add(4, 2), "a statue already stands on 4,2"),
    (Add(1, 4), "your statue on 2,4 is next to 1,4"),
    (Add(4, 1), "your statue on 4,2 is next to 4,1"),
])
def test_add_only_on_an_open_space_of_the_die_line_not_next_to_your_own(order: Add, message: str) -> None:
    """[R] "Add 1 new Statue ... in an open space within the row or column indicated by the die ...
    you CANNOT place the Statue in a space if there is another Statue of yours in an adjacent space";
    [D] row n or column n; [C] adjacent means orthogonally adjacent."""
    state = position(EXAMPLE_16A, die=4)
    assert message in _problem(state, "1", order)


def test_a_diagonal_neighbour_or_the_other_players_statue_does_not_block_an_add() -> None:
    """[C] "adjacent" means orthogonally adjacent, and only your own statues block."""
    state = position("""
        . . . . . .
        . . . . . .
        . . 1 . . .
        . . . 2 . .
        . . . . . .
        . . . . . .""", die=4)
    assert _problem(state, "1", Add(4, 2)) is None  # diagonal to 3,3
    assert _problem(state, "1", Add(4, 5)) is None  # next to seat 2's 4,4
    assert _problem(state, "2", Add(4, 5)) is not None  # next to his own 4,4


def test_an_empty_supply_allows_no_add() -> None:
    """[R] each player has 6 statues: with all six on the square only a MOVE is left."""
    state = position("""
        1 . 1 . 1 .
        . . . . . .
        1 . 1 . 1 .
        . . . . . .
        . . . . . .
        . . . . . .""", die=6)
    assert state.supply("1") == 0
    assert "all your 6 statues stand on the square" in _problem(state, "1", Add(6, 6))
    assert all(isinstance(p, Move) for p in legal_plays(state, "1"))


@pytest.mark.parametrize(("order", "message"), [
    (Move(1, 1, 2, 2), "no statue stands on 1,1"),
    (Move(4, 6, 4, 1), "the statue on 4,6 is seat 2's; you may move only your own"),
    (Move(4, 2, 4, 2), "a statue must move to another space"),
    (Move(4, 2, 3, 6), "a statue already stands on 3,6"),
])
def test_move_a_statue_of_your_own_from_the_die_line_to_another_open_space(order: Move, message: str) -> None:
    """[R] "Move 1 Statue cube already in a space in the row or the column indicated by the die to
    another open space"; [D] only the mover's own statue unless move_any=yes."""
    state = position(EXAMPLE_16A, die=4)
    assert message in _problem(state, "1", order)


def test_a_statue_off_the_die_line_may_not_move() -> None:
    """[R] only a statue "already in a space in the row or the column indicated by the die" moves."""
    state = position(EXAMPLE_16A, die=4, step=1)
    assert "the statue on 5,1 is not in row 4 or column 4" in _problem(state, "2", Move(5, 1, 1, 1))


def test_a_move_may_go_anywhere_even_far_from_the_die_line() -> None:
    """[R] "You can move the Statue to any other open space.\""""
    state = position(EXAMPLE_16A, die=4)
    assert _problem(state, "1", Move(4, 2, 1, 1)) is None
    assert _problem(state, "1", Move(2, 4, 6, 6)) is None  # 2,4 stands in column 4


def test_move_any_lets_a_player_move_the_other_players_statue() -> None:
    """[D] option move_any=yes: a MOVE may take either colour."""
    state = position(EXAMPLE_16A, die=4, move_any=True)
    assert _problem(state, "1", Move(4, 6, 1, 1)) is None
    event = _play(state, "MOVE 4,6-1,1").events[0]
    assert event.text == "Seat 1 moves seat 2's statue from 4,6 to 1,1."


@pytest.mark.parametrize(("picture", "play", "shape"), [
    ("""
     . . . . . .
     1 1 1 . . .
     . . . . . .
     . . . . . .
     . . . . . .
     . . . . . .""", "MOVE 6,4-2,4", "in a line in row 2"),
    ("""
     . . . . . .
     . . . . . .
     . . 1 . . .
     . . 1 . . .
     . . 1 . . .
     . . . . . .""", "MOVE 6,4-6,3", "in a line in column 3"),
    ("""
     . . . . . .
     . . . . . .
     . . . . . .
     . . . 1 1 .
     . . . 1 . .
     . . . . . .""", "MOVE 6,4-5,5", "in a 2 x 2 square"),
])
def test_four_in_a_row_a_column_or_a_square_wins_at_once(picture: str, play: str, shape: str) -> None:
    """[R][C] four statues in four consecutive spaces of a row or column, or a 2 x 2 square, win at
    once; the second player does not play that round."""
    rows = picture.strip().splitlines()
    rows[5] = ". . . 1 . ."
    state = position("\n".join(rows), die=6)
    result = _play(state, play)
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("1",) and outcome.kind is OutcomeKind.WIN
    assert shape in outcome.reason
    assert result.events[-1].kind == "win"
    assert GAME.validate(result.state, "2", [Add(6, 6)])[0].message == "the game is over"


def test_four_on_a_diagonal_or_with_a_gap_is_no_win() -> None:
    """[C] "four in a row means four consecutive"; diagonals are not lines of the book."""
    diagonal = position("""
        1 . . . . .
        . 1 . . . .
        . . 1 . . .
        . . . . . 1
        . . . . . .
        . . . . . .""", die=4)
    assert GAME.outcome(_play(diagonal, "MOVE 4,6-4,4").state) is None
    gap = position("""
        1 1 . 1 . .
        . . . . . .
        . . . . . .
        . . . . . 1
        . . . . . .
        . . . . . .""", die=4)
    after = _play(gap, "MOVE 4,6-1,5").state  # 1 1 . 1 1 .: four in the row, not consecutive
    assert GAME.outcome(after) is None
    assert GAME.scores(after)["1"] == 3


def test_an_add_never_completes_four() -> None:
    """[R] an added statue may not stand next to your own, and every pattern of four has neighbours:
    only a MOVE wins."""
    from pbem.games.festival_of_statues.board import PATTERNS

    three_of_four = position("""
        1 1 1 . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .""", die=4)
    assert 3 not in add_spaces(three_of_four, "1")
    assert len(PATTERNS) == 2 * 6 * 3 + 25


def test_the_other_player_wins_when_a_move_completes_his_four() -> None:
    """[D] with move_any=yes, moving the other player's statue into his pattern makes him win."""
    state = position("""
        2 2 2 . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . 2 . .""", die=6, move_any=True)
    outcome = GAME.outcome(_play(state, "MOVE 6,4-1,4").state)
    assert outcome is not None and outcome.winners == ("2",)


def test_the_die_holder_plays_first_and_the_die_passes_each_round() -> None:
    """[R] the die holder adds or moves, then the other with the same die; the die passes and the
    other player goes first next round; the service rolls the new die."""
    state = GAME.setup(("1", "2"), {}, GameRng(3))
    seen = []
    rng = GameRng(4)
    for _ in range(6):
        seat = state.to_play
        seen.append((state.round, seat, state.die))
        state = GAME.resolve(state, {seat: GAME.default_orders(state, seat)}, rng).state
    assert [(r, s) for r, s, _ in seen] == [(1, "1"), (1, "2"), (2, "2"), (2, "1"), (3, "1"), (3, "2")]
    assert seen[0][2] == seen[1][2] and seen[2][2] == seen[3][2]


def test_start_option_chooses_the_first_die_holder() -> None:
    """[§3] start=N names the first player, start=random draws him."""
    assert GAME.setup(("1", "2"), {"start": "2"}, GameRng(1)).to_play == "2"
    holders = {GAME.setup(("1", "2"), {"start": "random"}, GameRng(seed)).to_play for seed in range(20)}
    assert holders == {"1", "2"}


def test_after_max_rounds_without_a_winner_the_game_is_a_draw() -> None:
    """[D] option max_rounds (default 40), then a draw (Outcome.draw, nobody wins)."""
    state = position(die=3, round=2, max_rounds=2, step=1)
    result = _play(state, "ADD 3,3")
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.kind is OutcomeKind.DRAW and outcome.winners == ()
    assert outcome.headline == "Draw"
    assert outcome.reason == ("Round 2, the last one allowed (max_rounds=2), is over and nobody arranged four "
                              "statues: the game is a draw.")
    assert result.events[-1].kind == "draw"
    assert GAME.setup(("1", "2"), {}, GameRng(1)).max_rounds == 40


def test_a_win_in_the_last_round_is_a_win_not_a_draw() -> None:
    state = position("""
        . . . . . .
        . . . . . .
        1 1 1 . . .
        . . . . . .
        . . . . . .
        . . . 1 . .""", die=4, round=2, max_rounds=2, step=1, holder=1)
    assert GAME.outcome(_play(state, "MOVE 6,4-3,4").state).winners == ("1",)


def test_a_player_with_no_legal_play_passes() -> None:
    """[D] no legal play: the player passes (a forced play, [] )."""
    state = position("""
        . . . . . .
        . . . . . .
        . . 1 . 1 .
        . . . 1 . .
        . . 1 . 1 .
        . . . . . 1""", die=1)
    assert GAME.forced_orders(state, "1") == []
    assert GAME.default_orders(state, "1") == []
    assert GAME.validate(state, "1", []) == []
    result = GAME.resolve(state, {"1": []}, GameRng(1))
    assert result.events[0].kind == "pass" and result.state.to_play == "2"


def test_a_player_with_exactly_one_legal_play_has_it_played() -> None:
    """Plan 4.16: "Exactly one legal play is played automatically"."""
    state = position("""
        2 1 2 . 2 .
        . 1 . 1 . 1
        2 . . . . .
        . 1 . . . .
        . . . . . .
        . 1 . . . .""", die=1)
    # row 1 and column 1: 1,2 1,4 1,6 2,1 4,1 6,1 touch seat 1's statues, the rest are taken but 5,1
    assert GAME.forced_orders(state, "1") is None  # his 1,2 stands in row 1 and may move
    state = position("""
        2 . 2 . 2 .
        . 1 . 1 . 1
        2 . . . . .
        . 1 . . . .
        . . . . . .
        . 1 . . . .""", die=1)
    assert GAME.forced_orders(state, "1") == [Add(5, 1)]
    assert GAME.forced_orders(position(die=1), "1") is None


def test_nmr_adds_on_the_first_legal_space_reading_row_by_row() -> None:
    """Plan 4.16 NMR [C]: ADD on the first legal space, reading row by row."""
    state = position(EXAMPLE_16A, die=4)
    assert GAME.default_orders(state, "1") == [Add(4, 4)]
    assert GAME.default_orders(state, "2") == [Add(1, 4)]


def test_nmr_without_an_add_moves_the_first_movable_statue_to_the_first_open_space() -> None:
    """Plan 4.16 NMR [D]: no ADD, so MOVE the first movable statue to the first free space."""
    state = position("""
        1 . . . . .
        . . 1 . . .
        . . . 1 . .
        . 1 . . 1 .
        . . 1 . . .
        . . . . . .""", die=3)
    assert GAME.default_orders(state, "1") == [Move(2, 3, 1, 2)]
    own_first = position("""
        1 . 2 . 1 .
        1 . . . 1 .
        . . . . . .
        . . . . . .
        . . 1 . . .
        . . . . . 1""", die=3, move_any=True)
    # column 3: seat 2's 1,3 comes first in reading order, but the absent player's own 5,3 is moved
    assert own_first.supply("1") == 0
    assert GAME.default_orders(own_first, "1") == [Move(5, 3, 1, 2)]


@pytest.mark.parametrize(("options", "message"), [
    ({"max_rounds": "0"}, "option max_rounds=0: give a whole number from 1 to 500"),
    ({"max_rounds": "many"}, "option max_rounds=many: give a whole number from 1 to 500"),
    ({"move_any": "perhaps"}, "option move_any=perhaps: give yes or no"),
    ({"start": "3"}, "option start=3"),
    ({"colour": "red"}, "unknown option 'colour'"),
])
def test_bad_options_are_refused_naming_the_option(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(1))


def test_options_are_read() -> None:
    state = GAME.setup(("1", "2"), {"max_rounds": "7", "MOVE_ANY": "yes"}, GameRng(1))
    assert (state.max_rounds, state.move_any) == (7, True)


def test_only_two_players() -> None:
    with pytest.raises(GameError, match="2 to 2 players"):
        GAME.seat_names(3)


def test_a_turn_is_exactly_one_play_by_the_seat_to_play() -> None:
    state = position(die=2)
    assert GAME.validate(state, "2", [Add(2, 2)])[0].message == "it is not your turn: waiting for seat 1"
    assert "exactly one order" in GAME.validate(state, "1", [Add(2, 2), Add(2, 4)])[0].message
    assert "you may pass only when you cannot play" in GAME.validate(state, "1", [])[0].message
    with pytest.raises(IllegalOrder):
        GAME.resolve(state, {"1": [Add(3, 3)]}, GameRng(1))
