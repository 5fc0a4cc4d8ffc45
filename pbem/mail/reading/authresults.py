"""Whether the receiving mail server found a mail's From forged: its Authentication-Results (RFC 8601).

Anyone can write any From. A receiving server that checks DMARC (OpenDMARC,
rspamd, a provider's own) records the verdict in an Authentication-Results
field that it adds on top of the mail, naming itself by an authserv-id. pbem
believes only the servers the operator names (``pbem serve --trust-authserv
ID``), and of those only the topmost field: a field lower down, or with
another authserv-id, may have been written by the sender. When that field
says ``dmarc=fail``, the From is forged: no command that rests on the From
alone is obeyed, and nothing is written to it.

Bounded work: at most :data:`MAX_FIELDS` fields of at most
:data:`MAX_FIELD` characters each are read, from the first 64 KB of header
(:func:`~pbem.mail.reading.parse.stored_header`).
"""

from __future__ import annotations

from collections.abc import Collection
import authres

from pbem.mail.reading.parse import stored_header

MAX_FIELDS = 20
"""Authentication-Results fields read, from the top."""
MAX_FIELD = 2000
"""Characters of one field read; a longer field is no verdict."""


def from_fails_dmarc(raw: bytes, trusted: Collection[str]) -> bool:
    """True when the topmost Authentication-Results field of ``raw`` whose authserv-id is one of
    ``trusted`` (compared without case) says ``dmarc=fail``. False when ``trusted`` is empty, when no such
    field is there or it cannot be read, and for any other DMARC result."""
    if not trusted:
        return False
    names = {name.lower() for name in trusted}
    fields = stored_header(raw).get_all("Authentication-Results") or []
    for value in fields[:MAX_FIELDS]:
        text = " ".join(str(value).split())
        if len(text) > MAX_FIELD:
            continue
        try:
            header = authres.AuthenticationResultsHeader.parse_value(text)
        except (authres.AuthResError, RecursionError, ValueError, IndexError, AttributeError):
            continue
        if str(header.authserv_id).lower() not in names:
            continue
        return any(result.method == "dmarc" and str(result.result).lower() == "fail" for result in header.results)
    return False
