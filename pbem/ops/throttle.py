"""A log that cannot flood: at most a few records a second from a logger, the rest counted.

A flood of connections (or of malformed requests) makes a server log one line, often with a traceback,
per connection: thousands a second, megabytes a minute, the disk filled and the service slowed by its
own logging. :class:`Throttle` is a :class:`logging.Filter` that passes at most ``per_second`` records
each second and drops the others; the next record it passes says how many it dropped since the last.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

DEFAULT_PER_SECOND = 3


class Throttle(logging.Filter):
    """Passes at most ``per_second`` records in each second (by ``clock``); the first record passed after
    some were dropped ends with ``(N more like it dropped)``. Safe to share between threads."""

    def __init__(self, per_second: int = DEFAULT_PER_SECOND, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.per_second = per_second
        self.dropped = 0
        """Records dropped since the last one passed."""
        self._clock = clock
        self._second = -1
        self._passed = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """True (log it) for at most ``per_second`` records a second; a record passed after some were
        dropped gets their count appended to its message."""
        with self._lock:
            second = int(self._clock())
            if second != self._second:
                self._second, self._passed = second, 0
            if self._passed >= self.per_second:
                self.dropped += 1
                return False
            self._passed += 1
            dropped, self.dropped = self.dropped, 0
        if dropped:
            record.msg = f"{record.getMessage()} ({dropped} more like it dropped)"
            record.args = None
        return True

