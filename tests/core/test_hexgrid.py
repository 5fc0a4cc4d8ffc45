"""Tests of the shared hex-grid helper: neighbours, names, edges, shapes, groups."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core.hexgrid import DIRECTIONS, BadHexName, HexGrid, distance


def test_neighbours_follow_the_clarified_rule() -> None:
    grid = HexGrid.rhombus(10)
    e5 = grid.parse("e5")
    assert sorted(grid.name(n) for n in grid.neighbours(e5)) == sorted(["d5", "f5", "e4", "e6", "f4", "d6"])


def test_corners_of_a_rhombus_have_two_or_three_neighbours() -> None:
    grid = HexGrid.rhombus(10)
    corners = ("a1", "j1", "a10", "j10")
    names = {name: sorted(grid.name(n) for n in grid.neighbours(grid.parse(name))) for name in corners}
    assert names == {
        "a1": ["a2", "b1"],
        "j1": ["i1", "i2", "j2"],
        "a10": ["a9", "b10", "b9"],
        "j10": ["i10", "j9"],
    }


def test_rhombus_cells_in_reading_order_and_counts() -> None:
    grid = HexGrid.rhombus(10)
    names = [grid.name(c) for c in grid.cells()]
    assert len(grid) == 100
    assert names[:3] == ["a1", "b1", "c1"] and names[10] == "a2" and names[-1] == "j10"
    assert len(grid.edge_cells()) == 36
    assert [len(row) for row in grid.rows()] == [10] * 10


@pytest.mark.parametrize("size", [1, 2, 3, 5, 10, 19, 26])
def test_rhombus_edge_cells_are_the_border(size: int) -> None:
    grid = HexGrid.rhombus(size)
    for col, row in grid.cells():
        assert grid.is_edge((col, row)) == (col in (0, size - 1) or row in (0, size - 1))


def test_names_parse_any_case_and_refuse_bad_text() -> None:
    grid = HexGrid.rhombus(10)
    assert grid.parse("E5") == (4, 4) == grid.parse(" e5 ")
    assert grid.parse("j10") == (9, 9)
    assert grid.name((9, 9)) == "j10"
    for bad in ("k1", "a11", "a0", "e", "5e", "", "e05", "ee"):
        with pytest.raises(BadHexName):
            grid.parse(bad)
    with pytest.raises(ValueError):
        grid.name((10, 0))


def test_a_26_rhombus_names_a_to_z() -> None:
    grid = HexGrid.rhombus(26)
    assert grid.name((25, 25)) == "z26"
    assert grid.column_letters()[-1] == "z"


@pytest.mark.parametrize("size", [0, 27, -1])
def test_bad_rhombus_sizes_are_refused(size: int) -> None:
    with pytest.raises(ValueError):
        HexGrid.rhombus(size)


def test_hexagon_of_radius_4_has_61_cells_and_24_edge_cells() -> None:
    grid = HexGrid.hexagon(4)
    assert grid.is_hexagon and grid.span == 9
    assert len(grid) == 61
    assert len(grid.edge_cells()) == 24
    centre = grid.centre
    assert centre == (4, 4) and grid.name(centre) == "e5"
    assert len(grid.neighbours(centre)) == 6
    assert max(distance(centre, c) for c in grid.cells()) == 4
    assert all(grid.is_edge(c) == (distance(centre, c) == 4) for c in grid.cells())
    assert [len(row) for row in grid.rows()] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert not grid.contains((0, 0)) and grid.contains((4, 0)) and grid.contains((0, 8))
    with pytest.raises(BadHexName):
        grid.parse("a1")
    corners = [c for c in grid.cells() if len(grid.neighbours(c)) == 3]
    assert sorted(grid.name(c) for c in corners) == ["a5", "a9", "e1", "e9", "i1", "i5"]


@pytest.mark.parametrize("radius", [0, 1, 2, 3, 4, 12])
def test_hexagon_cell_count(radius: int) -> None:
    assert len(HexGrid.hexagon(radius)) == 3 * radius * (radius + 1) + 1


def test_bad_hexagon_radius_is_refused() -> None:
    with pytest.raises(ValueError):
        HexGrid.hexagon(-1)
    with pytest.raises(ValueError):
        HexGrid.hexagon(13)


def test_neighbours_of_an_off_board_cell_raise() -> None:
    with pytest.raises(ValueError):
        HexGrid.rhombus(5).neighbours((5, 0))


def test_groups_flood_over_a_predicate() -> None:
    grid = HexGrid.rhombus(4)
    members = {grid.parse(n) for n in ("a1", "b1", "a2", "d1", "c3", "b4", "d4")}
    groups = grid.groups(lambda c: c in members)
    assert [sorted(grid.name(c) for c in g) for g in groups] == [["a1", "a2", "b1"], ["d1"], ["b4", "c3"], ["d4"]]
    assert grid.connected(grid.parse("c3"), lambda c: c in members) == {grid.parse("c3"), grid.parse("b4")}
    assert grid.connected(grid.parse("c1"), lambda c: c in members) == frozenset()


def test_diagonal_touch_the_other_way_is_no_neighbour() -> None:
    grid = HexGrid.rhombus(4)
    # b2's neighbours include c1 and a3, but not a1 and c3
    assert grid.are_adjacent(grid.parse("b2"), grid.parse("c1"))
    assert grid.are_adjacent(grid.parse("b2"), grid.parse("a3"))
    assert not grid.are_adjacent(grid.parse("b2"), grid.parse("a1"))
    assert not grid.are_adjacent(grid.parse("b2"), grid.parse("c3"))


shapes = st.one_of(st.integers(1, 12).map(HexGrid.rhombus), st.integers(0, 5).map(HexGrid.hexagon))


@given(shapes, st.data())
def test_neighbourhood_is_symmetric_and_distance_one(grid: HexGrid, data: st.DataObject) -> None:
    cell = data.draw(st.sampled_from(grid.cells()))
    for n in grid.neighbours(cell):
        assert cell in grid.neighbours(n)
        assert distance(cell, n) == 1
    assert len(grid.neighbours(cell)) <= len(DIRECTIONS)
    assert grid.parse(grid.name(cell)) == cell


@given(shapes, st.data())
def test_distance_matches_breadth_first_steps_on_convex_boards(grid: HexGrid, data: st.DataObject) -> None:
    start = data.draw(st.sampled_from(grid.cells()))
    steps = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for cell in frontier:
            for n in grid.neighbours(cell):
                if n not in steps:
                    steps[n] = steps[cell] + 1
                    nxt.append(n)
        frontier = nxt
    assert len(steps) == len(grid)
    assert all(distance(start, c) == d for c, d in steps.items())


def test_within_is_every_cell_in_range_whatever_lies_between() -> None:
    grid = HexGrid.hexagon(4)
    centre = grid.centre
    assert len(grid.within(centre, 1)) == 6 and len(grid.within(centre, 2)) == 18
    corner = grid.parse("a9")
    assert sorted(grid.name(c) for c in grid.within(corner, 1)) == ["a8", "b8", "b9"]
    assert sorted(grid.name(c) for c in grid.within(corner, 2)) == ["a7", "a8", "b7", "b8", "b9", "c7", "c8", "c9"]
    with pytest.raises(ValueError):
        grid.within((0, 0), 2)


def test_paths_pass_only_the_cells_allowed_on_the_way() -> None:
    grid = HexGrid.hexagon(4)
    e5, e3, e4, f4 = (grid.parse(n) for n in ("e5", "e3", "e4", "f4"))

    def free(cell: tuple[int, int]) -> bool:
        return True

    def blocked(cell: tuple[int, int]) -> bool:
        return cell not in (e4, f4)

    assert grid.path_steps(e5, e3, 2, free) == 2
    assert grid.path_steps(e5, e3, 1, free) is None
    # e4 and f4 (both neighbours of e5 and of e3) are blocked: the way round takes 3 steps
    assert grid.path_steps(e5, e3, 2, blocked) is None
    assert grid.path_steps(e5, e3, 3, blocked) == 3
    # a blocked cell may still be the end of the way
    assert grid.path_steps(e5, e4, 1, blocked) == 1
    reach = grid.reachable(e5, 1, blocked)
    assert set(reach) == set(grid.neighbours(e5)) and set(reach.values()) == {1}


@given(st.integers(0, 4).map(HexGrid.hexagon), st.data())
def test_open_board_paths_are_the_hex_distance(grid: HexGrid, data: st.DataObject) -> None:
    start = data.draw(st.sampled_from(grid.cells()))
    end = data.draw(st.sampled_from(grid.cells()))
    found = grid.path_steps(start, end, 8, lambda c: True)
    assert found == (None if start == end else distance(start, end))
