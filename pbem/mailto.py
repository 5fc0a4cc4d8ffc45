"""``mailto:`` URLs (RFC 6068): a reply already addressed and written, opened by one click.

The address keeps the characters RFC 6068 allows in it as they are (a reply-token address holds only
letters, digits, ``.``, ``-``, ``+`` and ``@``); every other character is percent-encoded from UTF-8.
In the subject and body everything but RFC 3986's unreserved characters is percent-encoded, a space
as ``%20`` (never ``+``), and every line break of the body as ``%0D%0A``, as RFC 6068 asks.
"""

from __future__ import annotations

from urllib.parse import quote

_ADDRESS_SAFE = "!$'()*+,;:@"
"""The some-delims of RFC 6068 (besides the unreserved characters, which ``quote`` never encodes)."""


def mailto_url(address: str, *, subject: str = "", body: str = "") -> str:
    """Return the ``mailto:`` URL of a mail to ``address`` with ``subject`` and ``body`` (each left out
    when empty). Body lines may end in LF or CRLF: both are written as CRLF."""
    fields = []
    if subject:
        fields.append("subject=" + quote(subject, safe=""))
    if body:
        lines = body.replace("\r\n", "\n").split("\n")
        fields.append("body=" + quote("\r\n".join(lines), safe=""))
    query = "?" + "&".join(fields) if fields else ""
    return "mailto:" + quote(address, safe=_ADDRESS_SAFE) + query
