"""The value of a Content-Type or Content-Disposition field, read by pbem in one pass.

The standard library's parameter parser (``email.message._parseparam``)
counts the quotes before every ``;`` again from the start of the field, and
copies the rest of the field for every parameter: a quote followed by
98,304 ``;`` took 25 s. :func:`read_mime_value` reads a field once from
left to right, in time linear in its length whatever it holds: the type (or
disposition), then RFC 2045 parameters (``name=token`` or
``name="quoted \\"string\\""``), RFC 2231 sections (``name*0``,
``name*1*``) joined in order, and RFC 2231 extended values
(``charset'language'percent-encoded``) decoded in their charset. Only the
parameters asked for are kept. :func:`canonical_field` writes what was read
back as a short field the standard library reads in bounded time and to the
same values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

from pbem.mail.reading.charsets import decode_text

MAX_VALUE = 256
"""Longest parameter value kept, in characters (RFC 2046 boundaries are at most 70, file names 255 bytes):
a longer value is cut."""
MAX_SECTIONS = 64
"""RFC 2231 sections read of one parameter (``name*0`` to ``name*63``); later ones are ignored."""
MAX_TYPE = 127
"""Longest type, subtype or disposition read (RFC 6838: 127 characters); a longer one is not a type."""

_TOKEN = r"[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]{1," + str(MAX_TYPE) + "}"
_TYPE = re.compile(rf"{_TOKEN}/{_TOKEN}")
_DISPOSITION = re.compile(_TOKEN)
_PARAMETER = re.compile(
    r"""[\s;]*+                                  # blanks and empty parameters
        ([^\s;="]*+)                             # 1: the name (empty when the text is junk)
        \s*+
        (?:=\s*+(?:"((?:[^"\\]++|\\.)*+)"?+      # 2: a quoted string (its closing quote may be missing)
                  |([^;]*+)))?+                  # 3: a token (anything up to the next ';')
        [^;]*+                                   # junk after the value
    """,
    re.VERBOSE | re.DOTALL,
)
"""One parameter. Every quantifier is possessive and the alternatives exclude each other, so a match never
tries again what it has read; each match reads at least one character, so the parameters of a field are
read in time linear in its length."""
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_SECTION = re.compile(r"([^*]++)(?:\*([0-9]{1,4}+))?+(\*)?+")
"""A parameter name as RFC 2231 writes it: the name, the section number (``*0``) and the mark of a
percent-encoded value (``*``). Four digits at most: a longer number is no section (and ``int`` of it
costs time quadratic in its length)."""
_UNSAFE = re.compile(r'["\\\x00-\x1f\x7f]')


@dataclass(frozen=True)
class MimeValue:
    """A MIME field as read: ``kind`` is the lower-cased type (``text/plain``) or disposition
    (``attachment``), empty when the field does not start with one; ``parameters`` maps lower-cased
    names to decoded values, of the parameters asked for that the field holds."""

    kind: str
    parameters: Mapping[str, str]


@dataclass
class _Sections:
    """The RFC 2231 sections of one parameter read so far: section number -> (value, percent-encoded)."""

    parts: dict[int, tuple[str, bool]]

    def add(self, number: int, value: str, encoded: bool) -> None:
        if number < MAX_SECTIONS:
            self.parts.setdefault(number, (value, encoded))

    def joined(self) -> str:
        """The sections joined in order; encoded ones percent-decoded, in the charset the first names."""
        data = bytearray()
        charset: str | None = None
        first = min(self.parts)
        for number, (value, encoded) in sorted(self.parts.items()):
            if encoded and number == first:
                declared, quote, rest = value.partition("'")
                if quote:  # charset'language'value
                    charset = declared or None
                    value = rest.partition("'")[2]
            raw = value.encode("utf-8", "surrogateescape")  # raw 8-bit bytes of the field are escaped
            data += unquote_to_bytes(raw) if encoded else raw
        return decode_text(bytes(data), charset)


def read_mime_value(field: str, wanted: frozenset[str]) -> MimeValue:
    """Read a Content-Type or Content-Disposition value (unfolded or not) in time linear in its length.

    ``wanted`` holds the lower-cased names of the parameters to keep; others
    are read past. Of a parameter given more than once the first is kept, and
    a plain value wins over an RFC 2231 one (as the standard library reads
    them). A quoted string whose closing quote is missing runs to the end of
    the field. Values are cut to :data:`MAX_VALUE` characters. Never raises.
    """
    head, _, rest = field.partition(";")
    kind = " ".join(head.split()).lower()
    plain: dict[str, str] = {}
    sectioned: dict[str, _Sections] = {}
    position = 0
    while position < len(rest):
        match = _PARAMETER.match(rest, position)
        assert match is not None  # the pattern matches any text, and at least one character of it
        position = match.end()
        name, quoted, token = match.groups()
        section = _SECTION.fullmatch(name.lower())
        if section is None or section.group(1) not in wanted or (quoted is None and token is None):
            continue
        value = _ESCAPE.sub(r"\1", quoted) if quoted is not None else token.strip()
        base, number, encoded = section.groups()
        if number is None and encoded is None:
            plain.setdefault(base, value)
        else:
            sectioned.setdefault(base, _Sections({})).add(int(number or 0), value, encoded is not None)
    parameters = {name: sections.joined() for name, sections in sectioned.items()} | plain
    return MimeValue(kind, {name: value[:MAX_VALUE] for name, value in parameters.items()})


def canonical_field(value: MimeValue, *, is_type: bool) -> str:
    """``value`` written back as a field the standard library reads to the same kind and parameters,
    in bounded time: a valid kind, then each parameter as a quoted string.

    For a Content-Type (``is_type``) a kind that is not ``type/subtype`` is
    written ``text/plain`` when it has no single ``/`` (as the standard
    library reads it) and ``application/octet-stream`` (a type pbem never
    reads) otherwise; a disposition that is not a token is written
    ``inline``. Quotes, backslashes and control characters are left out of
    the values (none may stand in a charset, boundary or report type).
    """
    if is_type:
        kind = value.kind if _TYPE.fullmatch(value.kind) else (
            "text/plain" if value.kind.count("/") != 1 else "application/octet-stream")
    else:
        kind = value.kind if _DISPOSITION.fullmatch(value.kind) else "inline"
    return kind + "".join(f'; {name}="{_UNSAFE.sub("", text)}"' for name, text in value.parameters.items())
