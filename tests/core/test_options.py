"""Creator options read strictly (pbem/core/options.py): a bad value names the option, the value
and what is allowed."""

from __future__ import annotations

import pytest

from pbem.core import GameError
from pbem.core.options import choice_list_option, choice_option, whole_number_option, yes_no_option


def test_a_choice_is_read_trimmed_in_any_case_with_its_default() -> None:
    assert choice_option({}, "side", ("a", "b"), "a") == "a"
    assert choice_option({"side": " B "}, "side", ("a", "b"), "a") == "b"
    with pytest.raises(GameError, match=r"option side=c: give one of a, b$"):
        choice_option({"side": "c"}, "side", ("a", "b"), "a")


def test_a_list_of_choices_needs_the_right_count_of_allowed_words() -> None:
    allowed = ("cw", "ccw")
    assert choice_list_option({}, "directions", allowed, 3, ("cw", "ccw", "cw")) == ("cw", "ccw", "cw")
    assert choice_list_option({"directions": "CCW, ccw,cw"}, "directions", allowed, 3, ("cw",) * 3) == (
        "ccw", "ccw", "cw")
    for bad in ("cw,ccw", "cw,ccw,cw,cw", "cw,left,cw", ""):
        with pytest.raises(GameError, match=rf"option directions={bad}: give 3 of cw, ccw separated by commas, "
                                            r"e\.g\. directions=cw,ccw,cw"):
            choice_list_option({"directions": bad}, "directions", allowed, 3, ("cw", "ccw", "cw"))


def test_a_whole_number_in_range_or_the_default() -> None:
    assert whole_number_option({}, "max_rounds", 40, 1, 500) == 40
    assert whole_number_option({"max_rounds": " 12 "}, "max_rounds", 40, 1, 500) == 12


@pytest.mark.parametrize("value", ["0", "501", "-3", "ten", "1.5", "", "9" * 30])
def test_a_bad_whole_number_names_the_option_the_value_and_the_range(value: str) -> None:
    with pytest.raises(GameError, match=r"option max_rounds=.*: give a whole number from 1 to 500"):
        whole_number_option({"max_rounds": value}, "max_rounds", 40, 1, 500)


@pytest.mark.parametrize(("value", "expected"), [("yes", True), ("Y", True), ("on", True), ("1", True),
                                                 ("no", False), ("OFF", False), ("false", False), ("0", False)])
def test_yes_no_words(value: str, expected: bool) -> None:
    assert yes_no_option({"move_any": value}, "move_any", not expected) is expected


def test_a_yes_no_option_defaults_and_refuses_other_words() -> None:
    assert yes_no_option({}, "move_any", False) is False
    with pytest.raises(GameError, match="option move_any=maybe: give yes or no"):
        yes_no_option({"move_any": "maybe"}, "move_any", False)
