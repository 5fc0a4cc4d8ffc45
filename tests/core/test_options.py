"""Creator options read strictly (pbem/core/options.py): a bad value names the option, the value
and what is allowed."""

from __future__ import annotations

import pytest

from pbem.core import GameError
from pbem.core.options import choice_list_option, choice_option


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
