"""Reply tokens: addresses that sign a seat on, and every way one can be refused."""

from __future__ import annotations

import base64
import hmac
import re
from collections.abc import Callable
from datetime import date, timedelta

import pytest

from pbem.mail.outbound.tokens import (
    ExpiredToken,
    ForgedToken,
    ReplyTokens,
    RevokedToken,
    TokenError,
    is_token_address,
)

SECRET = b"0123456789abcdef0123456789abcdef"
ISSUED = date(2026, 11, 24)
VERSIONS = {("tc-1", "a"): 1, ("tc-1", "b"): 1, ("tc-2", "a"): 1}


def versions(game: str, seat: str) -> int | None:
    return VERSIONS.get((game, seat))


def token_address(game: str = "tc-1", seat: str = "a", version: int = 1, issued: date = ISSUED) -> str:
    return ReplyTokens(SECRET).address_for("gm@example.org", game, seat, version, issued)


def test_an_address_round_trips_to_its_game_and_seat() -> None:
    address = token_address()
    assert ReplyTokens(SECRET).verify(address, versions, ISSUED) == ("tc-1", "a")


def test_the_address_is_lower_case_short_and_shaped_as_documented() -> None:
    address = ReplyTokens(SECRET).address_for("GM@Example.ORG", "TC-1", "A", 1, ISSUED)
    local, _, domain = address.partition("@")
    assert address == address.lower()
    assert domain == "example.org"
    assert len(local) <= 64
    assert re.fullmatch(r"gm\+tc-1\.a\.k1\.\d{5}\.[a-z2-7]{16}", local)
    assert is_token_address(address)


def test_case_folding_and_angle_brackets_do_not_matter() -> None:
    address = token_address()
    assert ReplyTokens(SECRET).verify(f"<{address.upper()}>", versions, ISSUED) == ("tc-1", "a")


def _documented_mac(message: str, secret: bytes = SECRET) -> str:
    """The signature as the module describes it: HMAC-SHA256, its first 80 bits in base32, lower case."""
    return base64.b32encode(hmac.digest(secret, message.encode(), "sha256")[:10]).decode("ascii").lower()


@pytest.mark.parametrize("secret", [SECRET, bytes(range(40)), b"\xff" * 64])
def test_every_signature_is_spelled_as_documented(secret: bytes) -> None:
    """Addresses, links and stop tokens already sent keep verifying: their signatures are spelled as before."""
    tokens = ReplyTokens(secret)
    day = (ISSUED - date(1970, 1, 1)).days
    for game, seat, version in (("tc-1", "a", 1), ("big-game-9", "zz", 999_999), ("g", "0", 0)):
        signed = f"{game}.{seat}.{version}.{day}"
        address = tokens.address_for("gm@example.org", game, seat, version, ISSUED)
        assert address == (f"gm+{game}.{seat}.k{version}.{day}."
                           f"{_documented_mac(f'pbem-reply-token:{signed}', secret)}@example.org")
        press = tokens.address_for("gm@example.org", game, seat, version, ISSUED, press_from="gm")
        assert press.endswith(f".{_documented_mac(f'pbem-reply-token:{signed}.press:gm', secret)}@example.org")
        link = tokens.link_token(game, seat, version, ISSUED)
        assert link.endswith(f".{_documented_mac(f'pbem-seat-link:{signed}', secret)}")
    for address in ("alice@example.org", "b@x.y", "player17@players.bench", "jörg@bücher.example",
                    *(f"{'x' * length}@example.org" for length in range(1, 64))):
        encoded = base64.b32encode(address.encode()).decode("ascii").rstrip("=").lower()
        assert tokens.stop_token(address) == f"{encoded}.{_documented_mac(f'pbem-stop:{address}', secret)}"
    for mail_id in (1, 42, 10**18):
        assert tokens.bounce_address("gm@example.org", mail_id) == (
            f"gm+b-{mail_id}.{_documented_mac(f'pbem-bounce:{mail_id}', secret)}@example.org")


def test_the_same_inputs_give_the_same_address() -> None:
    assert token_address() == token_address()
    assert token_address() != token_address(seat="b")


def _swap(address: str, old: str, new: str) -> str:
    assert old in address
    return address.replace(old, new, 1)


def _flip_last_mac_letter(address: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local[:-1]}{'b' if local[-1] == 'a' else 'a'}@{domain}"


DAY = (ISSUED - date(1970, 1, 1)).days


@pytest.mark.parametrize(
    "tamper",
    [
        _flip_last_mac_letter,
        lambda address: _swap(address, "tc-1.a.", "tc-1.b."),  # another seat
        lambda address: _swap(address, "tc-1.a.", "tc-2.a."),  # another game
        lambda address: _swap(address, ".k1.", ".k2."),  # another key version
        lambda address: _swap(address, f".{DAY}.", f".{DAY + 30}."),  # a later day of issue
    ],
)
def test_a_tampered_address_is_forged(tamper: Callable[[str], str]) -> None:
    address = tamper(token_address())
    with pytest.raises(ForgedToken, match="valid signature"):
        ReplyTokens(SECRET).verify(address, versions, ISSUED)


@pytest.mark.parametrize("respell", [
    lambda address: _swap(address, ".k1.", ".k01."),  # a leading zero
    lambda address: _swap(address, f".{DAY}.", f".0{DAY}."),
    lambda address: _swap(address, ".k1.", ".k\uff11."),  # a full-width 1
])
def test_a_number_spelled_otherwise_than_pbem_writes_it_is_no_token(respell: Callable[[str], str]) -> None:
    address = respell(token_address())
    assert not is_token_address(address)
    with pytest.raises(ForgedToken, match="well-formed"):
        ReplyTokens(SECRET).verify(address, versions, ISSUED)
    tokens = ReplyTokens(SECRET)
    link = tokens.link_token("tc-1", "a", 1, ISSUED)
    assert tokens.verify_link(link, versions, ISSUED) == ("tc-1", "a")
    with pytest.raises(ForgedToken, match="well-formed"):
        tokens.verify_link(respell(f"gm+{link}@x").split("+")[1].split("@")[0], versions, ISSUED)


def test_a_bounce_address_names_its_mail_only_as_pbem_writes_it() -> None:
    tokens = ReplyTokens(SECRET)
    address = tokens.bounce_address("gm@example.org", 42)
    assert tokens.bounced_mail(address) == 42
    assert tokens.bounced_mail(_swap(address, "+b-42.", "+b-042.")) is None
    assert tokens.bounced_mail(_swap(address, "+b-42.", "+b-4\uff12.")) is None


def test_an_address_signed_with_another_secret_is_forged() -> None:
    address = ReplyTokens(b"another secret, sixteen bytes+").address_for("gm@example.org", "tc-1", "a", 1, ISSUED)
    with pytest.raises(ForgedToken):
        ReplyTokens(SECRET).verify(address, versions, ISSUED)


@pytest.mark.parametrize(
    "address",
    ["gm@example.org", "gm+tc-1@example.org", "gm+tc-1.a.k1.20260.short@example.org", "not an address", ""],
)
def test_an_address_without_a_well_formed_token_is_forged(address: str) -> None:
    assert not is_token_address(address)
    with pytest.raises(ForgedToken, match="well-formed"):
        ReplyTokens(SECRET).verify(address, versions, ISSUED)


def test_a_token_expires_after_the_maximum_age() -> None:
    tokens = ReplyTokens(SECRET, max_age_days=60)
    address = token_address()
    assert tokens.verify(address, versions, ISSUED + timedelta(days=60)) == ("tc-1", "a")
    with pytest.raises(ExpiredToken, match="expired after 60 days"):
        tokens.verify(address, versions, ISSUED + timedelta(days=61))


def test_a_token_from_the_future_is_refused_beyond_a_day_of_clock_skew() -> None:
    tokens = ReplyTokens(SECRET)
    assert tokens.verify(token_address(), versions, ISSUED - timedelta(days=1)) == ("tc-1", "a")
    with pytest.raises(ForgedToken, match="future"):
        tokens.verify(token_address(), versions, ISSUED - timedelta(days=2))


def test_a_bumped_key_version_revokes_the_old_players_tokens() -> None:
    old = token_address(version=1)
    new = token_address(version=2)
    bumped = {("tc-1", "a"): 2}.get
    tokens = ReplyTokens(SECRET)
    with pytest.raises(RevokedToken, match="changed hands"):
        tokens.verify(old, lambda game, seat: bumped((game, seat)), ISSUED)
    assert tokens.verify(new, lambda game, seat: bumped((game, seat)), ISSUED) == ("tc-1", "a")


def test_a_token_for_a_seat_that_is_gone_is_revoked() -> None:
    with pytest.raises(RevokedToken, match="no seat a"):
        ReplyTokens(SECRET).verify(token_address(), lambda game, seat: None, ISSUED)


def test_revoked_is_a_kind_of_forged_and_all_are_token_errors() -> None:
    assert issubclass(RevokedToken, ForgedToken)
    assert all(issubclass(kind, TokenError) for kind in (ForgedToken, ExpiredToken, RevokedToken))


@pytest.mark.parametrize(
    ("base", "game", "seat", "version", "match"),
    [
        ("gm@example.org", "a-very-long-game-name-indeed", "north-west-corner", 1, "over the limit of 64"),
        ("gm@example.org", "tc_1", "a", 1, "letters, digits"),
        ("gm@example.org", "tc-1", "a.b", 1, "letters, digits"),
        ("gm+x@example.org", "tc-1", "a", 1, "plus"),
        ("example.org", "tc-1", "a", 1, "gm@example.org"),
        ("gm@example.org", "tc-1", "a", -1, "key version"),
    ],
)
def test_address_for_refuses_what_cannot_be_encoded(base: str, game: str, seat: str, version: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ReplyTokens(SECRET).address_for(base, game, seat, version, ISSUED)


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="16 bytes"):
        ReplyTokens(b"short")


def test_a_stop_token_names_its_address_and_no_other() -> None:
    tokens = ReplyTokens(SECRET)
    token = tokens.stop_token("Alice@Example.ORG")
    assert tokens.verify_stop(token) == "alice@example.org"
    assert tokens.verify_stop(token.upper()) == "alice@example.org"
    other = tokens.stop_token("bob@example.org")
    forged = other.partition(".")[0] + "." + token.partition(".")[2]  # bob's address, alice's signature
    for bad in (forged, token[:-1], "not a token", token.partition(".")[0]):
        with pytest.raises(ForgedToken):
            tokens.verify_stop(bad)
    with pytest.raises(ForgedToken):
        ReplyTokens(b"another secret, 32 bytes long!!!").verify_stop(token)
