"""Strict readers of a game's creator options: the value, or a refusal naming option, value and range."""

from __future__ import annotations

import pytest

from pbem.core import GameError
from pbem.core.options import (
    BadGameOption,
    choice_list_option,
    choice_option,
    int_option,
    window_hours_description,
    window_hours_option,
    yes_no_option,
)


def test_a_choice_is_read_in_any_case_and_defaults_when_absent() -> None:
    assert choice_option({"side": " B "}, "side", ("a", "b"), "a") == "b"
    assert choice_option({}, "side", ("a", "b"), "a") == "a"


def test_a_bad_choice_names_the_option_the_value_and_the_choices() -> None:
    with pytest.raises(BadGameOption, match=r"^option side=c: give a or b$"):
        choice_option({"side": "c"}, "side", ("a", "b"), "a")
    assert issubclass(BadGameOption, GameError)


def test_a_list_of_choices_needs_the_right_count_of_allowed_words() -> None:
    allowed = ("cw", "ccw")
    assert choice_list_option({}, "directions", allowed, 3, ("cw", "ccw", "cw")) == ("cw", "ccw", "cw")
    assert choice_list_option({"directions": "CCW, ccw,cw"}, "directions", allowed, 3, ("cw",) * 3) == (
        "ccw", "ccw", "cw")
    for bad in ("cw,ccw", "cw,ccw,cw,cw", "cw,left,cw", ""):
        with pytest.raises(BadGameOption, match=rf"option directions={bad}: give 3 of cw, ccw separated by commas, "
                                                r"e\.g\. directions=cw,ccw,cw"):
            choice_list_option({"directions": bad}, "directions", allowed, 3, ("cw", "ccw", "cw"))


@pytest.mark.parametrize("raw", ["0", "721", "-3", "1.5", "12h", "²", "9" * 40, ""])
def test_a_whole_number_outside_its_range_is_refused(raw: str) -> None:
    with pytest.raises(BadGameOption, match="give a whole number from 1 to 720"):
        int_option({"n": raw}, "n", 1, 720, 24)


def test_a_whole_number_in_range_is_read() -> None:
    assert int_option({"n": " 36 "}, "n", 1, 720, 24) == 36
    assert int_option({}, "n", 1, 720, 24) == 24


def test_window_hours_are_whole_hours_from_1_to_720() -> None:
    assert window_hours_option({"w": "6"}, "w", 24) == 6.0
    assert window_hours_option({}, "w", 12) == 12.0
    with pytest.raises(BadGameOption, match="option w=0"):
        window_hours_option({"w": "0"}, "w", 12)
    assert window_hours_description("a vote", 12) == "hours to answer a vote, 1 to 720 (default 12); never longer than the turn"


@pytest.mark.parametrize(("value", "expected"), [("yes", True), (" Y ", True), ("true", True), ("on", True),
                                                 ("1", True), ("no", False), ("N", False), ("false", False),
                                                 ("off", False), ("0", False)])
def test_yes_no_words(value: str, expected: bool) -> None:
    assert yes_no_option({"move_any": value}, "move_any", not expected) is expected


def test_a_yes_no_option_defaults_and_refuses_other_words() -> None:
    assert yes_no_option({}, "move_any", False) is False
    with pytest.raises(BadGameOption, match="option move_any=maybe: give yes or no"):
        yes_no_option({"move_any": "maybe"}, "move_any", False)
