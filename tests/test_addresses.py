"""The one rule for mail addresses, and what each way in does with an address that breaks it."""

from __future__ import annotations

import pytest

from pbem.addresses import MAX_ADDRESS, MAX_LABEL, MAX_LOCAL_PART, is_plain_address
from pbem.core import InvalidInput
from pbem.service.api import GameService


@pytest.mark.parametrize("address", ["alice@example.org", "a@x", "gm+tc-1.a.k1.20781.abc@pbem.test",
                                     "o'neil@example.org", "first.last@sub.example.co.uk"])
def test_plain_addresses_are_taken(address: str) -> None:
    assert is_plain_address(address)


@pytest.mark.parametrize("address", ["bob", "two words@example.org", "a@b@example.org", "<a@example.org>",
                                     "a,b@example.org", '"a"@example.org', "jürgen@example.org",
                                     "a@example.org\nBcc: v@example.org", "a@example.org\x00", "@example.org",
                                     "a@", "a;b@example.org", "(a)@example.org"])
def test_anything_else_is_refused(address: str) -> None:
    assert not is_plain_address(address)


def test_the_smtp_limits_are_taken_to_the_character() -> None:
    domain = ".".join(["d" * 63, "e" * 63, "f" * 63, "g" * 57])  # 249 characters
    assert is_plain_address("a" * 4 + "@" + domain) and len("a" * 4 + "@" + domain) == MAX_ADDRESS
    assert not is_plain_address("a" * 5 + "@" + domain)
    assert is_plain_address("b" * MAX_LOCAL_PART + "@example.org")
    assert not is_plain_address("b" * (MAX_LOCAL_PART + 1) + "@example.org")
    assert is_plain_address("c@" + "d" * MAX_LABEL + ".org")
    assert not is_plain_address("c@" + "d" * (MAX_LABEL + 1) + ".org")
    assert not is_plain_address("c@example..org") and not is_plain_address("c@example.org.")


def test_a_game_is_not_created_with_a_seat_address_no_mail_can_reach(tiny_game: str, runner: GameService) -> None:
    with pytest.raises(InvalidInput, match="seat 2: 'bob' is not a mail address"):
        runner.create_game("tiny", "t1", seats={"1": "a@example.org", "2": "bob"})
    assert runner.games() == []
