"""Creator options read strictly (pbem/core/options.py): a bad value names the option, the value
and what is allowed."""

from __future__ import annotations

import pytest

from pbem.core import GameError
from pbem.core.options import choice_list_option, choice_option, int_option


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


def test_a_whole_number_is_read_within_its_range_with_its_default() -> None:
    assert int_option({}, "cubes", 3, 60, 10) == 10
    assert int_option({"cubes": " 12 "}, "cubes", 3, 60, 10) == 12
    assert int_option({"cubes": "3"}, "cubes", 3, 60, 10) == 3 and int_option({"cubes": "60"}, "cubes", 3, 60, 10) == 60
    for bad in ("2", "61", "-4", "1.5", "ten", "", "\u0661\u0662", "0000012"):
        with pytest.raises(GameError, match=r"option cubes=.*: give a whole number from 3 to 60$"):
            int_option({"cubes": bad}, "cubes", 3, 60, 10)
