"""Bounces: which recipients a delivery status notification (RFC 3464) or a mail server's own bounce
format says failed, for good or for now.

flufl.bounce (GNU Mailman's bounce detectors: RFC 3464 DSNs and the common non-standard formats of
qmail, Exim, Postfix's older texts, Microsoft, Yahoo and others) reads them. Only a bounce that
comes back to the envelope sender of a mail pbem sent (its signed bounce address, see
:meth:`~pbem.mail.outbound.tokens.ReplyTokens.bounce_address`) counts: a mail from anyone else that looks like
a bounce is never taken for one, so nobody can make pbem stop writing to someone else. Bounded work:
only the first :data:`MAX_BOUNCE` bytes are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.policy import compat32

from flufl.bounce import all_failures

from pbem.mail.reading.bounded_mime import read_message

MAX_BOUNCE = 256 * 1024
"""Bytes of a bounce read: its report and the returned header fit well within."""
_DIAGNOSTIC = re.compile(rb"^Diagnostic-Code:[ \t]*([^\r\n]{1,200})", re.M | re.I)
_STATUS = re.compile(rb"^Status:[ \t]*([^\r\n]{1,200})", re.M | re.I)


@dataclass(frozen=True)
class BounceReport:
    """What a bounce says: the addresses that failed for now and for good, and the server's words."""

    temporary: frozenset[str]
    permanent: frozenset[str]
    diagnostic: str

    @property
    def is_bounce(self) -> bool:
        """True when it names any failed recipient."""
        return bool(self.temporary or self.permanent)


def read_bounce(raw: bytes) -> BounceReport:
    """The failures the bounce ``raw`` reports (addresses in lower case; none when it is no bounce pbem
    can read), with its first Diagnostic-Code (or Status) line."""
    head = raw[:MAX_BOUNCE]
    try:
        temporary, permanent = all_failures(read_message(head, compat32))
    except Exception:  # noqa: BLE001 - a detector that trips on a malformed bounce: no verdict
        temporary, permanent = frozenset(), frozenset()
    status = _STATUS.search(head)
    if status is not None and status.group(1).strip().startswith(b"4."):
        # RFC 3464: a 4.x.x status is a failure for now, even where the server gave up ("Action: failed")
        temporary, permanent = frozenset(temporary) | frozenset(permanent), frozenset()
    found = _DIAGNOSTIC.search(head) or status
    return BounceReport(_addresses(temporary), _addresses(permanent),
                        found.group(1).decode("ascii", "replace").strip() if found else "")


def _addresses(found: frozenset[bytes] | frozenset[str]) -> frozenset[str]:
    return frozenset((item.decode("utf-8", "replace") if isinstance(item, bytes) else item).strip("<> ").lower()
                     for item in found)
