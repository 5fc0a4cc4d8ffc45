"""The pairing rules of the three league formats, as pure functions."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pbem.leagues.pairing import (
    NotEnoughPlayers,
    advancing,
    knockout,
    knockout_rounds,
    meetings_of,
    round_robin,
    round_robin_rounds,
    swiss,
    table_sizes,
)
from pbem.leagues.results import Place, ResultKind


def test_tables_are_full_or_as_equal_as_they_can_be() -> None:
    assert table_sizes(8, 4, 2) == ([4, 4], 0)
    assert table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert table_sizes(9, 4, 4) == ([4, 4], 1)
    with pytest.raises(NotEnoughPlayers):
        table_sizes(2, 4, 3)


def test_swiss_first_round_seats_by_order() -> None:
    assert swiss(list(range(1, 9)), size=4, min_players=2, meetings=Counter()).tables == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_swiss_second_round_worked_by_hand() -> None:
    # After round 1 (tables 1-4 and 5-8) the standings are 1, 5, 6, 7, 8, 2, 3, 4 (see test_standings).
    # Top-down (1,5,6,7) would repeat three meetings; every table must hold two of each old table, so
    # the fewest repeats are 4: 1 with the first of 2,3,4 in the order (2) and the best two of 5-8.
    met = meetings_of([(1, 2, 3, 4), (5, 6, 7, 8)])
    seated = swiss([1, 5, 6, 7, 8, 2, 3, 4], size=4, min_players=2, meetings=met)
    assert seated.tables == ((1, 5, 6, 2), (7, 8, 3, 4))
    assert sum(met[frozenset(p)] for t in seated.tables for p in combinations(t, 2)) == 4


def test_swiss_avoids_repeat_opponents_where_possible() -> None:
    met = meetings_of([(1, 2), (3, 4), (5, 6)])
    seated = swiss([1, 2, 3, 4, 5, 6], size=2, min_players=2, meetings=met)
    assert seated.tables == ((1, 3), (2, 4), (5, 6)) or not any(met[frozenset(t)] for t in seated.tables)
    assert not any(met[frozenset(t)] for t in seated.tables)


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    seated = swiss([1, 2, 3, 4, 5], size=2, min_players=2, meetings=Counter(), byes_had={5: 1})
    assert seated.byes == (4,)
    assert sorted(p for t in seated.tables for p in t) == [1, 2, 3, 5]


@pytest.mark.parametrize("players", [2, 5, 6, 7, 10])
def test_round_robin_of_two_meets_everyone_exactly_once(players: int) -> None:
    ids = list(range(1, players + 1))
    rounds = round_robin_rounds(players, 2)
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, rounds + 1):
        seated = round_robin(ids, number, size=2, min_players=2, meetings=met)
        assert sorted([p for t in seated.tables for p in t] + list(seated.byes)) == ids
        met += meetings_of(seated.tables)
    assert set(met) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize(("players", "size", "rounds", "times"), [(9, 3, 4, 1), (8, 4, 7, 3)])
def test_round_robin_of_larger_tables_is_balanced(players: int, size: int, rounds: int, times: int) -> None:
    ids = list(range(1, players + 1))
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, rounds + 1):
        seated = round_robin(ids, number, size=size, min_players=2, meetings=met)
        assert sorted(p for t in seated.tables for p in t) == ids
        assert {len(t) for t in seated.tables} == {size}
        met += meetings_of(seated.tables)
    assert {met[frozenset(p)] for p in combinations(ids, 2)} == {times}
    assert round_robin_rounds(players, size) <= rounds


def test_round_robin_with_more_players_than_fit_spreads_the_meetings() -> None:
    ids = list(range(1, 9))
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, 4):
        met += meetings_of(round_robin(ids, number, size=4, min_players=2, meetings=met).tables)
    assert max(met.values()) == 2  # nobody sits with the same player in all three rounds


def test_knockout_advances_the_winners() -> None:
    first = knockout(list(range(1, 9)), size=4, min_players=2)
    assert first.tables == ((1, 2, 3, 4), (5, 6, 7, 8))
    seeds = {p: i for i, p in enumerate(range(1, 9))}
    win_3 = {p: Place(ResultKind.WIN if p == 3 else ResultKind.LOSS) for p in (1, 2, 3, 4)}
    # no sole winner: the best kind (shared before loss), then the best score, then the better seed
    shared = {5: Place(ResultKind.LOSS, 9), 6: Place(ResultKind.SHARED, 1), 7: Place(ResultKind.SHARED, 4),
              8: Place(ResultKind.LOSS)}
    on = [advancing(win_3, seeds), advancing(shared, seeds)]
    assert on == [3, 7]
    assert knockout(on, size=4, min_players=2).tables == ((3, 7),)
    draw = {3: Place(ResultKind.DRAW, 2), 7: Place(ResultKind.DRAW, 2)}
    assert advancing(draw, seeds) == 3


def test_knockout_rounds_until_one_is_left() -> None:
    assert knockout_rounds(8, 4, 2) == 2  # 8 -> 2 -> 1
    assert knockout_rounds(16, 2, 2) == 4
    assert knockout_rounds(5, 4, 4) == 1  # 4 play, 1 bye -> 2 left, too few for a table of 4
    assert knockout_rounds(3, 4, 4) == 0


def test_knockout_byes_go_to_the_best_seeds() -> None:
    seated = knockout([1, 2, 3, 4, 5], size=2, min_players=2)
    assert seated.byes == (1,)
    assert seated.tables == ((2, 3), (4, 5))
