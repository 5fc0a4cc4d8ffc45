"""The confusable skeleton of Unicode TR39 (pbem.lookalikes), computed from Unicode's confusables.txt,
and the keys by which two player names look alike in any letter case."""

from __future__ import annotations

import pytest

from pbem.lookalikes import lookalike_keys, skeleton


@pytest.mark.parametrize(("text", "expected"), [
    ("AIice", "Alice"),  # capital I is small l
    ("B0b", "BOb"),  # zero is capital O
    ("1ce", "lce"),  # one is small l
    ("mary", "rnary"),  # m is r n
    ("\u0410lice", "Alice"),  # Cyrillic capital A
    ("\u0430", "a"),  # Cyrillic small a
    ("caf\u00e9", "cafe\u0301"),  # NFD: the accent stays a mark of its own
    ("Bob", "Bob"),  # a prototype is its own skeleton
])
def test_the_skeleton_maps_each_character_to_what_it_looks_like(text: str, expected: str) -> None:
    assert skeleton(text) == expected


def test_the_skeleton_is_case_sensitive_as_tr39_says() -> None:
    assert skeleton("I") == skeleton("l") != skeleton("i")
    assert skeleton("m") == "rn" and skeleton("M") == "M"


@pytest.mark.parametrize(("first", "second"), [
    ("AIice", "Alice"), ("alice", "Alice"), ("ALICE", "alice"), ("aIice", "ALICE"), ("B0b", "Bob"), ("b0b", "BOB"),
    ("Bi11", "Bill"), ("rnary", "Mary"), ("ALI", "All"),
])
def test_names_that_look_alike_in_any_case_share_a_key(first: str, second: str) -> None:
    assert set(lookalike_keys(first)) & set(lookalike_keys(second))


@pytest.mark.parametrize(("first", "second"), [("Ali", "All"), ("Alice", "Alicia"), ("Bob", "Rob"), ("Anna", "Ana")])
def test_names_that_only_share_letters_share_no_key(first: str, second: str) -> None:
    assert not set(lookalike_keys(first)) & set(lookalike_keys(second))
