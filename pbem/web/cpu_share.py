"""The web's share of the processor: page builds may use at most a set share of one core.

With ``pbem serve --web`` the pages are built in the mail daemon's process, and Python runs one thread
at a time: a thread building pages as fast as readers ask takes the interpreter from the thread
answering mail, whatever the operating system does. :class:`CpuShare` counts the processor time each
page build takes (in its own thread, :func:`time.thread_time`) against a credit that grows by ``share``
seconds each second (up to one second's worth); a build waits, sleeping and so leaving the interpreter
to the daemon, until the credit is no longer negative. Over any stretch of time the builds then use at
most ``share`` of a core plus one build's worth, and the daemon keeps the rest.
:class:`SharedThreadPool` is a thread pool whose every task is counted so.
"""

from __future__ import annotations

import concurrent.futures
import functools
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

DEFAULT_SHARE = 0.5
"""The share of one core the web's page builds may use by default."""


class CpuShare:
    """A credit of processor time for work done in threads: ``share`` seconds a second, at most one
    second's worth saved up. Safe to use from many threads."""

    def __init__(self, share: float = DEFAULT_SHARE, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"a share of one core is above 0 and at most 1, not {share:g}")
        self.share = share
        self._clock, self._sleep = clock, sleep
        self._credit = share
        self._at = clock()
        self._lock = threading.Lock()

    def _refill(self) -> float:
        now = self._clock()
        self._credit = min(self.share, self._credit + (now - self._at) * self.share)
        self._at = now
        return self._credit

    @property
    def credit(self) -> float:
        """The processor time that may be used now before a build waits (negative: owed)."""
        with self._lock:
            return self._refill()

    def wait(self) -> None:
        """Return once the credit is not negative, sleeping meanwhile."""
        while True:
            with self._lock:
                credit = self._refill()
            if credit >= 0:
                return
            self._sleep(-credit / self.share)

    def spend(self, seconds: float) -> None:
        """Count ``seconds`` of processor time used."""
        with self._lock:
            self._refill()
            self._credit -= seconds

    def run(self, work: Callable[[], T]) -> T:
        """Wait for credit, do ``work`` in this thread and count the processor time it took."""
        self.wait()
        started = time.thread_time()
        try:
            return work()
        finally:
            self.spend(time.thread_time() - started)


class SharedThreadPool(concurrent.futures.ThreadPoolExecutor):
    """A thread pool whose tasks run within a :class:`CpuShare`."""

    def __init__(self, workers: int, share: CpuShare, *, thread_name_prefix: str = "") -> None:
        super().__init__(workers, thread_name_prefix=thread_name_prefix)
        self.cpu = share

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
        """Run ``fn(*args, **kwargs)`` in a thread of the pool, within the share."""
        return super().submit(self.cpu.run, functools.partial(fn, *args, **kwargs))
