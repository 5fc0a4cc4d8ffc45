"""``mailto:`` URLs (RFC 6068): a reply already addressed and written, opened by one click.

The address keeps the characters RFC 6068 allows in it as they are (a reply-token address holds only
letters, digits, ``.``, ``-``, ``+`` and ``@``); every other character is percent-encoded from UTF-8.
In the subject and body everything but RFC 3986's unreserved characters is percent-encoded, a space
as ``%20`` (never ``+``), and every line break of the body as ``%0D%0A``, as RFC 6068 asks.
"""

from __future__ import annotations

import re

_ENCODED = re.compile(r"[^A-Za-z0-9._~-]+")
"""Runs of characters other than RFC 3986's unreserved ones: what the subject and body percent-encode."""
_ENCODED_IN_ADDRESS = re.compile(r"[^A-Za-z0-9._~!$'()*+,;:@-]+")
"""What the address percent-encodes: besides the unreserved characters, it keeps RFC 6068's some-delims."""


def mailto_url(address: str, *, subject: str = "", body: str = "") -> str:
    """Return the ``mailto:`` URL of a mail to ``address`` with ``subject`` and ``body`` (each left out
    when empty). Body lines may end in LF or CRLF: both are written as CRLF."""
    fields = []
    if subject:
        fields.append("subject=" + _ENCODED.sub(_percent_encoded, subject))
    if body:
        lines = body.replace("\r\n", "\n").split("\n")
        fields.append("body=" + _ENCODED.sub(_percent_encoded, "\r\n".join(lines)))
    query = "?" + "&".join(fields) if fields else ""
    return "mailto:" + _ENCODED_IN_ADDRESS.sub(_percent_encoded, address) + query


def _percent_encoded(found: re.Match[str]) -> str:
    """The characters ``found`` as UTF-8, each byte as ``%XX`` (upper-case hex digits, as
    :func:`urllib.parse.quote` writes them): one call for each run of them, not one for each character."""
    return "".join([f"%{byte:02X}" for byte in found.group().encode("utf-8")])
