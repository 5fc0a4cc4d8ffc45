"""Seat and GM passwords: generated readable, stored only as salted scrypt hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_password(length: int = 10) -> str:
    """Return a fresh random password of unambiguous lower-case letters and digits."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(length))


def hash_password(password: str) -> str:
    """Return ``salt$hash`` for a password (scrypt, hex encoded)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**12, r=8, p=1)
    return f"{salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str | None) -> bool:
    """True when ``password`` matches a hash made by :func:`hash_password` (False for no hash)."""
    if not stored or "$" not in stored:
        return False
    salt_hex, digest_hex = stored.split("$", 1)
    digest = hashlib.scrypt(password.strip().encode(), salt=bytes.fromhex(salt_hex), n=2**12, r=8, p=1)
    return hmac.compare_digest(digest.hex(), digest_hex)
