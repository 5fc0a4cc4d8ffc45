"""Tests of the bag of coloured cubes (pbem/core/bag.py)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import GameRng, PbemError
from pbem.core.bag import Bag, BagError, redeal

COLOURS = ("red", "blue", "green", "yellow", "black", "white")


def test_bags_with_the_same_cubes_are_equal_whatever_the_construction() -> None:
    a = Bag.of(["red", "blue", "red"])
    b = Bag.from_counts({"red": 2, "blue": 1, "green": 0})
    c = Bag((("red", 1), ("blue", 1), ("red", 1)))
    assert a == b == c
    assert hash(a) == hash(b)
    assert a.counts == (("blue", 1), ("red", 2))


def test_filled_bag_holds_each_colour_the_given_number_of_times() -> None:
    bag = Bag.filled(COLOURS, 9)
    assert bag.size == len(bag) == 54
    assert all(bag.count(c) == 9 for c in COLOURS)
    assert bag.colours() == tuple(sorted(COLOURS))


def test_looking_at_a_bag() -> None:
    bag = Bag.of(["red", "black", "red"])
    assert bag.count("red") == 2
    assert bag.count("purple") == 0
    assert bag.cubes() == ("black", "red", "red")
    assert bag.as_dict() == {"black": 1, "red": 2}
    assert bag.describe() == "1 black, 2 red"
    assert Bag().describe(empty="nothing") == "nothing"
    assert Bag().is_empty and not bag.is_empty
    assert bag.contains(["red", "red"])
    assert not bag.contains(["red", "red", "red"])
    assert bag.contains(Bag.of(["black"]))


def test_a_bag_lists_its_cubes_in_a_games_colour_order() -> None:
    bag = Bag.of(["yellow", "white", "blue", "white", "purple"])
    order = ("white", "black", "blue", "yellow")
    assert bag.ordered(order) == ("white", "white", "blue", "yellow", "purple")
    assert bag.describe(order=order) == "2 white, 1 blue, 1 yellow, 1 purple"
    assert bag.describe() == "1 blue, 1 purple, 2 white, 1 yellow"
    assert Bag().ordered(order) == () and Bag().describe(order=order, empty="none") == "none"


def test_add_and_remove_return_new_bags() -> None:
    bag = Bag.of(["red"])
    more = bag.add(["blue", "red"])
    assert more == Bag.from_counts({"red": 2, "blue": 1})
    assert bag == Bag.of(["red"])  # unchanged
    assert more.remove(["red"]) == Bag.from_counts({"red": 1, "blue": 1})
    assert more - Bag.of(["blue"]) == Bag.of(["red", "red"])
    assert bag + Bag.of(["green"]) == Bag.of(["green", "red"])


def test_removing_a_cube_the_bag_lacks_names_the_colour() -> None:
    with pytest.raises(BagError, match="cannot take 2 blue cube\\(s\\): the bag holds 1"):
        Bag.of(["blue", "red"]).remove(["blue", "blue"])
    with pytest.raises(BagError, match="white"):
        Bag.of(["blue"]).remove(["white"])


def test_bag_error_is_a_pbem_error_and_a_value_error() -> None:
    assert issubclass(BagError, PbemError)
    assert issubclass(BagError, ValueError)


@pytest.mark.parametrize(
    "counts",
    [{"red": -1}, {"red": 1.5}, {"": 2}, {"red": True}],
)
def test_bad_counts_or_colours_are_refused(counts: dict[str, object]) -> None:
    with pytest.raises(BagError):
        Bag.from_counts(counts)  # type: ignore[arg-type]


def test_a_bag_is_immutable() -> None:
    bag = Bag.of(["red"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        bag.counts = ()  # type: ignore[misc]


def test_draw_is_deterministic_for_the_same_rng_state() -> None:
    bag = Bag.filled(COLOURS, 9)
    first = bag.draw(10, GameRng(42))
    second = bag.draw(10, GameRng(42))
    assert first == second
    other = bag.draw(10, GameRng(43))
    assert other != first  # a different seed draws differently (fixed seeds, so stable)


def test_draw_takes_the_drawn_cubes_out_and_leaves_the_original_alone() -> None:
    bag = Bag.filled(COLOURS, 9)
    drawn, rest = bag.draw(10, GameRng(1))
    assert len(drawn) == 10
    assert rest.size == 44
    assert rest.add(drawn) == bag
    assert bag.size == 54


def test_drawing_everything_empties_the_bag() -> None:
    bag = Bag.of(["red", "red", "blue"])
    drawn, rest = bag.draw(3, GameRng(7))
    assert Counter(drawn) == Counter({"red": 2, "blue": 1})
    assert rest.is_empty


def test_drawing_more_than_the_bag_holds_or_a_negative_number_fails() -> None:
    with pytest.raises(BagError, match="cannot draw 4 cubes: the bag holds only 3"):
        Bag.of(["red", "red", "blue"]).draw(4, GameRng(0))
    with pytest.raises(BagError, match="0 or more"):
        Bag.of(["red"]).draw(-1, GameRng(0))
    with pytest.raises(BagError):
        Bag().draw_one(GameRng(0))


def test_draw_zero_and_draw_one() -> None:
    bag = Bag.of(["red", "blue"])
    assert bag.draw(0, GameRng(0)) == ((), bag)
    cube, rest = bag.draw_one(GameRng(0))
    assert cube in ("red", "blue")
    assert rest.add([cube]) == bag


def test_draws_follow_the_rng_so_a_replay_from_a_stored_state_matches() -> None:
    rng = GameRng(5)
    rng.roll()
    stored = rng.get_state()
    bag = Bag.filled(COLOURS, 3)
    first = bag.draw(5, rng)
    again = bag.draw(5, GameRng.from_state(json.loads(json.dumps(stored))))
    assert first == again


def test_json_round_trip() -> None:
    bag = Bag.from_counts({"red": 3, "white": 1})
    data = bag.to_json()
    assert json.loads(json.dumps(data)) == {"red": 3, "white": 1}
    assert Bag.from_json(json.loads(json.dumps(data))) == bag


bags = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 6)).map(Bag.from_counts)


@settings(max_examples=60, deadline=None)
@given(bag=bags, seed=st.integers(0, 2**32), data=st.data())
def test_drawing_then_returning_restores_the_bag(bag: Bag, seed: int, data: st.DataObject) -> None:
    count = data.draw(st.integers(0, bag.size))
    drawn, rest = bag.draw(count, GameRng(seed))
    assert len(drawn) == count
    assert rest.size == bag.size - count
    assert bag.contains(drawn)
    assert rest.add(drawn) == bag
    assert Bag.from_json(rest.to_json()) == rest


def test_redeal_keeps_every_size_and_every_cube_and_redraws_the_contents() -> None:
    bags = (Bag.of(["red"] * 5), Bag.of(["blue"] * 3), Bag.filled(("green", "white"), 2))
    results = set()
    for seed in range(20):
        dealt = redeal(bags, GameRng(seed))
        assert [b.size for b in dealt] == [5, 3, 4]
        total = Bag()
        for bag in dealt:
            total = total + bag
        assert total == bags[0] + bags[1] + bags[2]
        results.add(dealt)
    assert len(results) > 1, "redealing never changed a hand"


def test_redeal_of_nothing_is_nothing() -> None:
    assert redeal((), GameRng(1)) == ()
    assert redeal((Bag(), Bag()), GameRng(1)) == (Bag(), Bag())
