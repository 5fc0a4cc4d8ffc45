"""Bytes of a mail (a body, an encoded word, an RFC 2231 value) read as text in their declared charset."""

from __future__ import annotations


def decode_text(data: bytes, charset: str | None) -> str:
    """Decode body bytes in the declared charset; never raises.

    Falls back to UTF-8 when the charset is missing, unknown or wrong for the
    bytes, then to the declared charset with replacement characters, and to
    Latin-1 (which decodes any bytes) when no charset is usable.
    """
    for codec in (charset, "utf-8"):
        if codec:
            try:
                return data.decode(codec)
            except (LookupError, ValueError):  # unknown codec, or bytes not in it
                continue
    try:
        return data.decode(charset or "latin-1", errors="replace")
    except (LookupError, ValueError):
        return data.decode("latin-1")
