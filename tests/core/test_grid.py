"""Square grids: runs of consecutive cells and rectangular blocks (pbem.core.grid)."""

from __future__ import annotations

import pytest

from pbem.core.grid import SquareGrid


def test_runs_of_four_on_a_six_grid_follow_rows_then_columns() -> None:
    grid = SquareGrid(6, 6)
    runs = list(grid.runs(4))
    assert len(runs) == 2 * 6 * 3
    assert runs[0] == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert runs[1] == ((0, 0), (0, 1), (0, 2), (0, 3))
    assert ((2, 5), (3, 5), (4, 5), (5, 5)) in runs
    assert all(grid.contains(cell) for run in runs for cell in run)


def test_runs_in_other_directions_and_lengths() -> None:
    grid = SquareGrid(3, 2)
    assert list(grid.runs(3, ((1, 1),))) == []
    assert list(grid.runs(2, ((1, 1),))) == [((0, 0), (1, 1)), ((1, 0), (2, 1))]
    assert len(list(grid.runs(1))) == 2 * 6
    with pytest.raises(ValueError, match="at least 1 cell"):
        list(grid.runs(0))


def test_blocks_are_every_rectangle_in_reading_order() -> None:
    grid = SquareGrid(3, 3)
    blocks = list(grid.blocks(2, 2))
    assert blocks == [((0, 0), (1, 0), (0, 1), (1, 1)), ((1, 0), (2, 0), (1, 1), (2, 1)),
                      ((0, 1), (1, 1), (0, 2), (1, 2)), ((1, 1), (2, 1), (1, 2), (2, 2))]
    assert len(list(SquareGrid(6, 6).blocks(2, 2))) == 25
    assert list(grid.blocks(4, 1)) == []
    with pytest.raises(ValueError, match="at least 1 x 1"):
        list(grid.blocks(0, 2))
