"""Bytes of a mail (a body, an encoded word, an RFC 2231 value) read as text in their declared charset."""

from __future__ import annotations

import codecs

NOT_CHARSETS = frozenset({"punycode", "idna"})
"""Codecs Python offers as text encodings that are no charset of mail text (they encode domain names) and
are never used to read a mail: punycode decodes in time quadratic in the text (400 KB took 24 s)."""


def decode_text(data: bytes, charset: str | None) -> str:
    """Decode body bytes in the declared charset; never raises.

    Falls back to UTF-8 when the charset is missing, unknown, one of
    :data:`NOT_CHARSETS` or wrong for the bytes, then to the declared charset
    with replacement characters, and to Latin-1 (which decodes any bytes)
    when no charset is usable.
    """
    if charset and _codec_name(charset) in (None, *NOT_CHARSETS):  # looked up once: an unknown name costs an import
        charset = None
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


def _codec_name(charset: str) -> str | None:
    """The name of the codec Python reads ``charset`` with (``"UTF8"`` gives ``"utf-8"``), None if unknown."""
    try:
        return codecs.lookup(charset).name
    except (LookupError, ValueError):  # unknown, or not a name ("a\x00b")
        return None
