"""Creator options read strictly (pbem.core.options)."""

from __future__ import annotations

import pytest

from pbem.core import GameError
from pbem.core.options import whole_number_option, yes_no_option


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
