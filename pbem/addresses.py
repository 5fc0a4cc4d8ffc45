"""Mail addresses as pbem takes them: plain ASCII ``local@domain``.

One rule for every way an address comes in (a sender's From, JOIN, REPLACE,
``pbem new --seat``) and goes out (every mail pbem writes), so that whatever
is stored on a seat can be written to.
"""

from __future__ import annotations

import re

PLAIN_ADDRESS = r'[^\x00-\x20\x7f()<>@,:;"\[\]\\]+@[^\x00-\x20\x7f()<>@,:;"\[\]\\]+'
"""The regular expression of a plain address (without the ASCII-only check)."""

_PLAIN_ADDRESS = re.compile(PLAIN_ADDRESS)


def is_plain_address(address: str) -> bool:
    """True for an ASCII ``local@domain`` without whitespace, control characters or specials
    (``()<>,:;"[]\\``) and with exactly one ``@``."""
    return address.isascii() and _PLAIN_ADDRESS.fullmatch(address) is not None
