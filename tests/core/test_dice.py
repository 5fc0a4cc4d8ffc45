"""Dice helpers: rolling through the game RNG, doublets, opposite faces."""

from __future__ import annotations

import pytest

from pbem.core import GameRng
from pbem.core.dice import BadDie, check_face, describe_dice, is_doublet, opposite_face, opposite_faces, roll_dice


def test_roll_dice_gives_count_faces_in_range() -> None:
    rolls = [roll_dice(GameRng(seed), 3, 6) for seed in range(50)]
    assert all(len(r) == 3 and all(1 <= v <= 6 for v in r) for r in rolls)
    assert {v for r in rolls for v in r} == {1, 2, 3, 4, 5, 6}


def test_roll_dice_replays_from_the_same_seed() -> None:
    first, second = GameRng(7), GameRng(7)
    assert [roll_dice(first) for _ in range(20)] == [roll_dice(second) for _ in range(20)]


def test_roll_dice_uses_the_rng_and_nothing_else() -> None:
    rng = GameRng(3)
    state = rng.get_state()
    dice = roll_dice(rng, 2)
    rng.set_state(state)
    assert (rng.roll(6), rng.roll(6)) == dice


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (-1, 6), (2, 1)])
def test_roll_dice_refuses_nonsense(count: int, sides: int) -> None:
    with pytest.raises(BadDie):
        roll_dice(GameRng(1), count, sides)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [((3, 3), True), ((6, 6, 6), True), ((3, 4), False), ((5,), False), ((), False), ((2, 2, 3), False)],
)
def test_is_doublet(dice: tuple[int, ...], expected: bool) -> None:
    assert is_doublet(dice) is expected


def test_opposite_faces_sum_to_seven_on_a_six_sided_die() -> None:
    assert [opposite_face(v) for v in range(1, 7)] == [6, 5, 4, 3, 2, 1]
    assert opposite_faces((6, 6)) == (1, 1)
    assert opposite_face(1, sides=8) == 8


@pytest.mark.parametrize("value", [0, 7, -3])
def test_opposite_face_refuses_a_value_not_on_the_die(value: int) -> None:
    with pytest.raises(BadDie, match=str(value)):
        opposite_face(value)
    with pytest.raises(BadDie):
        check_face(value)


def test_describe_dice() -> None:
    assert describe_dice((3, 5)) == "3 and 5"
    assert describe_dice((6, 6, 1, 1)) == "6, 6, 1 and 1"
    assert describe_dice((4,)) == "4"
    with pytest.raises(BadDie):
        describe_dice(())
