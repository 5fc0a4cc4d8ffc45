"""Password guessing: after a few wrong passwords in a row, checks pause for longer and longer.

The count is kept per seat (SIGNON) and per game's GM (GM), across mails and
senders, so rotating sender addresses does not help a guesser. While a
lockout runs no password is checked at all, so a right and a wrong guess get
the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

FREE_FAILURES = 3
"""Wrong passwords in a row that cost nothing (typos); the next one starts the lockout."""
FIRST_LOCKOUT = timedelta(minutes=5)
LONGEST_LOCKOUT = timedelta(hours=24)


@dataclass(frozen=True)
class Failure:
    """The counter after one more wrong password: the new count, the lockout end, and whether it just began."""

    count: int
    locked_until: datetime | None
    started: bool


def is_locked(locked_until: datetime | None, now: datetime) -> bool:
    """True while a lockout that ends at ``locked_until`` runs at ``now``."""
    return locked_until is not None and now < locked_until


def record_failure(count: int, now: datetime) -> Failure:
    """Return the counter after one more wrong password, given ``count`` wrong ones before it.

    From the ``FREE_FAILURES + 1``-th wrong password on, checks pause for
    ``FIRST_LOCKOUT`` doubled for each further one, up to ``LONGEST_LOCKOUT``.
    """
    count += 1
    if count <= FREE_FAILURES:
        return Failure(count, None, False)
    doublings = min(count - FREE_FAILURES - 1, 16)
    length = min(FIRST_LOCKOUT * 2**doublings, LONGEST_LOCKOUT)
    return Failure(count, now + length, count == FREE_FAILURES + 1)
