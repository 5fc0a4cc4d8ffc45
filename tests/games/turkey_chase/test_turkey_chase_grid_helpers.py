"""The small square-grid helpers Turkey Chase added to pbem/core/grid.py."""

from __future__ import annotations

import pytest

from pbem.core.grid import BadCellName, SquareGrid, fence, is_orthogonal_step, parse_fence


def test_index_and_cell_at_are_inverse_and_follow_cells_order() -> None:
    grid = SquareGrid(11, 7)
    for position, cell in enumerate(grid.cells()):
        assert grid.index(cell) == position
        assert grid.cell_at(position) == cell


def test_is_orthogonal_step() -> None:
    assert is_orthogonal_step((3, 3), (3, 4)) and is_orthogonal_step((3, 3), (2, 3))
    assert not is_orthogonal_step((3, 3), (4, 4))
    assert not is_orthogonal_step((3, 3), (3, 3))
    assert not is_orthogonal_step((3, 3), (3, 5))


def test_parse_fence_reads_either_order_and_any_case() -> None:
    grid = SquareGrid(11, 11)
    assert parse_fence(grid, "A6/B6") == parse_fence(grid, "b6/a6") == fence((0, 5), (1, 5))
    with pytest.raises(ValueError, match="not orthogonally adjacent"):
        parse_fence(grid, "A6/C6")
    with pytest.raises(ValueError, match="not a fence"):
        parse_fence(grid, "A6-B6")
    with pytest.raises(BadCellName):
        parse_fence(grid, "A6/L6")
