"""States to JSON and back by their field types (pbem.core.jsonform), and BaseGame's
dump, load and guards built on it."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from pbem.core import GameError, OrderProblem, Phase
from pbem.core.bag import Bag
from pbem.core.game import BaseGame
from pbem.core.jsonform import JsonFormError, added_field, from_json, to_json


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Piece:
    owner: str
    where: tuple[int, int]


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    pieces: tuple[Piece, ...]
    rows: tuple[tuple[int, ...], ...]
    shells: frozenset[str]
    pairs: frozenset[tuple[str, str]]
    hands: tuple[Bag, ...]
    scores: tuple[Fraction, ...]
    colour: Colour
    chooser: str | None
    extra: dict[str, int]
    added_later: int = 7


TABLE = Table(
    seats=("1", "2"),
    pieces=(Piece("1", (0, 3)), Piece("2", (4, 1))),
    rows=((1, 2), (), (3,)),
    shells=frozenset({"e5", "a1"}),
    pairs=frozenset({("b2", "red"), ("a1", "blue")}),
    hands=(Bag.of(["red", "red", "blue"]), Bag()),
    scores=(Fraction(7, 2), Fraction(0)),
    colour=Colour.BLUE,
    chooser=None,
    extra={"x": 1},
)


def test_a_state_becomes_plain_json_with_sets_sorted_and_fractions_as_text() -> None:
    data = to_json(TABLE)
    assert data == {
        "seats": ["1", "2"],
        "pieces": [{"owner": "1", "where": [0, 3]}, {"owner": "2", "where": [4, 1]}],
        "rows": [[1, 2], [], [3]],
        "shells": ["a1", "e5"],
        "pairs": [["a1", "blue"], ["b2", "red"]],
        "hands": [{"blue": 1, "red": 2}, {}],
        "scores": ["7/2", "0"],
        "colour": "blue",
        "chooser": None,
        "extra": {"x": 1},
        "added_later": 7,
    }


def test_json_loads_back_into_the_same_state_by_the_field_types() -> None:
    assert from_json(Table, json.loads(json.dumps(to_json(TABLE)))) == TABLE


def test_a_field_missing_from_older_data_takes_its_default() -> None:
    data = to_json(TABLE)
    del data["added_later"]
    assert from_json(Table, data) == TABLE


@dataclass(frozen=True)
class Grown:
    seats: tuple[str, ...]
    held: tuple[int, ...] = added_field(())


def test_a_field_added_later_is_left_out_while_it_holds_its_default() -> None:
    assert to_json(Grown(("1",))) == {"seats": ["1"]}  # as stored before the field existed
    assert from_json(Grown, {"seats": ["1"]}) == Grown(("1",))
    assert to_json(Grown(("1",), (10,))) == {"seats": ["1"], "held": [10]}
    assert from_json(Grown, {"seats": ["1"], "held": [10]}) == Grown(("1",), (10,))


@pytest.mark.parametrize(("change", "message"), [
    ({"seats": "12"}, "seats: expected a JSON list"),
    ({"rows": [[1, "2"]]}, "rows[0][1]: '2' is not of type int"),
    ({"colour": "green"}, "'green' is not a valid Colour"),
    ({"pieces": [{"owner": "1", "where": [0]}]}, "pieces[0].where: 1 items"),
    ({"surprise": 1}, "Table has no field 'surprise'"),
    ({"chooser": True}, "chooser: True is not of type str"),
])
def test_data_that_does_not_fit_the_type_is_refused_naming_the_place(change: dict[str, Any], message: str) -> None:
    with pytest.raises(JsonFormError, match=message.replace("[", r"\[").replace("]", r"\]")):
        from_json(Table, {**to_json(TABLE), **change})


def test_a_missing_field_without_default_is_refused() -> None:
    data = to_json(TABLE)
    del data["seats"]
    with pytest.raises(JsonFormError, match="seats"):
        from_json(Table, data)


@dataclass(frozen=True)
class Count:
    seats: tuple[str, ...]
    total: int
    over: bool = False


class Counting(BaseGame[Count, Any]):
    name = "counting"
    title = "Counting"
    min_players, max_players = 2, 3
    state_class = Count
    declared_options = {"target": "the total to reach"}

    def phase(self, state: Count) -> Phase:
        return Phase("count", state.seats[:1])

    def outcome(self, state: Count) -> Any:
        return "over" if state.over else None


def test_base_game_dumps_and_loads_its_state_class_and_names_the_game_on_bad_data() -> None:
    game = Counting()
    state = Count(("1", "2"), 3)
    assert game.load(json.loads(json.dumps(game.dump(state)))) == state
    with pytest.raises(GameError, match="not a Counting state: total"):
        game.load({"seats": ["1"], "total": "three"})


def test_base_game_defaults_seats_options_and_the_turn_guards() -> None:
    game = Counting()
    assert game.seat_names(3) == ("1", "2", "3")
    with pytest.raises(GameError, match="Counting is for 2 to 3 players, not 4"):
        game.seat_names(4)
    assert game.check_options({" Target ": "5"}) == {"target": "5"}
    with pytest.raises(GameError, match="unknown option 'size' for counting; options are: target"):
        game.check_options({"size": "5"})
    state = Count(("1", "2"), 0)
    assert game.turn_problems(state, "1") == []
    assert game.turn_problems(state, "2") == [OrderProblem(None, "it is not your turn: waiting for seat 1")]
    assert game.turn_problems(Count(("1", "2"), 0, over=True), "1") == [OrderProblem(None, "the game is over")]
