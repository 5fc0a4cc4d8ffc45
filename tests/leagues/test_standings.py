"""Standings, points and ratings of a league, against values worked by hand (and, for ratings,
openskill's own model called directly)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from pbem.core import InvalidInput
from pbem.core.protocol import Outcome
from pbem.leagues.ratings import initial, rate
from pbem.leagues.results import Place, Points, ResultKind, parse_points, places_of
from pbem.leagues.standings import TableResult, standings

W, S, D, L, X = ResultKind.WIN, ResultKind.SHARED, ResultKind.DRAW, ResultKind.LOSS, ResultKind.DEFEAT


def _table(round_: int, table: int, kinds: dict[int, ResultKind]) -> TableResult:
    return TableResult(round_, table, {p: Place(k) for p, k in kinds.items()})


ROUND_1 = [_table(1, 1, {1: W, 2: L, 3: L, 4: L}), _table(1, 2, {5: S, 6: S, 7: L, 8: L})]


def test_outcomes_give_each_seat_its_kind() -> None:
    seats = ["1", "2", "3"]
    assert {s: p.kind for s, p in places_of(Outcome(("2",)), seats, {}).items()} == {"1": L, "2": W, "3": L}
    assert {p.kind for p in places_of(Outcome(("1", "3")), seats, {}).values()} == {S, L}
    assert {p.kind for p in places_of(Outcome.draw(), seats, {}).values()} == {D}
    assert {p.kind for p in places_of(Outcome.loss(), seats, {}).values()} == {X}
    assert places_of(Outcome(("2",)), seats, {"2": 7})["2"].score == 7


def test_points_default_and_parse() -> None:
    assert Points().as_text() == "win:3,shared:2,draw:1,loss:0,defeat:0,bye:1"
    points = parse_points("win:2, draw:0.5,defeat:-1")
    assert (points.win, points.shared, points.draw, points.defeat) == (2, 2, 0.5, -1)
    for bad in ("win=3", "tie:1", "win:x", "win:1,win:2", "win:5000"):
        with pytest.raises(InvalidInput):
            parse_points(bad)


def test_standings_after_round_one_worked_by_hand() -> None:
    # points: 1 has 3 (win), 5 and 6 have 2 (shared win), the rest 0.
    # opponents' points: 1: 0; 2, 3, 4: 3 (met 1); 5, 6: 2 (met each other); 7, 8: 4 (met 5 and 6).
    # 5 and 6 tie on everything but joining (5 first); 7 before 8 likewise; then 2, 3, 4.
    table = standings(list(range(1, 9)), ROUND_1, Points())
    assert [s.player for s in table] == [1, 5, 6, 7, 8, 2, 3, 4]
    assert [s.points for s in table] == [3, 2, 2, 0, 0, 0, 0, 0]
    assert [s.opponents_points for s in table] == [0, 2, 2, 4, 4, 3, 3, 3]
    assert [s.rank for s in table] == list(range(1, 9))
    assert table[0].count(W) == 1 and table[1].count(S) == 1 and table[3].count(L) == 1


def test_standings_with_the_gms_points_and_a_rating_tie_break() -> None:
    # points=win:1,shared:1,loss:0: 1, 5 and 6 have 1 point; opponents' points 1: 0, 5: 1, 6: 1;
    # 5 and 6 tie again: the better rating ordinal decides (6 given the better one here).
    points = parse_points("win:1,shared:1")
    table = standings(list(range(1, 9)), ROUND_1, points, {5: 1.0, 6: 2.0})
    assert [s.player for s in table][:3] == [6, 5, 1]


def test_one_game_ratings_match_openskill() -> None:
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 0, 1, 1])
    ratings = rate([1, 2, 3, 4], [_table(1, 1, {1: L, 2: W, 3: L, 4: L})])
    assert ratings[2].mu == pytest.approx(expected[1][0].mu)
    assert ratings[2].sigma == pytest.approx(expected[1][0].sigma)
    assert ratings[1].mu == pytest.approx(expected[0][0].mu)
    assert ratings[2].mu > initial().mu > ratings[1].mu
    assert ratings[2].shown() == f"{expected[1][0].mu:.1f} ± {expected[1][0].sigma:.1f}"
    assert ratings[2].ordinal == pytest.approx(expected[1][0].mu - 3 * expected[1][0].sigma)


def test_a_draw_or_a_cooperative_defeat_is_a_tie_for_ratings() -> None:
    model = PlackettLuce()
    tied = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[0, 0, 0])
    for kind in (D, X):
        ratings = rate([1, 2, 3], [_table(1, 1, {1: kind, 2: kind, 3: kind})])
        assert ratings[1].mu == pytest.approx(tied[0][0].mu)
        assert ratings[3].sigma == pytest.approx(tied[2][0].sigma)


def test_byes_change_no_rating_but_earn_points() -> None:
    results = [TableResult(1, 0, {9: Place(ResultKind.BYE)})]
    assert rate([9], results)[9] == initial()
    line = standings([9], results, Points())[0]
    assert (line.points, line.played, line.count(ResultKind.BYE)) == (1, 0, 1)
