"""The time budget of one mail: a watchdog that interrupts handling that runs too long.

Handling a mail runs in the daemon's worker thread. While it runs, the worker
is *watched* (:meth:`Watchdog.watching`); a thread of the watchdog's own
waits for the watched work's deadline and, if the work still runs then,
raises :class:`MailOverrun` inside the worker with
``PyThreadState_SetAsyncExc``. Python code (a parser path nobody found yet, a
hot loop) stops at its next bytecode; the handler's transaction rolls back
and the daemon sets the mail aside and goes on with the next one.

The exception is raised again every :data:`REFIRE_SECONDS` while the work
still runs: one raised while the worker runs a garbage-collector callback or a
``__del__`` is swallowed there ("exception ignored"). Code that does not
return to the interpreter (a call into C that never comes back) cannot be
interrupted this way: once the work is still watched a whole budget after
its deadline, the watchdog calls its ``on_stuck`` once, and the daemon says
so in its log.

Watching costs the worker two attribute writes and one uncontended lock per
mail; the watchdog's thread wakes once per budget while mail is handled (at
the deadline of the work watched then; every :data:`REFIRE_SECONDS` once a
mail overran), and sleeps while nothing is watched (the next watch wakes it).
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

REFIRE_SECONDS = 0.1
"""How often the interruption is raised again while overrunning work still runs."""


class MailOverrun(BaseException):  # noqa: N818 - not an Exception: no `except Exception` in the handler swallows it
    """Raised inside the worker thread when the work it was watched for ran over its budget. A
    :class:`BaseException`, so that the handling code's own ``except Exception`` clauses let it through to
    the transaction, which rolls back."""


@dataclass(eq=False)
class _Watch:
    thread_id: int
    deadline: float
    what: object
    fired: bool = False
    stuck_told: bool = False


class Watchdog:
    """Bounds the time of watched work in other threads (see the module's description)."""

    def __init__(self, budget: float, *, on_stuck: Callable[[object, float], None]) -> None:
        """``budget``: seconds a watched piece of work may take; ``on_stuck(what, seconds)`` is called (in the
        watchdog's thread) when work is still running a whole budget after it was interrupted. Raises
        ValueError unless the budget is positive."""
        if not budget > 0:
            raise ValueError(f"a time budget must be positive, not {budget!r}")
        self.budget = budget
        self._on_stuck = on_stuck
        self._watched: _Watch | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._asleep = False
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the watchdog's thread (a daemon thread: it never keeps the process alive)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pbem-watchdog", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the watchdog's thread; work watched afterwards is not interrupted."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @contextlib.contextmanager
    def watching(self, what: object, *, armed: bool = True) -> Iterator[Callable[[object], None]]:
        """Watch the calling thread for the block: when it runs longer than the budget, :class:`MailOverrun`
        is raised in it (from the point it has reached). ``what`` names the work for ``on_stuck``. An
        interruption that comes as the block ends is either raised from the block or cancelled, never
        raised after it. Unless ``armed``, the block runs unwatched until it calls the function it is
        given with the name of the work: the budget counts from then (what came before, such as waiting for
        the database's write lock to store the mail, is not the mail's work)."""
        watch = _Watch(threading.get_ident(), 0.0, what)

        def arm(named: object) -> None:
            watch.what, watch.deadline = named, time.monotonic() + self.budget
            self._watched = watch
            if self._asleep:  # read after the write above: the watchdog's thread either sees the watch or is woken
                self._asleep = False
                self._wake.set()

        if armed:
            arm(what)
        try:
            yield arm
        finally:
            with self._lock:
                self._watched = None
                fired = watch.fired
            if fired:  # raised, or still pending: a pending one must not hit the code after the block
                _set_async_exception(watch.thread_id, None)

    def _run(self) -> None:
        """Sleep while nothing is watched; else wait for the watched work's deadline, interrupt it if it
        still runs, and a budget later report it if it still runs then."""
        while not self._stop.is_set():
            watch = self._watched
            if watch is None:
                self._sleep()
                continue
            late = time.monotonic() - watch.deadline
            if late < 0:
                self._stop.wait(-late)  # work watched meanwhile ends later: no need to wake for it
                continue
            with self._lock:  # again while it runs: an earlier one may have been swallowed on its way
                if self._watched is watch:
                    watch.fired = True
                    _set_async_exception(watch.thread_id, MailOverrun)
            if late >= self.budget and not watch.stuck_told:
                watch.stuck_told = True
                self._on_stuck(watch.what, self.budget + late)
            self._stop.wait(REFIRE_SECONDS)

    def _sleep(self) -> None:
        """Wait, without waking, until work is watched again (or the watchdog stops)."""
        self._wake.clear()
        self._asleep = True
        if self._watched is None and not self._stop.is_set():  # read after the write above (see watching)
            self._wake.wait()
        self._asleep = False


def _set_async_exception(thread_id: int, exception: type[BaseException] | None) -> None:
    """Have ``exception`` raised in the thread at its next bytecode; None cancels one still pending."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exception) if exception is not None else None)
