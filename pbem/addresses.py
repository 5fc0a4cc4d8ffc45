"""Mail addresses as pbem takes them: plain ASCII ``local@domain`` within the limits of SMTP.

One rule for every way an address comes in (a sender's From, SEAT, REPLACE,
``pbem new --seat``, OBSERVE, STANDBY, ``pbem prefs``) and goes out (every mail
pbem writes), so that whatever is stored on a seat can be written to: an
address the mail servers would refuse for ever ("500 Command line too long")
is refused on the way in.
"""

from __future__ import annotations

import re

from pbem.core.errors import InvalidInput

PLAIN_ADDRESS = r'[^\x00-\x20\x7f()<>@,:;"\[\]\\]+@[^\x00-\x20\x7f()<>@,:;"\[\]\\]+'
"""The regular expression of a plain address (without the ASCII-only check and the length limits)."""
MAX_ADDRESS = 254
"""Most characters of an address (RFC 5321: a path of 256 with its angle brackets)."""
MAX_LOCAL_PART = 64
"""Most characters before the ``@`` (RFC 5321, 4.5.3.1.1)."""
MAX_LABEL = 63
"""Most characters of one dot-separated label of the domain (RFC 1035)."""

_PLAIN_ADDRESS = re.compile(PLAIN_ADDRESS)


def address_problem(address: str) -> str | None:
    """Why ``address`` is no address pbem takes, or None when it is one: ASCII ``local@domain`` without
    whitespace, control characters or specials (``()<>,:;"[]\\``), with exactly one ``@``, at most
    :data:`MAX_ADDRESS` characters, a local part of at most :data:`MAX_LOCAL_PART` and domain labels
    of 1 to :data:`MAX_LABEL` characters."""
    if len(address) > MAX_ADDRESS:
        return f"it is {len(address):,} characters long, over the {MAX_ADDRESS} that mail servers take"
    if not address.isascii() or _PLAIN_ADDRESS.fullmatch(address) is None:
        return "it is not written as local@domain (ASCII, no spaces)"
    local, _, domain = address.partition("@")
    if len(local) > MAX_LOCAL_PART:
        return (f"its part before the @ is {len(local)} characters long, over the {MAX_LOCAL_PART} that mail "
                "servers take")
    if any(not 0 < len(label) <= MAX_LABEL for label in domain.split(".")):
        return f"its domain has an empty label or one over {MAX_LABEL} characters"
    return None


def is_plain_address(address: str) -> bool:
    """True when pbem takes ``address`` (see :func:`address_problem`)."""
    return address_problem(address) is None


def checked_address(address: str) -> str:
    """``address`` stripped and in lower case, when pbem takes it; raises InvalidInput quoting it (cut to
    60 characters) and saying why otherwise."""
    address = address.strip().lower()
    problem = address_problem(address)
    if problem is not None:
        shown = address if len(address) <= 60 else address[:57] + "..."
        raise InvalidInput(f"{shown!r} is not a mail address such as alice@example.org: {problem}")
    return address
