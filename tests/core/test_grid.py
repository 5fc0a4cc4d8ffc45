"""Square grids: runs of consecutive cells and rectangular blocks (pbem.core.grid)."""

from __future__ import annotations

import pytest

from pbem.core.grid import BadCellName, SquareGrid


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


def test_every_cell_is_named_in_both_cases_and_parses_back_from_either() -> None:
    chess = SquareGrid(8, 8, rows_from_bottom=True, lowercase=True)
    names = chess.cells_by_name
    assert len(names) == 2 * 64 and names["e8"] == names["E8"] == (4, 0) and names["a1"] == (0, 7)
    assert all(chess.parse(chess.name(cell)) == cell == chess.parse(chess.name(cell).upper()) for cell in chess.cells())
    assert chess.parse(" e8 ") == (4, 0)
    with pytest.raises(BadCellName, match="not on the board"):
        chess.parse("i9")
    with pytest.raises(TypeError):
        names["z9"] = (0, 0)  # type: ignore[index]  (read-only: shared by every caller)
