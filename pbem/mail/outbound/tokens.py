"""Reply addresses that carry a seat, so that players never type a password.

Every mail to a player sets Reply-To to an address like::

    gm+tc-1.a.k1.20260.mfrggzdfmztwq2lk@example.org
       |    | |  |     `-- HMAC-SHA256 of the rest, first 80 bits, base32 (16 chars)
       |    | |  `-------- day of issue, days since 1970-01-01
       |    | `----------- the seat's key version (bumped by REPLACE)
       |    `------------- seat
       `------------------ game

A press mail carries ``.p-<author>`` after the key version (``gm+tc-1.a.k1.p-b.20260...``):
a reply to it goes back to the author as press, and is never read as orders.

All lower case (mail systems may fold case), fields joined by dots (names
hold only letters, digits and '-'), after a plus on the service's own local
part, so the mail arrives in the service's mailbox. A reply to it is signed
on as that seat, until the token is older than ``max_age_days`` or the seat's
key version changes (the GM replaced the player).

The same tokens, signed for another purpose (:meth:`ReplyTokens.link_token`),
make the private web link of a seat: ``/seat/tc-1.a.k1.20260.<mac>``. A
reply token is no link and a link token no reply address; both expire and
are revoked alike.

:meth:`ReplyTokens.stop_token` signs a mail address for a third purpose: the List-Unsubscribe links of
every mail to it (``STOP <token>`` as a mail's subject, ``/unsubscribe/<token>`` on the web).
"""

from __future__ import annotations

import base64
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from pbem.core import PbemError

_EPOCH = date(1970, 1, 1)
_MAC_BYTES = 10  # 80 bits: 16 base32 characters
_BASE32_PAIRS = tuple(first + second for first in "abcdefghijklmnopqrstuvwxyz234567"
                      for second in "abcdefghijklmnopqrstuvwxyz234567")
"""Every 10 bits as two base32 letters in lower case (RFC 4648's alphabet), by their value."""
_MAX_LOCAL_PART = 64
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
NUMBER_PATTERN = "0|[1-9][0-9]{0,5}"
"""A number as pbem writes it in a token or a web address, up to 999999: ASCII digits, no leading zero, so
each has one spelling."""
_NUMBER = f"(?:{NUMBER_PATTERN})"
_TOKEN = re.compile(
    rf"(?P<game>[a-z0-9][a-z0-9-]*)\.(?P<seat>[a-z0-9][a-z0-9-]*)\.k(?P<version>{_NUMBER})"
    rf"(?:\.p-(?P<press>[a-z0-9][a-z0-9-]*))?\.(?P<day>{_NUMBER})\.(?P<mac>[a-z2-7]{{16}})"
)

_BOUNCE_LOCAL = re.compile(r"\+b-(?P<id>[1-9][0-9]{0,18})\.(?P<mac>[a-z2-7]{16})")
"""The plus part of a bounce address: the outgoing mail's id, a dot, the signature."""

_STOP_TOKEN = re.compile(r"(?P<address>[a-z2-7]{1,520})\.(?P<mac>[a-z2-7]{16})")
"""A stop token: an address of at most 320 bytes in base32, a dot, the signature."""

_REPLY = "pbem-reply-token"
_STOP = "pbem-stop"
_LINK = "pbem-seat-link"
_BOUNCE = "pbem-bounce"

KeyVersionLookup = Callable[[str, str], int | None]
"""``(game, seat) -> the seat's current key version``, or None when there is no such game or seat."""


class TokenError(PbemError):
    """A reply address that does not sign anyone on."""


class ForgedToken(TokenError):
    """A reply address whose token is malformed or whose signature does not match."""


class RevokedToken(ForgedToken):
    """A correctly signed token that no longer signs on: the seat was replaced or is gone.

    A kind of :class:`ForgedToken`, so callers that treat every token that
    does not authenticate alike can catch that one type.
    """


class ExpiredToken(TokenError):
    """A correctly signed token older than the maximum age."""


@dataclass(frozen=True)
class _Token:
    game: str
    seat: str
    version: int
    day: int
    mac: str
    press: str | None = None


class ReplyTokens:
    """Makes and checks reply addresses signed with ``secret``."""

    def __init__(self, secret: bytes, *, max_age_days: int = 60) -> None:
        """Raises ``ValueError`` for a secret shorter than 16 bytes or a max age below one day."""
        if len(secret) < 16:
            raise ValueError("the reply-token secret must be at least 16 bytes long")
        if max_age_days < 1:
            raise ValueError(f"max_age_days must be at least 1, not {max_age_days}")
        self._keyed = hmac.new(secret, digestmod="sha256")
        """HMAC-SHA256 with the secret and nothing signed yet: each signature copies it (the key's own two
        hashes done once, not for every signature)."""
        self.max_age_days = max_age_days

    def address_for(self, base_address: str, game: str, seat: str, key_version: int, issued: date,
                    *, press_from: str | None = None) -> str:
        """Return the reply address for ``seat`` of ``game``, issued on ``issued``; with ``press_from`` (a
        seat name, or ``gm``) the address of a press mail, whose replies go back to that author as press.

        Lower case; the local part of ``base_address`` gets ``+token``.
        Raises ``ValueError`` when the base address already has a plus part
        or no domain, a name holds other than letters, digits and '-', the
        key version is outside 0..999999, or the local part would exceed 64 characters.
        """
        local, at, domain = base_address.strip().lower().rpartition("@")
        if not at or not local or not domain or "+" in local:
            raise ValueError(f"base address {base_address!r} must look like gm@example.org, without a plus part")
        token = self._token(game, seat, key_version, issued, _REPLY, press_from)
        full_local = f"{local}+{token}"
        if len(full_local) > _MAX_LOCAL_PART:
            raise ValueError(
                f"reply address {full_local}@{domain} has a local part of {len(full_local)} characters, "
                f"over the limit of {_MAX_LOCAL_PART}; use a shorter game name"
            )
        return f"{full_local}@{domain}"

    def link_token(self, game: str, seat: str, key_version: int, issued: date) -> str:
        """Return the token of the private web link of ``seat`` of ``game``, issued on ``issued``.

        Raises ``ValueError`` for a name that holds other than letters, digits
        and '-' or a key version outside 0..999999.
        """
        return self._token(game, seat, key_version, issued, _LINK)

    def verify_link(self, token: str, key_version_lookup: KeyVersionLookup, today: date) -> tuple[str, str]:
        """Return ``(game, seat)`` whose private page the link ``token`` opens: only the token exactly as
        :meth:`link_token` writes it (lower case, no leading zero); any other spelling is malformed.

        Raises the same errors, for the same reasons, as :meth:`verify`.
        """
        found = _TOKEN.fullmatch(token)
        if found is None or found["press"] is not None:
            raise ForgedToken("not a well-formed link")
        parsed = _Token(found["game"], found["seat"], int(found["version"]), int(found["day"]), found["mac"])
        return self._check(parsed, _LINK, key_version_lookup, today)

    def stop_token(self, address: str) -> str:
        """Return the token that stops all mail to ``address`` (the List-Unsubscribe links of every mail
        to it): the address in base32, a dot, and its signature. It never expires: an unsubscribe link
        must keep working."""
        key = address.strip().lower()
        encoded = base64.b32encode(key.encode("utf-8")).decode("ascii").rstrip("=").lower()
        return f"{encoded}.{self._stop_mac(key)}"

    def verify_stop(self, token: str) -> str:
        """Return the address (lower case) the stop ``token`` was made for. Raises :class:`ForgedToken`
        when it is malformed or its signature does not match."""
        found = _STOP_TOKEN.fullmatch(token.strip().lower())
        if found is None:
            raise ForgedToken("not a well-formed unsubscribe token")
        encoded = found["address"].upper()
        try:
            key = base64.b32decode(encoded + "=" * (-len(encoded) % 8)).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            raise ForgedToken("not a well-formed unsubscribe token") from None
        if not hmac.compare_digest(self._stop_mac(key), found["mac"]):
            raise ForgedToken("the unsubscribe token does not carry a valid signature")
        return key

    def bounce_address(self, base_address: str, mail_id: int) -> str:
        """The envelope sender (MAIL FROM) of outgoing mail ``mail_id``: ``local+b-<id>.<mac>@domain``, so a
        bounce comes back to the service's mailbox naming, unforgeably, the mail that did not arrive."""
        local, _, domain = base_address.lower().rpartition("@")
        return f"{local}+b-{mail_id}.{self._bounce_mac(mail_id)}@{domain}"

    def bounced_mail(self, address: str) -> int | None:
        """The id of the outgoing mail whose bounce address ``address`` is, or None when it is none (of
        this key)."""
        local = address.strip().strip("<>").lower().rpartition("@")[0]
        found = _BOUNCE_LOCAL.search(local)
        if found is None or found.end() != len(local):
            return None
        mail_id = int(found["id"])
        return mail_id if hmac.compare_digest(self._bounce_mac(mail_id), found["mac"]) else None

    def _bounce_mac(self, mail_id: int) -> str:
        return self._sign(f"{_BOUNCE}:{mail_id}")

    def _stop_mac(self, address: str) -> str:
        return self._sign(f"{_STOP}:{address}")

    def _sign(self, message: str) -> str:
        """The signature of ``message``: the first 80 bits of its HMAC-SHA256 under the secret, as 16 base32
        letters in lower case (what ``base64.b32encode`` writes for them, lowered)."""
        mac = self._keyed.copy()
        mac.update(message.encode())
        bits = int.from_bytes(mac.digest()[:_MAC_BYTES], "big")
        pairs = _BASE32_PAIRS
        return (pairs[bits >> 70] + pairs[bits >> 60 & 1023] + pairs[bits >> 50 & 1023] + pairs[bits >> 40 & 1023]
                + pairs[bits >> 30 & 1023] + pairs[bits >> 20 & 1023] + pairs[bits >> 10 & 1023] + pairs[bits & 1023])

    def _token(self, game: str, seat: str, key_version: int, issued: date, purpose: str,
               press_from: str | None = None) -> str:
        """``game.seat.kN[.p-author].day.mac``, signed for ``purpose``; raises ValueError for bad names or version."""
        game, seat = game.lower(), seat.lower()
        press = press_from.lower() if press_from is not None else None
        for what, name in (("game", game), ("seat", seat), ("press author", press or "gm")):
            if not _NAME.fullmatch(name):
                raise ValueError(f"{what} name {name!r} may hold only letters, digits and '-'")
        if not 0 <= key_version < 1_000_000:
            raise ValueError(f"key version must be from 0 to 999999, not {key_version}")
        day = (issued - _EPOCH).days
        press_part = f".p-{press}" if press is not None else ""
        return f"{game}.{seat}.k{key_version}{press_part}.{day}.{self._mac(game, seat, key_version, day, press, purpose)}"

    def verify(self, address: str, key_version_lookup: KeyVersionLookup, today: date) -> tuple[str, str]:
        """Return ``(game, seat)`` signed on by the reply ``address`` (any case, with or without <>).

        Raises :class:`ForgedToken` when the address has no well-formed token,
        the signature does not match, or it is dated more than a day ahead;
        :class:`ExpiredToken` when it is older than ``max_age_days`` on
        ``today``; :class:`RevokedToken` when ``key_version_lookup`` knows no
        such seat any more or gives a different key version.
        """
        token = _parse(address)
        if token is None:
            raise ForgedToken(f"{address!r} is not a reply address with a well-formed token")
        return self._check(token, _REPLY, key_version_lookup, today)

    def _check(self, token: _Token, purpose: str, key_version_lookup: KeyVersionLookup,
               today: date) -> tuple[str, str]:
        expected = self._mac(token.game, token.seat, token.version, token.day, token.press, purpose)
        if not hmac.compare_digest(expected, token.mac):
            raise ForgedToken(
                f"the reply address for game {token.game} seat {token.seat} does not carry a valid signature"
            )
        issued = date.fromordinal(_EPOCH.toordinal() + token.day)
        age = (today - issued).days
        if age > self.max_age_days:
            raise ExpiredToken(
                f"the reply address for game {token.game} seat {token.seat} was issued on {issued.isoformat()} "
                f"and expired after {self.max_age_days} days; reply to a newer mail or use SIGNON"
            )
        if age < -1:
            raise ForgedToken(f"the reply address for game {token.game} seat {token.seat} is dated in the future")
        current = key_version_lookup(token.game, token.seat)
        if current is None:
            raise RevokedToken(f"game {token.game} has no seat {token.seat} any more")
        if current != token.version:
            raise RevokedToken(
                f"the reply address for game {token.game} seat {token.seat} is from before the seat "
                "changed hands; it no longer signs on"
            )
        return token.game, token.seat

    def _mac(self, game: str, seat: str, version: int, day: int, press: str | None = None,
             purpose: str = _REPLY) -> str:
        press_part = f".press:{press}" if press is not None else ""
        return self._sign(f"{purpose}:{game}.{seat}.{version}.{day}{press_part}")


def is_token_address(address: str) -> bool:
    """True when ``address`` has the shape of a reply address (``local+game.seat.kN.day.mac@domain``).

    Only the shape: whether the token is genuine is for :meth:`ReplyTokens.verify`.
    """
    return _parse(address) is not None


def press_author(address: str) -> str | None:
    """The author (a seat name, or ``gm``) a press mail's reply address sends replies back to, or None
    for a reply address that is not a press mail's. The shape only: verify the address first."""
    token = _parse(address)
    return token.press if token is not None else None


def token_game(address: str) -> str | None:
    """The game a reply address names, or None for an address of another shape. The shape only: what
    rests on it must rest on something else too (the sender's own seat, for DECLINE)."""
    token = _parse(address)
    return token.game if token is not None else None


def _parse(address: str) -> _Token | None:
    local = address.strip().strip("<>").lower().rpartition("@")[0]
    found = _TOKEN.fullmatch(local.partition("+")[2])
    if found is None:
        return None
    return _Token(found["game"], found["seat"], int(found["version"]), int(found["day"]), found["mac"],
                  found["press"])
